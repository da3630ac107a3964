package io.slagate.gateway.http1;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/** Heads mutated for the differential tests, and how the two readings of one are put side by side. */
public final class HeadMutations {
    /** What mutations insert or overwrite: the bytes a smuggler plays with. */
    private static final byte[] SPICE = {' ', '\t', '\r', '\n', ':', ',', '0', '9', '-', '+', 'a', 'X', 0, 0x7f, (byte) 0xe9, '/', '"'};

    private HeadMutations() {
    }

    /** {@code seed} with one to three edits: a byte replaced, inserted or deleted, or one of {@code lines} added first. */
    public static String mutate(String seed, Random r, String[] lines) {
        StringBuilder s = new StringBuilder(seed);
        int edits = 1 + r.nextInt(3);
        for (int e = 0; e < edits; e++) {
            int at = r.nextInt(s.length());
            switch (r.nextInt(5)) {
                case 0 -> s.setCharAt(at, (char) (SPICE[r.nextInt(SPICE.length)] & 0xff));
                case 1 -> s.insert(at, (char) (SPICE[r.nextInt(SPICE.length)] & 0xff));
                case 2 -> s.deleteCharAt(at);
                default -> s.insert(s.indexOf("\r\n") + 2, lines[r.nextInt(lines.length)] + "\r\n"); // a whole field after the first line
            }
        }
        return s.toString();
    }

    /**
     * Adds a field as compared: by its lower-case name; a media type is case-insensitive, and Jetty hands out its cached
     * lower-case form of a Content-Type it knows ({@code text/Xml} read as {@code text/xml}); the relay keeps the bytes.
     */
    static void add(Map<String, List<String>> fields, String name, String value) {
        fields.computeIfAbsent(name.toLowerCase(), k -> new ArrayList<>()).add(name.equalsIgnoreCase("content-type") ? value.toLowerCase() : value);
    }

    /** A head's fields as compared: by lower-case name, in order within a name. */
    static String fields(HttpHead h) {
        Map<String, List<String>> m = new TreeMap<>();
        for (int f = 0; f < h.fieldCount(); f++) {
            add(m, h.name(f), h.value(f));
        }
        return m.toString();
    }

    public static String printable(String head) {
        return head.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t").replace("\0", "\\0");
    }
}
