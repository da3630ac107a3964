package io.slagate.gateway.http1;

import java.nio.ByteBuffer;

/**
 * A request head read strictly and in place: the request line and the header fields as offsets into the bytes that
 * hold them (no strings, no copies), and the framing the body follows. It is the byte relay's reading of a client's
 * request (bench/results/byte-relay-design.md): everything outside RFC 9112's grammar is refused, never repaired, so
 * no head it accepts can be framed differently by another HTTP/1.1 parser on the way (request smuggling):
 * <ul>
 *   <li>the request line: a token method, one space, a target of visible ASCII, one space, {@code HTTP/1.0} or
 *       {@code HTTP/1.1}, CRLF; no empty line before it;</li>
 *   <li>each field: a token name, the colon at once (no whitespace before it), a value without control characters
 *       (tab allowed), CRLF; no obsolete line folding, no bare CR or LF anywhere;</li>
 *   <li>framing: {@code Content-Length} at most once, 1–18 decimal digits; {@code Transfer-Encoding} only as exactly
 *       {@code chunked}, at most once, and never beside a {@code Content-Length}; HTTP/1.1 with exactly one
 *       {@code Host}, HTTP/1.0 with at most one;</li>
 *   <li>limits: the head within {@code maxHeadBytes} (else 431; 414 when the request line itself does not end within it)
 *       and at most {@code maxFields} fields.</li>
 * </ul>
 * One instance per connection, reused for each request: {@link #read} allocates nothing once its field table has grown
 * to a connection's widest head.
 */
public final class RequestHead extends HttpHead {
    /** What {@link #read} found. */
    public enum Verdict {
        /** The head is not complete in the bytes held, and nothing in it so far is wrong: read more. */
        INCOMPLETE,
        /** A complete head within the grammar; {@link #length()} bytes long. */
        ACCEPTED,
        /** Outside the grammar or the limits: answer {@link #status()} and close the connection, never resynchronise. */
        REFUSED
    }

    private int from;
    private int length;
    private int methodEnd;
    private int targetStart;
    private int targetEnd;
    private boolean expectContinue;
    private boolean unknownExpectation;
    private int hosts;
    private int status;
    private String refusal;

    public RequestHead(int maxHeadBytes, int maxFields) {
        super(maxHeadBytes, maxFields, true); // obs-text in values, as Jetty's listener takes it (RFC 9110 field-vchar)
    }

    /** Reads the head that starts at {@code from} in {@code b}, up to its limit (the bytes held so far). */
    public Verdict read(ByteBuffer b, int from) {
        return read(b, from, b.limit());
    }

    /** Reads the head that starts at {@code from} in {@code b}'s bytes held up to {@code held} (a buffer being filled). */
    public Verdict read(ByteBuffer b, int from, int held) {
        this.buffer = b;
        this.from = from;
        reset();
        int limit = Math.min(held, from + maxHeadBytes);
        int i = requestLine(b, from, limit);
        boolean lineWhole = i != INCOMPLETE_AT;
        if (i >= 0) {
            i = lines.readAll(b, i, limit, meaning);
        }
        if (i >= 0) {
            length = i - from;
            return framing();
        }
        if (i == REFUSED_AT && status == 0) {
            refuse(lines.status, lines.refusal);
        }
        if (i == INCOMPLETE_AT && held - from >= maxHeadBytes) {
            // as Jetty's listener: a request line that does not end within the bound is a URI too long
            return lineWhole ? refuse(431, "the head is longer than " + maxHeadBytes + " bytes")
                    : refuse(414, "the request line is longer than " + maxHeadBytes + " bytes");
        }
        return i == INCOMPLETE_AT ? Verdict.INCOMPLETE : Verdict.REFUSED;
    }

    private static final int INCOMPLETE_AT = FieldLines.INCOMPLETE_AT;
    private static final int REFUSED_AT = FieldLines.REFUSED_AT;

    private void reset() {
        length = 0;
        resetFields();
        expectContinue = false;
        unknownExpectation = false;
        hosts = 0;
        status = 0;
        refusal = null;
    }

    /** The index after the request line's CRLF; {@link #INCOMPLETE_AT} or {@link #REFUSED_AT}. */
    private int requestLine(ByteBuffer b, int start, int limit) {
        int i = Ascii.token(b, start, limit);
        if (i == limit) {
            return INCOMPLETE_AT;
        }
        if (i == start || b.get(i) != ' ') {
            return refused(400, i == start ? "no method (or an empty line before the request line)" : "no single space after the method");
        }
        methodEnd = i;
        targetStart = ++i;
        while (i < limit && b.get(i) > ' ' && b.get(i) < 0x7f) {
            i++;
        }
        if (i == limit) {
            return INCOMPLETE_AT;
        }
        if (i == targetStart || b.get(i) != ' ') {
            return refused(400, "the target is empty, or not followed by a single space");
        }
        targetEnd = i++;
        if (i + 10 > limit) {
            return prefixOf(b, i, limit, "HTTP/1.1\r\n") || prefixOf(b, i, limit, "HTTP/1.0\r\n") ? INCOMPLETE_AT
                    : refused(version(b, i, limit) ? 505 : 400, "the version is not HTTP/1.0 or HTTP/1.1");
        }
        if (!prefixOf(b, i, i + 7, "HTTP/1.") || (b.get(i + 7) != '0' && b.get(i + 7) != '1')) {
            return refused(version(b, i, limit) ? 505 : 400, "the version is not HTTP/1.0 or HTTP/1.1");
        }
        minorVersion = b.get(i + 7) - '0';
        if (b.get(i + 8) != '\r' || b.get(i + 9) != '\n') {
            return refused(400, "the request line does not end in CRLF after the version");
        }
        return i + 10;
    }

