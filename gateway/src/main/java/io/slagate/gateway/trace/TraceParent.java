package io.slagate.gateway.trace;

import java.util.concurrent.ThreadLocalRandom;

/**
 * A W3C trace context ({@code traceparent}) as the gateway reads it: {@code version-traceid-parentid-flags},
 * lowercase hex. Version 00 is exactly 55 characters; a later version may append fields after a dash.
 * Anything else (uppercase, an all-zero id, version ff, a wrong length) is no context at all: the request
 * starts a trace of its own, as the specification asks.
 */
public record TraceParent(long traceHi, long traceLo, long parentId, boolean sampled) {
    static final int LENGTH = 55;

    /** The context {@code value} carries, or null when it is absent or malformed. */
    public static TraceParent parse(String value) {
        if (value == null || value.length() < LENGTH || value.charAt(2) != '-' || value.charAt(35) != '-' || value.charAt(52) != '-') {
            return null;
        }
        int version = hexByte(value, 0);
        if (version < 0 || version == 0xff || version == 0 && value.length() != LENGTH
                || value.length() > LENGTH && value.charAt(LENGTH) != '-') {
            return null;
        }
        if (!hex(value, 3, 35) || !hex(value, 36, 52)) {
            return null;
        }
        long hi = hexLong(value, 3);
        long lo = hexLong(value, 19);
        long parent = hexLong(value, 36);
        int flags = hexByte(value, 53);
        if (flags < 0 || (hi | lo) == 0 || parent == 0) {
            return null;
        }
        return new TraceParent(hi, lo, parent, (flags & 1) != 0);
    }

    /** A trace started here: a random trace id and parent id, sampled (for a request that came without a context). */
    public static String started() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return header(r.nextLong(), RequestSpan.nonZero(r), RequestSpan.nonZero(r));
    }

    /** The header naming span {@code spanId} of trace (hi, lo) as the parent, sampled. */
    static String header(long hi, long lo, long spanId) {
        StringBuilder b = new StringBuilder(LENGTH).append("00-");
        hex(b, hi);
        hex(b, lo);
        b.append('-');
        hex(b, spanId);
        return b.append("-01").toString();
    }

    static void hex(StringBuilder b, long v) {
        for (int shift = 60; shift >= 0; shift -= 4) {
            b.append(Character.forDigit((int) (v >>> shift) & 0xf, 16));
        }
    }

    private static boolean hex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (digit(s.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** 16 hex digits from {@code at}, already checked. */
    private static long hexLong(String s, int at) {
        long v = 0;
        for (int i = at; i < at + 16; i++) {
            v = v << 4 | digit(s.charAt(i));
        }
        return v;
    }

    private static int hexByte(String s, int at) {
        int a = digit(s.charAt(at));
        int b = digit(s.charAt(at + 1));
        return a < 0 || b < 0 ? -1 : a << 4 | b;
    }

    /** A lowercase hex digit's value, or −1 (uppercase is not valid in a traceparent). */
    private static int digit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    }
}
