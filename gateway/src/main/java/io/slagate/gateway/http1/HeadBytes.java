package io.slagate.gateway.http1;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.eclipse.jetty.http.HttpStatus;

/**
 * A response head rendered into one connection's reusable array: the connection's answers go out one
 * after the other, so the bytes of one are sent before the next is rendered over them. A field that
 * could split the head (a CR, LF or NUL in it, a name that is not a token) is refused, never written.
 */
public final class HeadBytes {
    /** Every status line, by version and status: rendered once, copied into each answer. */
    private static final byte[][][] STATUS_LINES = new byte[2][600][];

    static {
        for (int minor = 0; minor <= 1; minor++) {
            for (int status = 100; status < 600; status++) {
                STATUS_LINES[minor][status] = renderStatusLine(minor, status);
            }
        }
    }

    private static byte[] renderStatusLine(int minorVersion, int status) {
        String reason = HttpStatus.getMessage(status);
        return ("HTTP/1." + minorVersion + " " + status + " " + (reason == null ? "" : reason) + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    private static final byte[] NONE = {};
    /** Allocated by the first answer: a connection that never gets one (refused at accept, idle) holds none. */
    private byte[] bytes = NONE;
    private int size;

    /** {@code HTTP/1.x status reason} and its line end. */
    public HeadBytes statusLine(int minorVersion, int status) {
        byte[] line = status >= 100 && status <= 599 ? STATUS_LINES[minorVersion][status] : renderStatusLine(minorVersion, status);
        room(line.length);
        System.arraycopy(line, 0, bytes, size, line.length);
        size += line.length;
        return this;
    }

    public HeadBytes ascii(String s) {
        int n = s.length();
        room(n);
        for (int i = 0; i < n; i++) {
            bytes[size++] = (byte) s.charAt(i);
        }
        return this;
    }

    /** {@code v} in decimal, written in place: no string per answer for a length. */
    public HeadBytes number(long v) {
        if (v < 0) {
            return ascii(Long.toString(v));
        }
        int digits = 1;
        for (long rest = v / 10; rest > 0; rest /= 10) {
            digits++;
        }
        room(digits);
        for (int i = size + digits - 1; i >= size; i--) {
            bytes[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        size += digits;
        return this;
    }

    public HeadBytes crlf() {
        room(2);
        bytes[size++] = '\r';
        bytes[size++] = '\n';
        return this;
    }

    /** {@code name: value} and its line end; ISO-8859-1, as HTTP fields are. */
    public HeadBytes field(String name, String value) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("an empty field name in the answer");
        }
        for (int i = 0; i < name.length(); i++) {
            if (!Ascii.tchar((byte) name.charAt(i)) || name.charAt(i) > 0x7e) {
                throw new IllegalArgumentException("field name " + name + " is not a token");
            }
        }
        String v = value == null ? "" : value;
        room(name.length() + v.length() + 4);
        ascii(name);
        bytes[size++] = ':';
        bytes[size++] = ' ';
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '\r' || c == '\n' || c == 0 || c > 0xff) {
                throw new IllegalArgumentException("the value of " + name + " cannot be sent in a head");
            }
            bytes[size++] = (byte) c;
        }
        return crlf();
    }

    /** Bytes {@code from..to} of {@code b} as they are: lines read strictly before, nothing checked again. */
    public HeadBytes bytes(ByteBuffer b, int from, int to) {
        room(to - from);
        b.get(from, bytes, size, to - from);
        size += to - from;
        return this;
    }

    /** What {@code other} holds, appended; {@code other} starts afresh. */
    public HeadBytes append(HeadBytes other) {
        room(other.size);
        System.arraycopy(other.bytes, 0, bytes, size, other.size);
        size += other.size;
        other.size = 0;
        return this;
    }

    /** Forgets what was rendered. */
    public void clear() {
        size = 0;
    }

    /** The head so far, as a buffer over this array, and a fresh start for the next one. */
    public ByteBuffer take() {
        ByteBuffer b = ByteBuffer.wrap(bytes, 0, size);
        size = 0;
        return b;
    }

    private void room(int n) {
        if (size + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(Math.max(bytes.length * 2, 512), size + n));
        }
    }
}