    /** Host and Expect: what a request's head takes beyond framing. */
    @Override
    boolean other(ByteBuffer b, int name, int colon, int v, int end) {
        if (Ascii.named(b, name, colon, "host")) {
            if (!validHost(b, v, end)) {
                return fieldRefused("a Host that is not an authority");
            }
            hosts++;
        } else if (Ascii.named(b, name, colon, "expect")) {
            expectContinue = Ascii.named(b, v, end, "100-continue");
            unknownExpectation |= !expectContinue;
        }
        return true;
    }

    private Verdict framing() {
        if (chunked && contentLength >= 0) {
            return refuse(400, "both Content-Length and Transfer-Encoding");
        }
        if (minorVersion == 1 ? hosts != 1 : hosts > 1) {
            return refuse(400, minorVersion == 1 ? "HTTP/1.1 without exactly one Host" : "more than one Host");
        }
        if (chunked && minorVersion == 0) {
            return refuse(400, "Transfer-Encoding in HTTP/1.0");
        }
        return Verdict.ACCEPTED;
    }

    private int refused(int code, String why) {
        refuse(code, why);
        return REFUSED_AT;
    }

    @Override
    boolean fieldRefused(String why) {
        refuse(400, why);
        return false;
    }

    private Verdict refuse(int code, String why) {
        status = code;
        refusal = why;
        return Verdict.REFUSED;
    }

    /** Whether an HTTP version (HTTP/d.d) starts at {@code from}: one not spoken is a 505, anything else a 400. */
    private static boolean version(ByteBuffer b, int from, int limit) {
        return from + 8 <= limit && prefixOf(b, from, from + 5, "HTTP/") && digit(b.get(from + 5)) && b.get(from + 6) == '.'
                && digit(b.get(from + 7));
    }

    private static boolean digit(byte c) {
        return c >= '0' && c <= '9';
    }

    /**
     * RFC 9110's Host: empty, or an authority without user information: a registered name (unreserved, percent-encoded
     * and sub-delimiter characters) or a bracketed IP literal, then optionally a colon and a port of 1–5 digits.
     */
    private static boolean validHost(ByteBuffer b, int v, int end) {
        int i = v;
        if (i < end && b.get(i) == '[') {
            i++;
            while (i < end && (hex(b.get(i)) || b.get(i) == ':' || b.get(i) == '.')) {
                i++;
            }
            if (i == end || b.get(i) != ']' || i == v + 1) {
                return false;
            }
            i++;
        } else {
            while (i < end && regName(b.get(i))) {
                i++;
            }
        }
        if (i == end) {
            return true;
        }
        if (b.get(i) != ':' || end - i - 1 < 1 || end - i - 1 > 5) {
            return false;
        }
        int port = 0;
        for (int k = i + 1; k < end; k++) {
            if (!digit(b.get(k))) {
                return false;
            }
            port = port * 10 + b.get(k) - '0';
        }
        return port <= 65535;
    }

    private static boolean hex(byte c) {
        return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean regName(byte c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || digit(c) || c == '-' || c == '.' || c == '_' || c == '~'
                || c == '%' || c == '!' || c == '$' || c == '&' || c == '\'' || c == '(' || c == ')' || c == '*' || c == '+'
                || c == ',' || c == ';' || c == '=';
    }

    /** Whether the bytes from..limit are the start of {@code s} (all of it when limit leaves room). */
    private static boolean prefixOf(ByteBuffer b, int from, int limit, String s) {
        for (int k = 0; k < s.length() && from + k < limit; k++) {
            if (b.get(from + k) != s.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** The head's length in bytes, its final CRLF included (after {@link Verdict#ACCEPTED}). */
    public int length() {
        return length;
    }

    /** 400, 431 (too large) or 505 (version), after {@link Verdict#REFUSED}. */
    public int status() {
        return status;
    }

    /** Why the head was refused, for the log; null unless refused. */
    public String refusal() {
        return refusal;
    }

    public String method() {
        return Ascii.string(buffer, from, methodEnd);
    }

    public String target() {
        return Ascii.string(buffer, targetStart, targetEnd);
    }

    public boolean expectContinue() {
        return expectContinue && minorVersion == 1; // RFC 9110 10.1.1: an Expect in an HTTP/1.0 request is ignored
    }

    /** An {@code Expect} other than {@code 100-continue}: an expectation the listener cannot meet (417). */
    public boolean unknownExpectation() {
        return unknownExpectation && minorVersion == 1;
    }
}
