package io.slagate.gateway.http1;

import java.nio.ByteBuffer;

/**
 * A chunked request body (RFC 9112 §7.1) decoded as it arrives, in place: the data of each chunk is handed on as a range
 * of the bytes held, nothing copied. Strict where framing could be read two ways: a chunk size is hexadecimal digits
 * only (at most 16) and is checked against what the body may still hold at every digit, before any data is taken;
 * chunk extensions are {@code ;name} or {@code ;name=value} with a token or a quoted string without escapes and no
 * whitespace, bounded; trailer fields are bounded and may hold no control character; every line ends in CRLF,
 * and a chunk's data is followed by exactly CRLF. A refusal is final: the connection is closed, never resynchronised.
 * One instance per connection, {@link #reset()} for each chunked request.
 */
public final class ChunkedBody {
    /** Where a chunk's data goes: bytes {@code from..to} of {@code b}, valid only during the call. */
    public interface Sink {
        void data(ByteBuffer b, int from, int to);
    }

    private enum Step {
        SIZE, EXT_NAME_START, EXT_NAME, EXT_VALUE_START, EXT_TOKEN, EXT_QUOTED, EXT_AFTER_QUOTE, SIZE_LF,
        DATA, DATA_CR, DATA_LF, TRAILER_START, TRAILER, TRAILER_LF, END_LF, DONE, REFUSED
    }

    private static final int MAX_SIZE_DIGITS = 16;

    private final long maxBodyBytes;
    private final int maxExtensionBytes;
    private final int maxTrailerBytes;
    private Step step;
    private int digits;
    private long size;
    private long remaining;
    private long bodyBytes;
    private int extensionBytes;
    private int trailerBytes;
    private boolean trailerNameSeen;
    private boolean inTrailerValue;
    private int status;
    private String refusal;

    public ChunkedBody(long maxBodyBytes, int maxExtensionBytes, int maxTrailerBytes) {
        this.maxBodyBytes = maxBodyBytes;
        this.maxExtensionBytes = maxExtensionBytes;
        this.maxTrailerBytes = maxTrailerBytes;
        reset();
    }

    /** Ready for the next chunked body. */
    public void reset() {
        step = Step.SIZE;
        digits = 0;
        size = 0;
        bodyBytes = 0;
        extensionBytes = 0;
        trailerBytes = 0;
        status = 0;
        refusal = null;
    }

    /**
     * Decodes bytes {@code from..held} of {@code b}, handing each chunk's data to {@code sink}; returns the index after the
     * last byte it took: {@code held} unless the body ended (or was refused) before it, the rest being the next request's.
     */
    public int decode(ByteBuffer b, int from, int held, Sink sink) {
        int i = from;
        while (i < held && step != Step.DONE && step != Step.REFUSED) {
            if (step == Step.DATA) {
                int n = (int) Math.min(remaining, held - i);
                sink.data(b, i, i + n);
                i += n;
                remaining -= n;
                bodyBytes += n;
                if (remaining == 0) {
                    step = Step.DATA_CR;
                }
                continue;
            }
            step = next(b.get(i++));
        }
        return i;
    }

    private Step next(byte c) {
        switch (step) {
            case SIZE:
                return size(c);
            case EXT_NAME_START, EXT_NAME, EXT_VALUE_START, EXT_TOKEN, EXT_QUOTED, EXT_AFTER_QUOTE:
                return extensionByte(c);
            case SIZE_LF:
                if (c != '\n') {
                    return refuse(400, "a bare CR after a chunk size");
                }
                extensionBytes = 0;
                digits = 0;
                if (size == 0) {
                    return Step.TRAILER_START;
                }
                remaining = size;
                size = 0;
                return Step.DATA;
            case DATA_CR:
                return c == '\r' ? Step.DATA_LF : refuse(400, "a chunk's data longer than its size");
            case DATA_LF:
                return c == '\n' ? Step.SIZE : refuse(400, "a bare CR after a chunk's data");
            case TRAILER_START:
                if (c == '\r') {
                    return Step.END_LF;
                }
                trailerNameSeen = false;
                inTrailerValue = false;
                return trailer(c);
            case TRAILER:
                return c == '\r' ? (inTrailerValue ? Step.TRAILER_LF : refuse(400, "a trailer field without a name and colon")) : trailer(c);
            case TRAILER_LF:
                return c == '\n' ? Step.TRAILER_START : refuse(400, "a bare CR in a trailer field");
            case END_LF:
                return c == '\n' ? Step.DONE : refuse(400, "a bare CR at the end of the body");
            default:
                throw new IllegalStateException(step.name());
        }
    }

