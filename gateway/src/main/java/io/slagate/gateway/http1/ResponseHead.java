package io.slagate.gateway.http1;

import java.nio.ByteBuffer;

/**
 * A server's answer head read strictly and in place: the status line and the header fields as offsets into the bytes
 * that hold them, and the framing its body follows. What a server sends reaches clients, so an answer outside RFC
 * 9112's grammar is refused (the server failed), never repaired: no head this reading accepts can be framed differently
 * by the client's parser (response splitting, an answer that swallows or leaves bytes on a reused connection):
 * <ul>
 *   <li>the status line: {@code HTTP/1.0} or {@code HTTP/1.1}, one space, three digits from 100 to 599, then CRLF or one
 *       space and a reason phrase of visible ASCII and spaces (no tab, no obs-text: nobody reads it, and Jetty's
 *       parser refuses both where a reason starts), CRLF;</li>
 *   <li>each field as {@link FieldLines} reads it (no folding, no bare CR or LF, a token name with its colon at once),
 *       obs-text allowed in values: a legacy server's Latin-1 is relayed as it came;</li>
 *   <li>framing: {@code Content-Length} at most once, 1–18 decimal digits; {@code Transfer-Encoding} only as exactly
 *       {@code chunked}, at most once, never beside a {@code Content-Length} and never in HTTP/1.0;</li>
 *   <li>limits: the head within {@code maxHeadBytes} and at most {@code maxFields} fields.</li>
 * </ul>
 * Whether the answer has a body at all (an answer to HEAD, a 1xx, 204 or 304) is the exchange's to say: it knows the
 * request. One instance per server connection, reused for each answer.
 */
public final class ResponseHead extends HttpHead {
    /** What {@link #read} found. */
    public enum Verdict {
        /** The head is not complete in the bytes held, and nothing in it so far is wrong: read more. */
        INCOMPLETE,
        /** A complete head within the grammar; {@link #length()} bytes long. */
        ACCEPTED,
        /** Outside the grammar or the limits: the server failed; {@link #refusal()} says how. */
        REFUSED
    }

    /** "HTTP/1.x NNN" and a line end: the shortest status line. */
    private static final int STATUS_LINE_MIN = 14;

    private int length;
    private int statusLineEnd;
    private int status;
    private String refusal;

    public ResponseHead(int maxHeadBytes, int maxFields) {
        super(maxHeadBytes, maxFields, true);
    }

    /** Reads the head that starts at {@code from} in {@code b}'s bytes held up to {@code held}. */
    public Verdict read(ByteBuffer b, int from, int held) {
        buffer = b;
        reset();
        int limit = Math.min(held, from + maxHeadBytes);
        int i = statusLine(b, from, limit);
        if (i >= 0) {
            i = lines.readAll(b, i, limit, meaning);
        }
        if (i >= 0) {
            length = i - from;
            return framing();
        }
        if (i == FieldLines.REFUSED_AT && refusal == null) {
            refuse(lines.refusal);
        }
        if (i == FieldLines.INCOMPLETE_AT && held - from >= maxHeadBytes) {
            return refuse("the head is longer than " + maxHeadBytes + " bytes");
        }
        return i == FieldLines.INCOMPLETE_AT ? Verdict.INCOMPLETE : Verdict.REFUSED;
    }

    private void reset() {
        length = 0;
        resetFields();
        status = 0;
        refusal = null;
    }

    /** The index after the status line's CRLF; {@link FieldLines#INCOMPLETE_AT} or {@link FieldLines#REFUSED_AT}. */
    private int statusLine(ByteBuffer b, int start, int limit) {
        String version = "HTTP/1.";
        for (int k = 0; k < version.length() + 1 && start + k < limit; k++) {
            byte c = b.get(start + k);
            if (k < version.length() ? c != version.charAt(k) : c != '0' && c != '1') {
                return refusedAt("the status line does not start with HTTP/1.0 or HTTP/1.1");
            }
        }
        if (start + STATUS_LINE_MIN > limit) {
            return FieldLines.INCOMPLETE_AT;
        }
        minorVersion = b.get(start + 7) - '0';
        if (b.get(start + 8) != ' ') {
            return refusedAt("no single space after the version");
        }
        int code = 0;
        for (int k = start + 9; k < start + 12; k++) {
            byte d = b.get(k);
            if (d < '0' || d > '9') {
                return refusedAt("the status is not three digits");
            }
            code = code * 10 + d - '0';
        }
        if (code < 100 || code > 599) {
            return refusedAt("status " + code + " is not HTTP");
        }
        status = code;
        int i = start + 12;
        if (b.get(i) == ' ') {
            i++;
            while (i < limit && b.get(i) != '\r') {
                byte c = b.get(i);
                if (c < ' ' || c == 0x7f) {
                    return refusedAt("a reason phrase with other than visible ASCII and spaces");
                }
                i++;
            }
        } else if (b.get(i) != '\r') {
            return refusedAt("the status is not followed by a space or the line's end");
        }
        if (i + 1 >= limit) {
            return FieldLines.INCOMPLETE_AT;
        }
        if (b.get(i + 1) != '\n') {
            return refusedAt("a bare CR in the status line");
        }
        statusLineEnd = i + 2;
        return statusLineEnd;
    }

    /** An answer takes nothing beyond its framing and connection fields. */
    @Override
    boolean other(ByteBuffer b, int name, int colon, int v, int end) {
        return true;
    }

    private Verdict framing() {
        if (chunked && contentLength >= 0) {
            return refuse("both Content-Length and Transfer-Encoding");
        }
        if (chunked && minorVersion == 0) {
            return refuse("Transfer-Encoding in HTTP/1.0");
        }
        return Verdict.ACCEPTED;
    }

    private int refusedAt(String why) {
        refuse(why);
        return FieldLines.REFUSED_AT;
    }

    @Override
    boolean fieldRefused(String why) {
        refuse(why);
        return false;
    }


    private Verdict refuse(String why) {
        refusal = why;
        return Verdict.REFUSED;
    }

    /** The head's length in bytes, its final CRLF included (after {@link Verdict#ACCEPTED}). */
    public int length() {
        return length;
    }

    /** Why the head was refused, for the log and the server's error; null unless refused. */
    public String refusal() {
        return refusal;
    }

    /** 100–599, once the status line was read. */
    public int status() {
        return status;
    }

    /** Whether the answer has no body whatever its fields say (RFC 9112 6.3): an answer to HEAD, a 1xx, 204 or 304. */
    public boolean bodiless(boolean toHead) {
        return toHead || status < 200 || status == 204 || status == 304;
    }
}
