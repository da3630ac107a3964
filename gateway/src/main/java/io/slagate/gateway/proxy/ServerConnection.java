package io.slagate.gateway.proxy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.CyclicTimeout;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * One keep-alive HTTP/1.1 connection from this gateway to a server, carrying one
 * {@link ServerExchange} at a time (the scheduler bounds a server at N_{g,s} outstanding requests,
 * so a connection per slot is all a server ever needs, and nothing is multiplexed or queued here).
 *
 * <p>While idle in its pool nothing watches the socket: a connection is checked with one
 * non-blocking read when taken (a server that closed it meanwhile shows as end of input), which
 * keeps a single owner of the input at any time — the exchange holding the connection.
 */
final class ServerConnection extends AbstractConnection implements HttpParser.ResponseHandler {
    private static final int INPUT_BYTES = 16 * 1024;
    private static final int MAX_RESPONSE_HEADER_BYTES = 64 * 1024;
    private static final int IDLE = 0;
    private static final int ACTIVE = 1;
    private static final int CLOSED = 2;

    private final ServerConnectionPool pool;
    /** Server bytes in Jetty's flush mode (position..limit unread); only the exchange's relay touches it. */
    final ByteBuffer input = BufferUtil.allocateDirect(INPUT_BYTES);
    final HttpParser parser = new HttpParser(this, MAX_RESPONSE_HEADER_BYTES);
    /** The request head is encoded here (grown when a request's headers do not fit); a heap buffer, encoded by array. */
    ByteBuffer head = ByteBuffer.allocate(4096);
    private final AtomicInteger state = new AtomicInteger(ACTIVE);
    private final AtomicBoolean fillInterested = new AtomicBoolean();
    private final CyclicTimeout timeout;
    private volatile ServerExchange exchange;
    private volatile long exchangeDeadline;
    private volatile long releasedNanos;
    private static final long CHECK_AFTER_IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    ServerConnection(EndPoint endPoint, Executor executor, Scheduler scheduler, ServerConnectionPool pool) {
        super(endPoint, executor);
        this.pool = pool;
        this.timeout = new CyclicTimeout(scheduler) {
            @Override
            public void onTimeoutExpired() {
                ServerExchange x = exchange;
                if (x != null && System.nanoTime() - exchangeDeadline >= 0) {
                    x.timedOut();
                }
            }
        };
    }

    /** Binds the exchange that now owns this connection and arms its server timeout. */
    void attach(ServerExchange x, long timeoutMillis, boolean head) {
        parser.reset();
        parser.setHeadResponse(head);
        exchangeDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        exchange = x;
        timeout.schedule(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** Ends the exchange's hold: back to the pool when reusable, otherwise closed. */
    void detach(boolean reusable) {
        timeout.cancel();
        exchange = null;
        if (reusable && state.compareAndSet(ACTIVE, IDLE)) {
            releasedNanos = System.nanoTime();
            pool.release(this);
        } else {
            close();
        }
    }

    /** Registers read interest unless it is registered already (the relay may ask twice). */
    void needInput() {
        if (fillInterested.compareAndSet(false, true)) {
            fillInterested();
        }
    }

    /**
     * Takes this idle connection for an exchange; false when it is closing, closed or was closed by the
     * server. A connection idle for more than {@link #CHECK_AFTER_IDLE_NANOS} is checked with one read
     * (end of input: the server closed it). Servers close keep-alive connections after seconds idle,
     * and a server that restarts closes them all; skipping the read for connections reused within a
     * millisecond saves a system call per request under load, at the cost of one failed request per
     * connection caught in that millisecond — fewer than the restart fails among those in flight.
     */
    boolean activate() {
        if (!state.compareAndSet(IDLE, ACTIVE)) {
            return false;
        }
        try {
            BufferUtil.clear(input);
            if (!getEndPoint().isOpen()) {
                close();
                return false;
            }
            if (System.nanoTime() - releasedNanos < CHECK_AFTER_IDLE_NANOS || getEndPoint().fill(input) == 0) {
                return true;
            }
        } catch (IOException broken) {
            // reset by the server while idle: not usable
        }
        close(); // end of input (the server closed it while idle) or bytes nobody asked for
        return false;
    }

    @Override
    public void onFillable() {
        fillInterested.set(false);
        ServerExchange x = exchange;
        if (x != null) {
            x.relay.iterate();
        }
    }

    @Override
    public void onFillInterestedFailed(Throwable cause) {
        fillInterested.set(false);
        ServerExchange x = exchange;
        if (x != null) {
            x.relay.iterate(); // the relay reads the failure (end of input) itself
        } else {
            close();
        }
    }

    @Override
    public boolean onIdleExpired(TimeoutException timeoutException) {
        // Idle in the pool past the idle timeout: closed. An exchange has its own (server) timeout.
        return state.compareAndSet(IDLE, CLOSED);
    }

    @Override
    public void onClose(Throwable cause) {
        super.onClose(cause);
        state.set(CLOSED);
        timeout.destroy();
        pool.closed(this);
        ServerExchange x = exchange;
        if (x != null) {
            x.relay.iterate();
        }
    }

    // HttpParser.ResponseHandler: the parser runs on the relay, which owns the exchange's state.

    @Override
    public void startResponse(HttpVersion version, int status, String reason) {
        exchange.relay.startResponse(version, status);
    }

    @Override
    public void parsedHeader(HttpField field) {
        exchange.relay.parsedHeader(field);
    }

    @Override
    public boolean headerComplete() {
        return exchange.relay.headerComplete();
    }

    @Override
    public boolean content(ByteBuffer content) {
        return exchange.relay.content(content);
    }

    @Override
    public boolean contentComplete() {
        return false;
    }

    @Override
    public boolean messageComplete() {
        return exchange.relay.messageComplete();
    }

    @Override
    public void earlyEOF() {
        // reported by the relay from the parser's state at end of input
    }

    @Override
    public void badMessage(HttpException failure) {
        exchange.relay.badMessage(failure);
    }
}
