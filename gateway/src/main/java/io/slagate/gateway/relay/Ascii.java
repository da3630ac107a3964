package io.slagate.gateway.relay;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The byte-level tests a head is read with: tokens, names compared without case, list members. */
public final class Ascii {
    private Ascii() {
    }

    /** RFC 9110's tchar: the characters of a method or a field name. */
    public static boolean tchar(byte c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '!' || c == '#' || c == '$' || c == '%' || c == '&' || c == '\'' || c == '*' || c == '+'
                || c == '-' || c == '.' || c == '^' || c == '_' || c == '`' || c == '|' || c == '~';
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
            if (named(b, s, e, lower)) {
                return true;
            }
            i = end + 1;
        }
        return false;
    }

    /** Bytes from..to as Latin-1 text (what HTTP/1.1 field values are). */
    static String string(ByteBuffer b, int from, int to) {
        byte[] a = new byte[to - from];
        b.get(from, a);
        return new String(a, StandardCharsets.ISO_8859_1);
    }
}
