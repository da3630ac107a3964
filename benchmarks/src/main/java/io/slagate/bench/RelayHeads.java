package io.slagate.bench;

import io.slagate.gateway.relay.Ascii;
import java.nio.ByteBuffer;

/**
 * The byte relay's strict reading of a server's response head in place (no strings, no copies): the status line, then
 * each header field checked by RFC 9112's grammar, keeping only what framing needs (request heads are read by the
 * gateway's {@code io.slagate.gateway.relay.RequestHead}). Anything outside the grammar,
 * obsolete line folding, a bare CR or LF, a duplicated or non-numeric Content-Length, or a Transfer-Encoding (the relay
 * frames by length only) makes the head unreadable: null.
 */
final class RelayHeads {
    private RelayHeads() {
    }

    /** What the relay needs of a response head. */
    static final class ResponseHead {
        /** The body's length; −1: until the server closes. */
        long contentLength;
        boolean keepAlive;

        static ResponseHead parse(ByteBuffer b, int headEnd) {
            int minor = version(b, 0);
            if (minor < 0 || b.get(8) != ' ') {
                return null;
            }
            int status = 0;
            for (int k = 9; k < 12; k++) {
                byte d = b.get(k);
                if (d < '0' || d > '9') {
                    return null;
                }
                status = status * 10 + d - '0';
            }
            int i = 12;
            if (b.get(i) != ' ' && b.get(i) != '\r') {
                return null;
            }
            while (i < headEnd && b.get(i) != '\r') {
                byte c = b.get(i);
                if ((c < ' ' && c != '\t') || c == 0x7f) {
                    return null;
                }
                i++;
            }
            if (i + 1 >= headEnd || b.get(i + 1) != '\n') {
                return null;
            }
            Fields f = new Fields();
            if (!f.read(b, i + 2, headEnd) || f.transferEncoding) {
                return null;
            }
            ResponseHead h = new ResponseHead();
            boolean noBody = status < 200 || status == 204 || status == 304;
            h.contentLength = noBody ? 0 : f.contentLength;
            h.keepAlive = !f.close && (f.keepAlive || minor == 1);
            return h;
        }
    }

    /** The header fields of a head, from {@code from} to {@code headEnd}. */
    private static final class Fields {
        long contentLength = -1;
        boolean transferEncoding;
        boolean close;
        boolean keepAlive;

        boolean read(ByteBuffer b, int from, int headEnd) {
            int i = from;
            while (i < headEnd - 2) {
                int colon = Ascii.token(b, i, headEnd);
                if (colon <= i || b.get(colon) != ':') {
                    return false; // an empty name, a space before the colon, or folding
                }
                int v = colon + 1;
                while (b.get(v) == ' ' || b.get(v) == '\t') {
                    v++;
                }
                int end = v;
                while (end < headEnd && b.get(end) != '\r') {
                    byte c = b.get(end);
                    if ((c < ' ' && c != '\t') || c == 0x7f) {
                        return false; // a bare LF or a control character in the value
                    }
                    end++;
                }
                if (b.get(end + 1) != '\n') {
                    return false;
                }
                int valueEnd = end;
                while (valueEnd > v && (b.get(valueEnd - 1) == ' ' || b.get(valueEnd - 1) == '\t')) {
                    valueEnd--;
                }
                if (!field(b, i, colon, v, valueEnd)) {
                    return false;
                }
                i = end + 2;
            }
            return i == headEnd - 2;
        }

        private boolean field(ByteBuffer b, int name, int colon, int v, int end) {
            if (Ascii.named(b, name, colon, "content-length")) {
                if (contentLength >= 0 || v == end || end - v > 12) {
                    return false; // repeated, empty or beyond any body the relay holds
                }
                long n = 0;
                for (int k = v; k < end; k++) {
                    byte d = b.get(k);
                    if (d < '0' || d > '9') {
                        return false;
                    }
                    n = n * 10 + d - '0';
                }
                contentLength = n;
            } else if (Ascii.named(b, name, colon, "transfer-encoding")) {
                transferEncoding = true;
            } else if (Ascii.named(b, name, colon, "connection")) {
                close |= Ascii.listContains(b, v, end, "close");
                keepAlive |= Ascii.listContains(b, v, end, "keep-alive");
            }
            return true;
        }
    }

    /** "HTTP/1.x" at {@code at}: x (0 or 1), else −1. */
    static int version(ByteBuffer b, int at) {
        if (b.limit() < at + 8) {
            return -1;
        }
        String v = "HTTP/1.";
        for (int k = 0; k < v.length(); k++) {
            if (b.get(at + k) != v.charAt(k)) {
                return -1;
            }
        }
        byte m = b.get(at + 7);
        return m == '0' || m == '1' ? m - '0' : -1;
    }
}
