package io.slagate.gateway.proxy;

import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;

/**
 * Reads and discards what is left of a client's request body after the gateway has answered it
 * (a fault written before the body was read: too large, queue full, shutting down), then completes
 * the exchange. Without it Jetty closes a connection with unread input, the kernel answers the
 * client's next bytes with a reset, and a client still sending its body may lose the fault that was
 * already on its way. Bounded: past {@code limit} bytes, or on a read failure (the idle timeout
 * covers a client that stops sending), it gives up and lets the connection close.
 */
final class BodyDrain implements Runnable {
    /** How much of an unwanted body the gateway reads to deliver its answer cleanly. */
    static final long LIMIT = 64L << 20;

    private final Request request;
    private final Callback done;
    private long drained;

    private BodyDrain(Request request, Callback done) {
        this.request = request;
        this.done = done;
    }

    /** A callback that, once the answer is written, drains the body and then completes {@code done}. */
    static Callback after(Request request, Callback done) {
        return Callback.from(() -> new BodyDrain(request, done).run(), done::failed);
    }

    @Override
    public void run() {
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(this);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                done.succeeded(); // the answer is out; the connection goes with the failure
                return;
            }
            drained += chunk.remaining();
            boolean last = chunk.isLast();
            chunk.release();
            if (last || drained > LIMIT) {
                done.succeeded();
                return;
            }
        }
    }
}
