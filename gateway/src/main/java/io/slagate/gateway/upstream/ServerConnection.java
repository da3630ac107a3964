package io.slagate.gateway.upstream;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
 * <p>While idle in its pool the socket stays registered for reading, so a byte the server writes
 * between exchanges (a late stray answer, at any time after the last one) distrusts the server the
 * moment it arrives, and the connection is closed before anyone's request is put on it. The read
 * interest outlives the exchange that registered it, so keeping it costs no extra registration. A
 * connection is also checked with one non-blocking read when taken.
 *
 * <p>Non-blocking: reading an answer is run by the selector thread of the connection's event loop
 * itself, with no hand-off to a pool thread.
 */
final class ServerConnection extends AbstractConnection.NonBlocking {
    private static final int INPUT_BYTES = 16 * 1024;
    /**
     * Largest response head accepted from a server, and most header fields: a server beyond either is
     * broken or hostile ({@code server-failed}); both stay within what the client listener can send on.
     */
    static final int MAX_RESPONSE_HEADER_BYTES = 32 * 1024;
    static final int MAX_RESPONSE_FIELDS = 200;
    private static final int IDLE = 0;
    private static final int ACTIVE = 1;
    private static final int CLOSED = 2;
    /** Out of the pool for a quiet period after an answer, watched for bytes nobody asked for. */
    private static final int QUIET_CHECK = 3;
    /**
     * A server's connections are reused only once one of them stayed silent for {@code
     * QUIET_CHECK_MILLIS} after an answer, and one exchange in {@code QUIET_CHECK_EVERY} is followed by
     * such a quiet check again (one connection per server at a time, out of the pool meanwhile). Why:
     * a server that writes an extra complete answer some time after each real one shifts the
     * connection's answers by one as soon as the next request is on it (each client then gets the
     * previous client's answer), and nothing in HTTP/1.1 tells a late stray answer from the real one.
     * Only silence between exchanges proves a server does not do that; bytes in a quiet check make the
     * pool distrust the server (no reuse). Cost: single-use connections for a server's first quarter
     * second, then one extra connection per server now and then; no request waits for it.
     */
    static final int QUIET_CHECK_EVERY = 64;
    static final long QUIET_CHECK_MILLIS = 250;

    private final ServerConnectionPool pool;
    /**
     * Server bytes in Jetty's flush mode (position..limit unread); only the exchange's relay touches it. Grown (up to a
     * head's limit) when a head does not fit: a head is read once it is whole. On the heap: the answer's head is read
     * byte by byte, which costs two to three times as much from direct memory (head-parsing.md), more than the copy the
     * socket read then makes.
     */
    ByteBuffer input = BufferUtil.allocate(INPUT_BYTES);
    final AnswerReader answer = new AnswerReader();
    /** The request head is encoded here (grown when a request's headers do not fit); a heap buffer, encoded by array. */
    ByteBuffer head = ByteBuffer.allocate(4096);
    /** The answer of the exchange in progress, held until complete (one exchange at a time: no allocation per exchange). */
    final HeldAnswer held = new HeldAnswer();
    private final AtomicInteger state = new AtomicInteger(ACTIVE);
    private final AtomicBoolean fillInterested = new AtomicBoolean();
    private final CyclicTimeout timeout;
    /** The client side's deadline while the exchange waits for its client: body data, or taking an answer. */
    private final CyclicTimeout clientTimeout;
    private volatile ServerExchange exchange;
    private volatile long exchangeDeadline;
    /** The event loop this connection's socket is registered with: it serves only that loop's exchanges. */
    final int loop;
    /** The requests it may serve ({@link ServerConnectionPool#groupOf}): set by its first exchange, kept for life. */
    Object group = ServerConnectionPool.SHARED;
    /** Whether it still counts toward its pool's bound: given back once, when closed or decided to be closed. */
    final AtomicBoolean counted = new AtomicBoolean(true);

    ServerConnection(EndPoint endPoint, Executor executor, Scheduler scheduler, ServerConnectionPool pool, int loop) {
        super(endPoint, executor);
        this.pool = pool;
        this.loop = loop;
        this.timeout = new CyclicTimeout(scheduler) {
            @Override
            public void onTimeoutExpired() {
                if (state.compareAndSet(QUIET_CHECK, IDLE)) {
                    pool.quietCheckPassed(ServerConnection.this); // it stayed silent: fit for reuse
                    return;
                }
                ServerExchange x = exchange;
                if (x != null && System.nanoTime() - exchangeDeadline >= 0) {
                    x.timedOut();
                }
            }
        };
        this.clientTimeout = new CyclicTimeout(scheduler) {
            @Override
            public void onTimeoutExpired() {
                ServerExchange x = exchange;
                if (x != null) {
                    x.clientStalled();
                }
            }
        };
    }

