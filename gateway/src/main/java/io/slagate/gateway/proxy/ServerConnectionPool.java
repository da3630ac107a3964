package io.slagate.gateway.proxy;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.Promise;

/**
 * The keep-alive connections of this gateway to one plain-HTTP server, one idle list per event loop:
 * a connection serves only requests of the loop its socket is registered with, so both legs of an
 * exchange stay on one thread. Idle ones are kept last in, first out (the warmest connection is
 * reused; extra ones reach the idle timeout and close). No cap of its own: a connection is opened
 * only when an admitted request finds none idle on its loop, and the scheduler admits at most
 * N_{g,s} requests to the server at a time, whatever their loops.
 */
final class ServerConnectionPool {
    private final LoopConnector connector;
    private final String host;
    private final int port;
    /** The server URL's path without a trailing slash, put before every request's path. */
    final String pathPrefix;
    private final long idleTimeoutMillis;
    /** Per loop; concurrent all the same: a quiet check's timer and a distrust may touch another loop's list. */
    private final ConcurrentLinkedDeque<ServerConnection>[] idle;
    private volatile boolean stopped;
    /** Until when (System.nanoTime) this server's connections serve one exchange each; 0 when trusted. */
    private volatile long distrustedUntil;
    /**
     * False until a connection of this server stayed silent for a quiet period after an answer (see
     * {@link ServerConnection#QUIET_CHECK_MILLIS}); until then, and again after a distrust, connections
     * serve one exchange each, so no answer can be shifted onto another client's request.
     */
    private volatile boolean proven;
    private final java.util.concurrent.atomic.AtomicBoolean checking = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicLong exchanges = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong quietChecks = new java.util.concurrent.atomic.AtomicLong();
    /** How long a server that wrote bytes nobody asked for gets no connection reuse. */
    static final long DISTRUST_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ServerConnectionPool.class);

    /** Connections handed to an exchange of another loop than their own: always 0 (a test reads it). */
    private final java.util.concurrent.atomic.AtomicLong crossLoop = new java.util.concurrent.atomic.AtomicLong();

    @SuppressWarnings("unchecked")
    ServerConnectionPool(LoopConnector connector, URI url, long idleTimeoutMillis) {
        this.connector = connector;
        this.idle = new ConcurrentLinkedDeque[connector.loops()];
        for (int i = 0; i < idle.length; i++) {
            idle[i] = new ConcurrentLinkedDeque<>();
        }
        this.host = url.getHost();
        this.port = url.getPort() > 0 ? url.getPort() : 80;
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        this.pathPrefix = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        this.idleTimeoutMillis = idleTimeoutMillis;
    }

    /** Hands a live connection of loop {@code loop} to {@code promise}: an idle one, else a new one once connected. */
    void acquire(int loop, Promise<ServerConnection> promise) {
        ConcurrentLinkedDeque<ServerConnection> mine = idle[loop];
        for (ServerConnection c = mine.pollFirst(); c != null; c = mine.pollFirst()) {
            if (c.activate()) {
                promise.succeeded(c);
                return;
            }
        }
        // resolved per connect (rare: connections are reused), so a changed DNS entry is picked up
        connector.connect(loop, new InetSocketAddress(host, port), this, promise);
    }

    ServerConnection newConnection(EndPoint endPoint, int loop) {
        endPoint.setIdleTimeout(idleTimeoutMillis);
        return new ServerConnection(endPoint, connector.getExecutor(), connector.getScheduler(), this, loop);
    }

    /**
     * Checks that {@code c}, given to an exchange whose client is on loop {@code clientLoop}, is registered
     * with the same loop's selector (both loops were read from the sockets' endpoints, not from this pool's lists).
     */
    void handedOut(ServerConnection c, int clientLoop) {
        if (c.loop != clientLoop) {
            crossLoop.incrementAndGet();
        }
    }

    /** Connections given to an exchange of another loop than their own: none, by construction. */
    long crossLoopHandOuts() {
        return crossLoop.get();
    }

    /** Whether a connection is taken for a quiet check once its exchange ends (at most one at a time). */
    boolean startQuietCheck() {
        if (distrusted() || (proven && exchanges.incrementAndGet() % ServerConnection.QUIET_CHECK_EVERY != 0)) {
            return false;
        }
        if (!checking.compareAndSet(false, true)) {
            return false;
        }
        quietChecks.incrementAndGet();
        return true;
    }

    /** Quiet checks started so far (each takes one connection out of the pool for the quiet period). */
    long quietChecks() {
        return quietChecks.get();
    }

    /** A connection stayed silent for the quiet period after an answer: the server has proved itself; reuse it. */
    void quietCheckPassed(ServerConnection c) {
        proven = true;
        checking.set(false);
        release(c);
    }

    /** A quiet check ended without proof either way (the server closed the connection). */
    void quietCheckEnded() {
        checking.set(false);
    }

    /** Whether connections to this server are reused: once it proved it speaks only when asked, and not while distrusted. */
    boolean reusesConnections() {
        return proven && !distrusted();
    }

    void release(ServerConnection c) {
        if (!reusesConnections()) {
            c.close(); // single-use until the server has proved itself (again)
            return;
        }
        idle[c.loop].offerFirst(c);
        if (stopped && idle[c.loop].remove(c)) {
            c.close();
        }
    }

    /**
     * The server wrote bytes nobody asked for (after an answer, or on an idle connection). Such a
     * server may write more at any time, and on a reused connection a late stray answer would be
     * taken for the next request's: for {@link #DISTRUST_NANOS} each of its connections carries one
     * exchange and is closed, and the idle ones are closed now.
     */
    void distrust() {
        boolean was = distrusted();
        proven = false; // after the distrust it must prove itself again before reuse
        checking.set(false);
        distrustedUntil = System.nanoTime() + DISTRUST_NANOS;
        if (distrustedUntil == 0) {
            distrustedUntil = 1;
        }
        if (!was) {
            LOG.warn("server {}:{} wrote bytes outside any answer; its connections are not reused for {} s",
                    host, port, java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(DISTRUST_NANOS));
        }
        closeIdle();
    }

    private boolean distrusted() {
        long until = distrustedUntil;
        return until != 0 && until - System.nanoTime() > 0;
    }

    void closed(ServerConnection c) {
        idle[c.loop].remove(c);
    }

    private void closeIdle() {
        for (ConcurrentLinkedDeque<ServerConnection> list : idle) {
            for (ServerConnection c = list.pollFirst(); c != null; c = list.pollFirst()) {
                c.close();
            }
        }
    }

    /** Closes the idle connections; busy ones close when their exchange ends. */
    void stop() {
        stopped = true;
        closeIdle();
    }
}
