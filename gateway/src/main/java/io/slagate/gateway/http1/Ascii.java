package io.slagate.gateway.http1;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The byte-level tests a head is read with: tokens, names compared without case, list members. */
public final class Ascii {
    /** RFC 9110's tchar, by byte value: one lookup per byte of every name and method read. */
    private static final boolean[] TCHAR = new boolean[128];

    static {
        for (int c = 0; c < 128; c++) {
            TCHAR[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
        }
    }

    private Ascii() {
    }

    /** RFC 9110's tchar: the characters of a method or a field name. */
    public static boolean tchar(byte c) {
        return c >= 0 && TCHAR[c];
    }

    /** The index after a run of tchar from {@code from}, at most {@code limit}: {@code from} when there is none. */
    public static int token(ByteBuffer b, int from, int limit) {
        int i = from;
        while (i < limit && tchar(b.get(i))) {
            i++;
        }
        return i;
    }

    /** Whether bytes from..to are {@code lower} (lower-case ASCII), ignoring the bytes' case. */
    public static boolean named(ByteBuffer b, int from, int to, String lower) {
        if (to - from != lower.length()) {
            return false;
        }
        for (int k = 0; k < lower.length(); k++) {
            byte c = b.get(from + k);
            if (c != lower.charAt(k) && !(c >= 'A' && c <= 'Z' && c + ('a' - 'A') == lower.charAt(k))) {
                return false;
            }
        }
        return true;
    }

    /** Whether the comma-separated list in bytes from..to has the member {@code lower}, whitespace around members ignored. */
    public static boolean listContains(ByteBuffer b, int from, int to, String lower) {
        return anyMember(b, from, to, lower, null);
    }

    /** Whether the comma-separated list in bytes from..to has a member other than {@code a} and {@code b} (lower case). */
    public static boolean listHasOther(ByteBuffer buf, int from, int to, String a, String b) {
        return anyMember(buf, from, to, a, b);
    }

    /**
     * With {@code other} null: whether a member is {@code lower}; otherwise whether a (non-empty) member is neither
     * {@code lower} nor {@code other}.
     */
    private static boolean anyMember(ByteBuffer b, int from, int to, String lower, String other) {
        int i = from;
        while (i < to) {
            int end = i;
            while (end < to && b.get(end) != ',') {
                end++;
            }
            int s = i;
            int e = end;
            while (s < e && (b.get(s) == ' ' || b.get(s) == '\t')) {
                s++;
            }
            while (e > s && (b.get(e - 1) == ' ' || b.get(e - 1) == '\t')) {
                e--;
            }
            if (other == null ? named(b, s, e, lower) : s < e && !named(b, s, e, lower) && !named(b, s, e, other)) {
                return true;
            }
            i = end + 1;
        }
        return false;
    }

    /** Bytes from..to as Latin-1 text (what HTTP/1.1 field values are); from a heap buffer's array in one copy. */
    static String string(ByteBuffer b, int from, int to) {
        if (b.hasArray()) {
            return new String(b.array(), b.arrayOffset() + from, to - from, StandardCharsets.ISO_8859_1);
        }
        byte[] a = new byte[to - from];
        b.get(from, a);
        return new String(a, StandardCharsets.ISO_8859_1);
    }
}
