package io.slagate.gateway.upstream;

import io.slagate.gateway.http1.ChunkedBody;
import io.slagate.gateway.http1.ResponseHead;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Reads a server's answers from its connection's input, one step at a time for the exchange's relay: the head, read in
 * place by {@link ResponseHead} once it is whole (a 1xx head first, when the server sends one), then the body as its
 * framing says: its length, chunked (decoded by {@link ChunkedBody}), or until the server closes; none for an answer to
 * HEAD, a 204 or a 304. Each piece of the body is a view of the input, valid until the next step. One per server
 * connection, {@link #reset} for each exchange.
 */
final class AnswerReader implements ChunkedBody.Sink {
    /** What {@link #next} found. */
    enum Step {
        /** Nothing more in the bytes held: read more (a head begun stays in the input). */
        MORE,
        /** A head: {@link #head}; a 1xx is followed by the answer's own head. */
        HEAD,
        /** A piece of the body: {@link #piece()}. */
        DATA,
        /** The answer ended; the bytes after it in the input are not its. */
        COMPLETE,
        /** The answer breaks HTTP's grammar or the gateway's limits: {@link #refusal()}. */
        REFUSED
    }

    private enum Body { HEAD, LENGTH, CHUNKED, UNTIL_CLOSE, DONE }

    final ResponseHead head = new ResponseHead(ServerConnection.MAX_RESPONSE_HEADER_BYTES, ServerConnection.MAX_RESPONSE_FIELDS);
    private final ChunkedBody chunks = new ChunkedBody(Long.MAX_VALUE, 4096, ServerConnection.MAX_RESPONSE_HEADER_BYTES);
    private boolean toHead;
    private Body body = Body.HEAD;
    private long remaining;
    /** The data ranges one decoding of chunked input found (from, to pairs), handed out one by one. */
    private int[] ranges = new int[16];
    private int rangeCount;
    private int rangeNext;
    private ByteBuffer piece;
    private String refusal;

    /** Ready for the answer to the next request; {@code toHead}: the request was HEAD (its answer has no body). */
    void reset(boolean toHead) {
        this.toHead = toHead;
        body = Body.HEAD;
        rangeCount = 0;
        rangeNext = 0;
        piece = null;
        refusal = null;
    }

    /** The next step of the answer in {@code in} (flush mode); what it took is consumed. */
    Step next(ByteBuffer in) {
        if (rangeNext < rangeCount) {
            return range(in);
        }
        switch (body) {
            case HEAD:
                return head(in);
            case LENGTH: {
                if (!in.hasRemaining()) {
                    return Step.MORE;
                }
                int n = (int) Math.min(remaining, in.remaining());
                piece = in.slice(in.position(), n);
                in.position(in.position() + n);
                remaining -= n;
                if (remaining == 0) {
                    body = Body.DONE;
                }
                return Step.DATA;
            }
            case UNTIL_CLOSE:
                if (!in.hasRemaining()) {
                    return Step.MORE;
                }
                piece = in.slice();
                in.position(in.limit());
                return Step.DATA;
            case CHUNKED:
                return chunked(in);
            default:
                return Step.COMPLETE;
        }
    }

    private Step head(ByteBuffer in) {
        if (!in.hasRemaining()) {
            return Step.MORE;
        }
        ResponseHead.Verdict v = head.read(in, in.position(), in.limit());
        if (v == ResponseHead.Verdict.INCOMPLETE) {
            return Step.MORE;
        }
        if (v == ResponseHead.Verdict.REFUSED) {
            return refused(head.refusal());
        }
        in.position(in.position() + head.length());
        if (head.status() < 200) {
            return Step.HEAD; // an interim answer: the next head is the answer's own
        }
        if (head.bodiless(toHead)) {
            body = Body.DONE;
        } else if (head.chunked()) {
            chunks.reset();
            body = Body.CHUNKED;
        } else if (head.contentLength() >= 0) {
            remaining = head.contentLength();
            body = remaining == 0 ? Body.DONE : Body.LENGTH;
        } else {
            body = Body.UNTIL_CLOSE;
        }
        return Step.HEAD;
    }

    private Step chunked(ByteBuffer in) {
        if (!in.hasRemaining()) {
            return Step.MORE;
        }
        rangeCount = 0;
        rangeNext = 0;
        in.position(chunks.decode(in, in.position(), in.limit(), this));
        if (chunks.refused()) {
            return refused("a chunked body outside the grammar: " + chunks.refusal());
        }
        if (chunks.done()) {
            body = Body.DONE;
        }
        if (rangeCount > 0) {
            return range(in);
        }
        return body == Body.DONE ? Step.COMPLETE : Step.MORE;
    }

    @Override
    public void data(ByteBuffer b, int from, int to) {
        if (ranges.length < 2 * (rangeCount + 1)) {
            ranges = Arrays.copyOf(ranges, ranges.length * 2);
        }
        ranges[2 * rangeCount] = from;
        ranges[2 * rangeCount + 1] = to;
        rangeCount++;
    }

    private Step range(ByteBuffer in) {
        int from = ranges[2 * rangeNext];
        int to = ranges[2 * rangeNext + 1];
        rangeNext++;
        piece = in.slice(from, to - from);
        return Step.DATA;
    }

    private Step refused(String why) {
        refusal = why;
        return Step.REFUSED;
    }

    /** The server closed its side: whether that ends the answer (a body delimited by the connection's end, or one complete). */
    boolean endedByClose() {
        if (body == Body.UNTIL_CLOSE) {
            body = Body.DONE;
        }
        return body == Body.DONE && rangeNext == rangeCount;
    }

    /** Whether the body runs until the server closes (the connection cannot carry another exchange). */
    boolean untilClose() {
        return body == Body.UNTIL_CLOSE;
    }

    /** The piece of the body the last {@link Step#DATA} found: a view of the input. */
    ByteBuffer piece() {
        return piece;
    }

    /** The answer's Content-Length once its head was read, or −1 (chunked, until close, none yet). */
    long contentLength() {
        return body == Body.HEAD ? -1 : head.contentLength();
    }

    String refusal() {
        return refusal;
    }
}
