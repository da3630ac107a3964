package io.slagate.gateway.listener.relay;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.EndPoint;

/**
 * A connection's end after its last answer: the output shut, and what the client still sends read and dropped until it
 * closes, so that no reset reaches it with its answer unread (a close with the client's bytes unread sends one, and
 * its next write fails with a broken pipe). For at most the connection's idle timeout from the start, then closed on
 * (a silent client is, by the idle timeout itself); {@value #DROP_PER_CALL} bytes a call at the most, so that a client
 * sending as fast as the loop reads does not hold the loop from its other connections. On the connection's loop.
 */
final class LingeringClose {
    /** Bytes dropped in one call before the loop's other connections go on. */
    static final int DROP_PER_CALL = 256 * 1024;
    /** How long a client may send on after its last answer where the connection has no idle timeout. */
    private static final long DEFAULT_LINGER_MILLIS = 30_000;
    private final EndPoint endPoint;
    private final ReadBuffer buffer;
    private long sinceNanos;
    private boolean begun;

    LingeringClose(EndPoint endPoint, ReadBuffer buffer) {
        this.endPoint = endPoint;
        this.buffer = buffer;
    }

    /** Whether the last answer is out and the output shut. */
    boolean begun() {
        return begun;
    }

    /** Shuts the output; {@link #dropMore} from now on. */
    void begin() {
        begun = true;
        sinceNanos = System.nanoTime();
        endPoint.shutdownOutput();
    }

    /** Drops what came: true when read interest is wanted (nothing yet, or more waiting), false once the connection is closed. */
    boolean dropMore() {
        long idle = endPoint.getIdleTimeout();
        if (System.nanoTime() - sinceNanos > TimeUnit.MILLISECONDS.toNanos(idle > 0 ? idle : DEFAULT_LINGER_MILLIS)) {
            endPoint.close();
            return false;
        }
        int n;
        try {
            n = buffer.drop(endPoint, DROP_PER_CALL);
        } catch (IOException e) {
            n = -1;
        }
        if (n < 0) {
            endPoint.close();
            return false;
        }
        return true;
    }
}