    /** The server gets {@code millis} more from now (time spent waiting for the client is not the server's). */
    void extendServerTimeout(long millis) {
        exchangeDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        timeout.schedule(millis, TimeUnit.MILLISECONDS);
    }

    /** Starts (or restarts) the wait for the client; {@link ServerExchange#clientStalled} when it runs out. */
    void awaitClient(long millis) {
        clientTimeout.schedule(millis, TimeUnit.MILLISECONDS);
    }

    void clientResponded() {
        clientTimeout.cancel();
    }

    /** Binds the exchange that now owns this connection and arms its server timeout. */
    void attach(ServerExchange x, long timeoutMillis, boolean head) {
        held.clear(); // what an exchange broken off mid-answer left
        answer.reset(head);
        exchangeDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        exchange = x;
        timeout.schedule(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** Ends the exchange's hold: back to the pool when reusable, otherwise closed. */
    void detach(boolean reusable) {
        timeout.cancel();
        clientTimeout.cancel();
        exchange = null;
        if (reusable && pool.startQuietCheck()) {
            if (state.compareAndSet(ACTIVE, QUIET_CHECK)) {
                timeout.schedule(QUIET_CHECK_MILLIS, TimeUnit.MILLISECONDS);
                needInput(); // any byte now is one nobody asked for
            } else {
                pool.quietCheckEnded(); // closed meanwhile
                close();
            }
        } else if (reusable && state.compareAndSet(ACTIVE, IDLE)) {
            needInput(); // any byte while idle is one nobody asked for
            pool.release(this);
        } else {
            close();
        }
    }

    /**
     * Reads more of the answer after the bytes held; a head that fills the input grows it, up to what a head may hold
     * (past that the head is refused by its reading). As {@link org.eclipse.jetty.io.EndPoint#fill}: bytes read, 0, or −1.
     */
    int fill() throws IOException {
        ByteBuffer in = input;
        if (in.position() == 0 && in.limit() == in.capacity() && in.capacity() < MAX_RESPONSE_HEADER_BYTES) {
            ByteBuffer bigger = BufferUtil.allocate(in.capacity() * 2);
            BufferUtil.append(bigger, in);
            input = bigger;
        }
        return getEndPoint().fill(input);
    }

    /** Registers read interest unless it is registered already (the relay may ask twice). */
    void needInput() {
        if (fillInterested.compareAndSet(false, true)) {
            fillInterested();
        }
    }

    /**
     * Takes this idle connection for an exchange; false when it is closing, closed or was closed by the
     * server. Every connection is checked with one non-blocking read: end of input (the server closed
     * it while idle) or any byte at all (the server wrote something nobody asked for: a stray or forged
     * answer, which must never be taken for the next client's) makes it unusable, and it is closed;
     * bytes also make the pool distrust the server ({@link ServerConnectionPool#distrust}).
     * The read costs a system call per request; skipping it for connections reused within a
     * millisecond let a server's stray answer reach another client.
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
            int n = getEndPoint().fill(input);
            if (n == 0) {
                return true;
            }
            if (n > 0) {
                pool.distrust(); // bytes on an idle connection: a stray or forged answer
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
        } else if (state.get() == QUIET_CHECK || state.get() == IDLE) {
            unaskedInput();
        }
    }

    /** Input while no exchange holds the connection: the server closed it, or spoke out of turn. */
    private void unaskedInput() {
        try {
            BufferUtil.clear(input);
            int n = getEndPoint().fill(input);
            if (n == 0) {
                needInput();
                return;
            }
            if (n > 0) {
                pool.distrust();
            }
        } catch (IOException reset) {
            // closed by the server: not usable
        }
        if (state.compareAndSet(QUIET_CHECK, CLOSED)) {
            pool.quietCheckEnded();
            close();
        } else if (state.compareAndSet(IDLE, CLOSED)) {
            close();
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
        if (state.getAndSet(CLOSED) == QUIET_CHECK) {
            pool.quietCheckEnded();
        }
        timeout.destroy();
        clientTimeout.destroy();
        pool.closed(this);
        ServerExchange x = exchange;
        if (x != null) {
            x.relay.iterate();
        }
    }
}
