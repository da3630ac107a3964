package io.slagate.gateway.http1;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;

/**
 * What a request head and an answer head read in place share ({@link RequestHead}, {@link ResponseHead}): the fields as
 * ranges of the bytes read ({@link FieldLines}), the version, and what the framing and connection fields say, checked
 * the same strict way for both: {@code Content-Length} at most once and 1–18 decimal digits, {@code Transfer-Encoding}
 * only as exactly {@code chunked} and at most once. Other fields are the head's own to judge ({@link #other}).
 */
public abstract class HttpHead {
    final int maxHeadBytes;
    final FieldLines lines;
    final FieldLines.Meaning meaning = this::meaning;
    ByteBuffer buffer;
    int minorVersion;
    long contentLength;
    boolean chunked;
    boolean close;
    boolean keepAliveAsked;
    boolean connectionNamesFields;

    HttpHead(int maxHeadBytes, int maxFields, boolean obsText) {
        if (maxHeadBytes < 16 || maxFields < 1) {
            throw new IllegalArgumentException("a head of at least 16 bytes and one field");
        }
        this.maxHeadBytes = maxHeadBytes;
        this.lines = new FieldLines(maxFields, obsText);
    }

    void resetFields() {
        lines.reset();
        contentLength = -1;
        chunked = false;
        close = false;
        keepAliveAsked = false;
        connectionNamesFields = false;
    }

    /** A field beyond framing and connection: the head's own meaning; false when it breaks the head's rules. */
    abstract boolean other(ByteBuffer b, int name, int colon, int v, int end);

    /** Refuses the head for a field, with a 400 where the head answers with a status: false. */
    abstract boolean fieldRefused(String why);

    private boolean meaning(ByteBuffer b, int name, int colon, int v, int end) {
        if (Ascii.named(b, name, colon, "content-length")) {
            if (contentLength >= 0) {
                return fieldRefused("Content-Length more than once");
            }
            String problem = FieldLines.lengthProblem(b, v, end);
            if (problem != null) {
                return fieldRefused(problem);
            }
            contentLength = FieldLines.decimal(b, v, end);
            return true;
        }
        if (Ascii.named(b, name, colon, "transfer-encoding")) {
            if (chunked || !Ascii.named(b, v, end, "chunked")) {
                return fieldRefused("Transfer-Encoding other than a single chunked");
            }
            chunked = true;
            return true;
        }
        if (Ascii.named(b, name, colon, "connection")) {
            close |= Ascii.listContains(b, v, end, "close");
            keepAliveAsked |= Ascii.listContains(b, v, end, "keep-alive");
            connectionNamesFields |= Ascii.listHasOther(b, v, end, "keep-alive", "close");
            return true;
        }
        return other(b, name, colon, v, end);
    }

    /** 0 or 1: HTTP/1.0 or HTTP/1.1. */
    public int minorVersion() {
        return minorVersion;
    }

    public int fieldCount() {
        return lines.count();
    }

    public String name(int field) {
        return lines.name(buffer, field);
    }

    public String value(int field) {
        return lines.value(buffer, field);
    }

    /** The value of the first field named {@code lowerName} (ASCII case ignored), or null. */
    public String value(String lowerName) {
        return lines.value(buffer, lowerName);
    }

    /** The body's length from Content-Length; −1 when there is none. */
    public long contentLength() {
        return contentLength;
    }

    public boolean chunked() {
        return chunked;
    }

    /** Whether a Connection field names fields beyond {@code keep-alive} and {@code close}: they stay on this hop. */
    public boolean connectionNamesFields() {
        return connectionNamesFields;
    }

    /** Whether the connection stays open after this exchange: HTTP/1.1 unless {@code close}, HTTP/1.0 only if asked. */
    public boolean keepAlive() {
        return !close && (minorVersion == 1 || keepAliveAsked);
    }

    /**
     * Field {@code field} as Jetty's {@link HttpField}: a known name (Jetty's index of them, matched without case) as its
     * header and canonical string, with no string made for it, so that code reading Jetty's fields treats framing,
     * connection and forwarding fields as its own; the value as sent. The buffer must be the one this head was
     * read from, its position anywhere (Jetty's index takes offsets from it).
     */
    public HttpField httpField(int field) {
        int name = lines.nameStart(field);
        int colon = lines.nameEnd(field);
        int v = lines.valueStart(field);
        int end = lines.valueEnd(field);
        String value = Ascii.string(buffer, v, end);
        HttpHeader header = HeaderNames.find(buffer, name, colon);
        if (header != null) {
            return new HttpField(header, header.asString(), value);
        }
        return new HttpField(Ascii.string(buffer, name, colon), value);
    }

    /** Whether field {@code field}'s name is {@code lower} (lower-case ASCII), whatever its case. */
    public boolean named(int field, String lower) {
        return Ascii.named(buffer, lines.nameStart(field), lines.nameEnd(field), lower);
    }

    /** Where field {@code field}'s line starts in the buffer read, and where it ends (after its CRLF): to relay it as it came. */
    public int lineStart(int field) {
        return lines.nameStart(field);
    }

    /** The buffer the head was read from (its lines are ranges of it). */
    public ByteBuffer buffer() {
        return buffer;
    }

    public int lineEnd(int field) {
        return lines.lineEnd(field);
    }
}