    /** A byte of a chunk size: a digit, or what ends the size. */
    private Step size(byte c) {
        int d = hex(c);
        if (d >= 0) {
            if (++digits > MAX_SIZE_DIGITS) {
                return refuse(400, "a chunk size of more than " + MAX_SIZE_DIGITS + " digits");
            }
            // held at the room left plus one: it never overflows, and a size past the limit is refused once it ends
            // (so a malformed size is malformed, 400, however large its first digits make it)
            long room = maxBodyBytes - bodyBytes;
            long cap = room == Long.MAX_VALUE ? room : room + 1;
            size = size > (cap - d) / 16 ? cap : Math.min(size * 16 + d, cap);
            return Step.SIZE;
        }
        if (digits == 0) {
            return refuse(400, "a chunk size that is not hexadecimal");
        }
        if (c != '\r' && c != ';') {
            return refuse(400, "a chunk size followed by neither CRLF nor ';'");
        }
        if (size > maxBodyBytes - bodyBytes) {
            return refuse(413, "a body of more than " + maxBodyBytes + " bytes");
        }
        return c == '\r' ? Step.SIZE_LF : counted(Step.EXT_NAME_START);
    }

    /** A byte of the chunk extensions, by where in them it falls. */
    private Step extensionByte(byte c) {
        switch (step) {
            case EXT_NAME_START:
                return Ascii.tchar(c) ? counted(Step.EXT_NAME) : refuse(400, "a chunk extension without a name");
            case EXT_NAME:
                return Ascii.tchar(c) ? counted(Step.EXT_NAME) : c == '=' ? counted(Step.EXT_VALUE_START) : afterExtension(c);
            case EXT_VALUE_START:
                return c == '"' ? counted(Step.EXT_QUOTED) : Ascii.tchar(c) ? counted(Step.EXT_TOKEN)
                        : refuse(400, "a chunk extension's value neither a token nor quoted");
            case EXT_TOKEN:
                return Ascii.tchar(c) ? counted(Step.EXT_TOKEN) : afterExtension(c);
            case EXT_QUOTED:
                if (c == '"') {
                    return counted(Step.EXT_AFTER_QUOTE);
                }
                // qdtext without escapes: visible ASCII and blanks, no backslash, nothing beyond ASCII
                return (c >= ' ' || c == '\t') && c != 0x7f && c != '\\' ? counted(Step.EXT_QUOTED)
                        : refuse(400, "a control character, backslash or non-ASCII byte in a quoted chunk extension");
            case EXT_AFTER_QUOTE:
                return afterExtension(c);
            default:
                throw new IllegalStateException(step.name());
        }
    }

    /** One more byte of the extensions counted against their bound; then {@code next}. */
    private Step counted(Step next) {
        return ++extensionBytes > maxExtensionBytes ? refuse(400, "chunk extensions longer than " + maxExtensionBytes + " bytes") : next;
    }

    /** After an extension's name or value: the next extension, or the end of the size line. */
    private Step afterExtension(byte c) {
        return c == ';' ? counted(Step.EXT_NAME_START) : c == '\r' ? Step.SIZE_LF
                : refuse(400, "a chunk extension that is not ;name or ;name=value (no whitespace)");
    }

    private Step trailer(byte c) {
        if (++trailerBytes > maxTrailerBytes) {
            return refuse(431, "trailer fields longer than " + maxTrailerBytes + " bytes");
        }
        if (!inTrailerValue) {
            if (c == ':' && trailerNameSeen) {
                inTrailerValue = true;
                return Step.TRAILER;
            }
            if (!Ascii.tchar(c)) {
                return refuse(400, "a trailer field name outside tchar, or folding");
            }
            trailerNameSeen = true;
            return Step.TRAILER;
        }
        return (c < ' ' && c != '\t') || c == 0x7f ? refuse(400, "a control character or bare LF in a trailer field") : Step.TRAILER;
    }

    private Step refuse(int code, String why) {
        status = code;
        refusal = why;
        return Step.REFUSED;
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** Whether the body ended (its last chunk, trailers and final CRLF taken). */
    public boolean done() {
        return step == Step.DONE;
    }

    public boolean refused() {
        return step == Step.REFUSED;
    }

    /** 400, 413 (too large) or 431 (trailers too large), after a refusal. */
    public int status() {
        return status;
    }

    /** Why the body was refused, for the log; null unless refused. */
    public String refusal() {
        return refusal;
    }

    /** The data bytes taken so far. */
    public long bodyBytes() {
        return bodyBytes;
    }
}
