package io.slagate.gateway.http1;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The header fields of a head, read strictly and kept as offsets into the bytes that hold them: a token name, the colon
 * at once (no whitespace before it), a value without control characters (tab allowed), CRLF; no obsolete line folding,
 * no bare CR or LF. Requests and answers share these rules ({@link RequestHead}, {@link ResponseHead}); what a field
 * means is the head's to judge. One instance per head reader, reused: it allocates nothing once its table has grown to
 * the widest head seen.
 */
final class FieldLines {
    /** {@link #read}: the line is not complete in the bytes held. */
    static final int INCOMPLETE_AT = -1;
    /** {@link #read}: the line is outside the grammar or the limit; {@link #status} and {@link #refusal} say why. */
    static final int REFUSED_AT = -2;

    private static final int MAX_LENGTH_DIGITS = 18;

    /** What a head takes from each field it reads (framing, reuse); false when the field breaks its rules. */
    interface Meaning {
        boolean take(ByteBuffer b, int name, int colon, int v, int end);
    }

    private final int maxFields;
    /** Whether a value may hold obs-text (bytes 0x80–0xFF, RFC 9110's field-vchar): a server's Latin-1 values are relayed. */
    private final boolean obsText;
    /** Per field: line start (the name's), name end (its colon), value start, value end (whitespace around it left out), line end. */
    private int[] table = new int[5 * 16];
    private int count;
    /** 400, or 431 past {@code maxFields}, after {@link #REFUSED_AT}. */
    int status;
    String refusal;

    FieldLines(int maxFields, boolean obsText) {
        this.maxFields = maxFields;
        this.obsText = obsText;
    }

    void reset() {
        count = 0;
        status = 0;
        refusal = null;
    }

    int count() {
        return count;
    }

    /**
     * The fields from {@code i} up to the empty line that ends the head, each given to {@code meaning}: the index after
     * that line; {@link #INCOMPLETE_AT}, or {@link #REFUSED_AT} (here {@link #refusal} says why, unless the meaning
     * refused a field).
     */
    int readAll(ByteBuffer b, int i, int limit, Meaning meaning) {
        while (true) {
            if (i < limit && b.get(i) == '\n') {
                return refused(400, "a bare LF"); // refused now, not waited on: it never starts a field or ends the head
            }
            if (i + 1 >= limit) {
                return INCOMPLETE_AT; // the empty line that ends the head, or the next field, is still to come
            }
            if (b.get(i) == '\r') {
                return b.get(i + 1) == '\n' ? i + 2 : refused(400, "a bare CR");
            }
            int next = read(b, i, limit);
            if (next < 0) {
                return next;
            }
            int f = count - 1;
            if (!meaning.take(b, nameStart(f), nameEnd(f), valueStart(f), valueEnd(f))) {
                return REFUSED_AT;
            }
            i = next;
        }
    }

    /** One field from {@code start}: the index after its CRLF; {@link #INCOMPLETE_AT} or {@link #REFUSED_AT}. */
    int read(ByteBuffer b, int start, int limit) {
        byte first = b.get(start);
        if (first == ' ' || first == '\t') {
            return refused(400, "obsolete line folding");
        }
        int colon = Ascii.token(b, start, limit);
        if (colon == limit) {
            return INCOMPLETE_AT;
        }
        if (colon == start || b.get(colon) != ':') {
            return refused(400, colon == start ? "a field without a name, or a bare CR or LF" : "a field name outside tchar, or whitespace before its colon");
        }
        int v = colon + 1;
        while (v < limit && (b.get(v) == ' ' || b.get(v) == '\t')) {
            v++;
        }
        int end = v;
        while (end < limit) {
            byte c = b.get(end);
            if (c == '\r') {
                break;
            }
            if (!text(c, obsText)) {
                return refused(400, "a control character, NUL or bare LF in a field value");
            }
            end++;
        }
        if (end + 1 >= limit) {
            return INCOMPLETE_AT;
        }
        if (b.get(end + 1) != '\n') {
            return refused(400, "a bare CR in a field value");
        }
        int valueEnd = end;
        while (valueEnd > v && (b.get(valueEnd - 1) == ' ' || b.get(valueEnd - 1) == '\t')) {
            valueEnd--;
        }
        if (count == maxFields) {
            return refused(431, "more than " + maxFields + " header fields");
        }
        if (table.length < 5 * (count + 1)) {
            table = Arrays.copyOf(table, table.length * 2);
        }
        int k = 5 * count++;
        table[k] = start;
        table[k + 1] = colon;
        table[k + 2] = v;
        table[k + 3] = valueEnd;
        table[k + 4] = end + 2;
        return end + 2;
    }

    /** Why bytes v..end are not a Content-Length (1–18 decimal digits: no sign, no list, no overflow), or null. */
    static String lengthProblem(ByteBuffer b, int v, int end) {
        if (v == end || end - v > MAX_LENGTH_DIGITS) {
            return "Content-Length empty or longer than " + MAX_LENGTH_DIGITS + " digits";
        }
        for (int k = v; k < end; k++) {
            if (b.get(k) < '0' || b.get(k) > '9') {
                return "Content-Length not a decimal number";
            }
        }
        return null;
    }

    /** The value of bytes v..end, once {@link #lengthProblem} found none. */
    static long decimal(ByteBuffer b, int v, int end) {
        long n = 0;
        for (int k = v; k < end; k++) {
            n = n * 10 + b.get(k) - '0';
        }
        return n;
    }

    /** A byte of a field value or reason phrase: visible ASCII, space or tab, and obs-text when allowed. */
    static boolean text(byte c, boolean obsText) {
        return c < 0 ? obsText : (c >= ' ' || c == '\t') && c != 0x7f;
    }

    private int refused(int code, String why) {
        status = code;
        refusal = why;
        return REFUSED_AT;
    }

    int nameStart(int field) {
        return table[5 * field];
    }

    int nameEnd(int field) {
        return table[5 * field + 1];
    }

    int valueStart(int field) {
        return table[5 * field + 2];
    }

    int valueEnd(int field) {
        return table[5 * field + 3];
    }

    /** Where the field's line ends: after its CRLF. */
    int lineEnd(int field) {
        return table[5 * field + 4];
    }

    String name(ByteBuffer b, int field) {
        return Ascii.string(b, nameStart(field), nameEnd(field));
    }

    String value(ByteBuffer b, int field) {
        return Ascii.string(b, valueStart(field), valueEnd(field));
    }

    /** The value of the first field named {@code lowerName} (ASCII case ignored), or null. */
    String value(ByteBuffer b, String lowerName) {
        for (int f = 0; f < count; f++) {
            if (Ascii.named(b, nameStart(f), nameEnd(f), lowerName)) {
                return value(b, f);
            }
        }
        return null;
    }
}
