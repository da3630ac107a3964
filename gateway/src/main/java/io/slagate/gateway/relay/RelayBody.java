package io.slagate.gateway.relay;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.io.Content;

/**
 * A request's body as the relay listener hands it to the gateway: ranges of the connection's buffer
 * for a body framed by Content-Length (valid until the handler asks for more), decoded data for a
 * chunked one. A body whose framing breaks fails with its status (400, 413, 431) and leaves the
 * connection closing; one cut short by the client fails with an early end of input.
 */
final class RelayBody {
    private final RelayConnection connection;
    private final ChunkedBody chunks;
    private boolean chunked;
    private long remaining;
    private boolean expectContinue;
    private boolean inputEnded;
    private Throwable failure;
    private Runnable demand;
    private byte[] decoded = new byte[1024];
    private int decodedSize;

    RelayBody(RelayConnection connection, ChunkedBody chunks) {
        this.connection = connection;
        this.chunks = chunks;
    }

    void start(RequestHead head, long length) {
        inputEnded = false;
        chunked = head.chunked();
        if (chunked) {
            chunks.reset();
        }
        remaining = chunked ? -1 : length;
        expectContinue = head.expectContinue() && (chunked || remaining > 0);
        failure = null;
        demand = null;
    }

    private boolean done() {
        return chunked ? chunks.done() : remaining == 0;
    }

    Content.Chunk read() {
        if (failure != null) {
            return Content.Chunk.from(failure, true);
        }
        if (done()) {
            return Content.Chunk.EOF;
        }
        ByteBuffer in = connection.input();
        while (in.hasRemaining()) {
            expectContinue = false; // the client sends without waiting: no 100 needed
            if (!chunked) {
                int n = (int) Math.min(in.remaining(), remaining);
                ByteBuffer slice = in.slice(in.position(), n);
                in.position(in.position() + n);
                remaining -= n;
                return Content.Chunk.from(slice, remaining == 0);
            }
            decodedSize = 0;
            in.position(chunks.decode(in, in.position(), in.limit(), this::collect));
            if (chunks.refused()) {
                failure = new BadMessageException(chunks.status(), chunks.refusal());
                return Content.Chunk.from(failure, true);
            }
            if (decodedSize > 0 || chunks.done()) {
                return Content.Chunk.from(ByteBuffer.wrap(Arrays.copyOf(decoded, decodedSize)), chunks.done());
            }
        }
        if (inputEnded) {
            failure = RelayConnection.earlyEof();
            return Content.Chunk.from(failure, true);
        }
        return null;
    }

    private void collect(ByteBuffer b, int from, int to) {
        int n = to - from;
        if (decodedSize + n > decoded.length) {
            decoded = Arrays.copyOf(decoded, Math.max(decoded.length * 2, decodedSize + n));
        }
        b.get(from, decoded, decodedSize, n);
        decodedSize += n;
    }

    /** Runs {@code d} once there is something to read (bytes, the end, a failure); asks the client to go on if it waits for a 100. */
    void demand(Runnable d) {
        if (failure != null || done() || inputEnded || connection.input().hasRemaining()) {
            d.run();
            return;
        }
        demand = d;
        if (expectContinue) {
            expectContinue = false;
            connection.sendContinue(connection::interested);
        } else {
            connection.interested();
        }
    }

    /** The socket has bytes: read them for the demand that asked and run it; false when nobody asked. */
    boolean filled() {
        Runnable d = demand;
        if (d == null) {
            return false;
        }
        demand = null;
        int n = connection.fill();
        if (n < 0) {
            inputEnded = true;
        } else if (n == 0) {
            demand = d;
            connection.interested();
            return true;
        }
        d.run();
        return true;
    }

    /** The client shut its side: a body not yet whole never will be. */
    void inputEnded() {
        inputEnded = true;
        wake();
    }

    boolean endedInput() {
        return inputEnded;
    }

    void fail(Throwable f) {
        if (failure == null) {
            failure = f;
        }
        wake();
    }

    void closed() {
        inputEnded();
    }

    private void wake() {
        Runnable d = demand;
        demand = null;
        if (d != null) {
            d.run();
        }
    }

    /** Takes the body's bytes that are here; whether the body is then whole. */
    boolean consumeAvailable() {
        while (true) {
            Content.Chunk c = read();
            if (c == null || Content.Chunk.isFailure(c)) {
                return false;
            }
            c.release();
            if (c.isLast()) {
                return true;
            }
        }
    }

    /** At the exchange's end: whether the connection may read a next request (the body read to its end, nothing failed). */
    boolean finish() {
        return failure == null && (done() || consumeAvailable());
    }
}
