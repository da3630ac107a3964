package io.slagate.gateway.listener.relay;

import io.slagate.gateway.http1.ChunkedBody;
import io.slagate.gateway.http1.RequestHead;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Supplier;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EofException;

/**
 * A request's body as the relay listener hands it to the gateway: ranges of the connection's buffer
 * for a body framed by Content-Length (lent: the buffer is not reused under them until they are released),
 * decoded data for a chunked one. A body whose framing breaks fails with its status (400, 413, 431) and leaves the
 * connection closing; one cut short by the client fails with an early end of input. The body's state
 * and decoding only: the connection reads the socket and passes the bytes it holds.
 */
final class RelayBody {
    private final ChunkedBody chunks;
    private boolean chunked;
    private long remaining;
    private boolean expectContinue;
    private boolean inputEnded;
    private Throwable failure;
    private Runnable demand;
    /** Allocated by the first chunked body: most connections send none. */
    private byte[] decoded = {};
    private int decodedSize;

    RelayBody(ChunkedBody chunks) {
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

    /** As {@link #read(ByteBuffer, Supplier)} for a reader that lets go of each piece before asking again. */
    Content.Chunk read(ByteBuffer in) {
        return read(in, () -> null);
    }

    /**
     * The next piece of the body from {@code in}, the bytes the connection holds; null when more must be read. A piece
     * of a Content-Length body is a range of {@code in} itself, lent: {@code lend} is asked for what gives it back,
     * which the piece runs when its reader releases it (a chunked body's pieces are copies, lent by nobody).
     */
    Content.Chunk read(ByteBuffer in, Supplier<Runnable> lend) {
        if (failure != null) {
            return Content.Chunk.from(failure, true);
        }
        if (done()) {
            return Content.Chunk.EOF;
        }
        while (in.hasRemaining()) {
            expectContinue = false; // the client sends without waiting: no 100 needed
            if (!chunked) {
                int n = (int) Math.min(in.remaining(), remaining);
                ByteBuffer slice = in.slice(in.position(), n);
                in.position(in.position() + n);
                remaining -= n;
                Runnable giveBack = lend.get();
                return giveBack == null ? Content.Chunk.from(slice, remaining == 0) : Content.Chunk.from(slice, remaining == 0, giveBack);
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
            failure = new EofException("early EOF");
            return Content.Chunk.from(failure, true);
        }
        return null;
    }

    private void collect(ByteBuffer b, int from, int to) {
        int n = to - from;
        if (decodedSize + n > decoded.length) {
            decoded = Arrays.copyOf(decoded, Math.max(Math.max(decoded.length * 2, 1024), decodedSize + n));
        }
        b.get(from, decoded, decodedSize, n);
        decodedSize += n;
    }

    /** Whether a reader asking now has something to take (bytes in {@code in}, the end, a failure) without reading more. */
    boolean readable(ByteBuffer in) {
        return failure != null || done() || inputEnded || in.hasRemaining();
    }

    /** Whether the client holds its body back for a {@code 100 Continue} not sent yet. */
    boolean expectsContinue() {
        return expectContinue;
    }

    /** {@code d} waits for the next bytes; true when the client holds its body back for a {@code 100 Continue}, sent once. */
    boolean await(Runnable d) {
        demand = d;
        boolean sendContinue = expectContinue;
        expectContinue = false;
        return sendContinue;
    }

    /** The reader waiting for bytes, taken (it is to run once they are read), or null: nobody is reading the body. */
    Runnable takeDemand() {
        Runnable d = demand;
        demand = null;
        return d;
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

    /** Takes the body's bytes that are in {@code in}; whether the body is then whole. */
    boolean consumeAvailable(ByteBuffer in) {
        while (true) {
            Content.Chunk c = read(in);
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
    boolean finish(ByteBuffer in) {
        return failure == null && (done() || consumeAvailable(in));
    }
}
