package io.slagate.gateway.upstream;

import io.slagate.gateway.proxy.UpstreamExchange;

import io.slagate.gateway.loop.LoopConnector;
import io.slagate.gateway.loop.UpstreamFactory;
import io.slagate.config.UpstreamReuse;
import io.slagate.gateway.stats.GatewayMetrics;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.Promise;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keep-alive connections of this gateway to one plain-HTTP server, one idle list per event loop:
 * a connection serves only requests of the loop its socket is registered with, so both legs of an
 * exchange stay on one thread. Idle ones are kept last in, first out (the warmest connection is
 * reused; extra ones reach the idle timeout and close). A connection is opened only when an admitted
 * request finds none idle on its loop, and the scheduler admits at most N_{g,s} requests to the
 * server at a time, whatever their loops.
 *
 * <p>Which requests may share a connection is the pool's {@link UpstreamReuse}: any ({@code shared}),
 * one customer's ({@code customer}), or one client connection's ({@code client-connection}, closed
 * with it). A connection belongs to the group of the request it was opened for, for life, and goes
 * back only to that group's idle list. The connections of all loops together are bounded (by default the
 * cap N_{g,s} in force plus a slack, 2·N_{g,s} + 2 with several loops): a connection released beyond the bound is closed,
 * and at the bound an idle connection of another loop or group is closed to make room: never lent across them.
 */
final class ServerConnectionPool implements GatewayMetrics.UpstreamConnections, UpstreamFactory<ServerConnection> {
    private final LoopConnector connector;
    private final String host;
    private final int port;
    /** The server URL's path without a trailing slash, put before every request's path. */
    final String pathPrefix;
    private final long idleTimeoutMillis;
    /** The group of every connection when connections are shared. */
    static final Object SHARED = new Object();
    private static final String ANONYMOUS = "";
    final UpstreamReuse reuse;
    /** Connections to this server at most, across every loop: the cap in force plus an idle slack, or as configured. */
    private final IntSupplier maxConnections;
    /** Per loop; concurrent all the same: a quiet check's timer and a distrust may touch another loop's list. */
    private final ConcurrentLinkedDeque<ServerConnection>[] idle;
    /** Per loop, when not shared: group → its idle connections (a group without any has no entry). */
    private final ConcurrentHashMap<Object, ConcurrentLinkedDeque<ServerConnection>>[] groups;
    /** Connections open or being opened (a place is reserved before the connect, so that loops connecting at once keep the bound). */
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong opened = new AtomicLong();
    /** Counted once per request taken on an idle connection, by every loop: striped, not one contended word. */
    private final LongAdder reused = new LongAdder();
    private final AtomicLong closedCount = new AtomicLong();
    private final AtomicLong evicted = new AtomicLong();
    private volatile boolean stopped;
    /** Until when (System.nanoTime) this server's connections serve one exchange each; 0 when trusted. */
    private volatile long distrustedUntil;
    /**
     * False until a connection of this server stayed silent for a quiet period after an answer (see
     * {@link ServerConnection#QUIET_CHECK_MILLIS}); until then, and again after a distrust, connections
     * serve one exchange each, so no answer can be shifted onto another client's request.
     */
    private volatile boolean proven;
    private final AtomicBoolean checking = new AtomicBoolean();
    private final AtomicLong exchanges = new AtomicLong();
    private final AtomicLong quietChecks = new AtomicLong();
    /** How long a server that wrote bytes nobody asked for gets no connection reuse. */
    static final long DISTRUST_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final Logger LOG = LoggerFactory.getLogger(ServerConnectionPool.class);

    /** Connections handed to an exchange of another loop than their own: always 0 (a test reads it). */
    private final AtomicLong crossLoop = new AtomicLong();

    ServerConnectionPool(LoopConnector connector, URI url, long idleTimeoutMillis) {
        this(connector, url, idleTimeoutMillis, UpstreamReuse.SHARED, () -> Integer.MAX_VALUE);
    }

    @SuppressWarnings("unchecked")
    ServerConnectionPool(LoopConnector connector, URI url, long idleTimeoutMillis, UpstreamReuse reuse, IntSupplier maxConnections) {
        this.connector = connector;
        this.reuse = reuse;
        this.maxConnections = maxConnections;
        this.idle = new ConcurrentLinkedDeque[connector.loops()];
        this.groups = new ConcurrentHashMap[connector.loops()];
        for (int i = 0; i < idle.length; i++) {
            idle[i] = new ConcurrentLinkedDeque<>();
            groups[i] = new ConcurrentHashMap<>();
        }
        this.host = url.getHost();
        this.port = url.getPort() > 0 ? url.getPort() : 80;
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        this.pathPrefix = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        this.idleTimeoutMillis = idleTimeoutMillis;
    }

    /**
     * The group whose connections a request may use: {@link #SHARED}, its customer, or its client
     * connection (a client connection is given a listener that closes its group's connections with it).
     */
    Object groupOf(UpstreamExchange ex) {
        return switch (reuse) {
            case SHARED -> SHARED;
            case CUSTOMER -> ex.customer() == null ? ANONYMOUS : ex.customer();
            case CLIENT_CONNECTION -> ex.request().getConnectionMetaData().getConnection();
        };
    }

    /** Hands a live connection of loop {@code loop} and group {@code group} to {@code promise}: an idle one, else a new one. */
    void acquire(int loop, Object group, Promise<ServerConnection> promise) {
        for (ServerConnection c = pollIdle(loop, group); c != null; c = pollIdle(loop, group)) {
            if (c.activate()) {
                reused.increment();
                promise.succeeded(c);
                return;
            }
        }
        reserve();
        // resolved per connect (rare: connections are reused), so a changed DNS entry is picked up
        connector.connect(loop, new InetSocketAddress(host, port), this, new Attempt(promise));
    }

    /**
     * Takes a place under the bound for a connection about to be opened; at the bound, an idle connection of another
     * loop or group is closed to make room (never lent). When every connection is busy (the cap fell below them, or a
     * quiet check holds one) the request is not failed: its connection goes over the bound, closed when released.
     */
    private void reserve() {
        while (true) {
            int o = open.get();
            if (o < maxConnections.getAsInt()) {
                if (open.compareAndSet(o, o + 1)) {
                    return;
                }
            } else if (!evictIdle()) {
                open.incrementAndGet();
                return;
            }
        }
    }

    /** A connect in progress: gives its reserved place back if it fails before a connection is made. */
    private final class Attempt implements Promise<ServerConnection> {
        private final Promise<ServerConnection> promise;
        final AtomicBoolean made = new AtomicBoolean();

        Attempt(Promise<ServerConnection> promise) {
            this.promise = promise;
        }

        @Override
        public void succeeded(ServerConnection c) {
            promise.succeeded(c);
        }

        @Override
        public void failed(Throwable x) {
            if (made.compareAndSet(false, true)) {
                open.decrementAndGet(); // no connection holds the place
            }
            promise.failed(x);
        }
    }

    /** Gives a connection's place under the bound back, once. */
    private void uncount(ServerConnection c) {
        if (c.counted.compareAndSet(true, false)) {
            open.decrementAndGet();
        }
    }

    private ServerConnection pollIdle(int loop, Object group) {
        if (group == SHARED) {
            return idle[loop].pollFirst();
        }
        ServerConnection[] out = new ServerConnection[1];
        groups[loop].computeIfPresent(group, (g, list) -> {
            out[0] = list.pollFirst();
            return keep(g, list);
        });
        return out[0];
    }

    /**
     * Whether a group keeps its entry: a customer's only while it has idle connections (customers do not
     * accumulate); a client connection's until that connection closes, so that its close listener is
     * registered once, not once per request.
     */
    private static ConcurrentLinkedDeque<ServerConnection> keep(Object group, ConcurrentLinkedDeque<ServerConnection> list) {
        return list.isEmpty() && !(group instanceof Connection) ? null : list;
    }

    /**
     * Closes one idle connection, the coldest of the loop that has most (then of whichever group): the bound holds
     * without lending a connection across loops or groups.
     */
    private boolean evictIdle() {
        int most = 0;
        for (int loop = 1; loop < idle.length; loop++) {
            if (idle[loop].size() > idle[most].size()) {
                most = loop;
            }
        }
        for (int k = 0; k < idle.length; k++) {
            int loop = (most + k) % idle.length;
            ServerConnection c = idle[loop].pollLast();
            if (c == null) {
                for (Object g : groups[loop].keySet()) {
                    c = pollIdle(loop, g);
                    if (c != null) {
                        break;
                    }
                }
            }
            if (c != null) {
                evicted.incrementAndGet();
                uncount(c);
                c.close();
                return true;
            }
        }
        return false;
    }

    /** The connection of a connect that succeeded: it takes the place {@code attempt} reserved. */
    @Override
    public ServerConnection newConnection(EndPoint endPoint, int loop, Promise<ServerConnection> attempt) {
        endPoint.setIdleTimeout(idleTimeoutMillis);
        if (!(attempt instanceof Attempt a) || !a.made.compareAndSet(false, true)) {
            open.incrementAndGet(); // no place reserved, or its attempt failed already and gave the place back
        }
        opened.incrementAndGet();
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
        if (open.get() > maxConnections.getAsInt()) {
            uncount(c);
            c.close(); // beyond the bound (the cap fell, or every connection was busy at a connect): not kept idle
            return;
        }
        Object group = c.group;
        if (group == SHARED) {
            idle[c.loop].offerFirst(c);
            if (stopped && idle[c.loop].remove(c)) {
                c.close();
            }
            return;
        }
        if (group instanceof Connection client && !client.getEndPoint().isOpen()) {
            c.close(); // its client connection is gone, and no other may use it
            return;
        }
        boolean[] first = new boolean[1];
        groups[c.loop].compute(group, (g, list) -> {
            if (list == null) {
                list = new ConcurrentLinkedDeque<>();
                first[0] = true;
            }
            list.offerFirst(c);
            return list;
        });
        if (first[0] && group instanceof Connection client) {
            client.addEventListener(new ClientClosed(c.loop));
        }
        // closed meanwhile (the pool, or the client connection after the check above): not left idle
        if ((stopped || group instanceof Connection client && !client.getEndPoint().isOpen()) && removeIdle(c)) {
            c.close();
        }
    }

    /** Closes a client connection's server connections with it. */
    private final class ClientClosed implements Connection.Listener {
        private final int loop;

        ClientClosed(int loop) {
            this.loop = loop;
        }

        @Override
        public void onClosed(Connection client) {
            ConcurrentLinkedDeque<ServerConnection> list = groups[loop].remove(client);
            if (list != null) {
                for (ServerConnection c = list.pollFirst(); c != null; c = list.pollFirst()) {
                    c.close();
                }
            }
        }
    }

    private boolean removeIdle(ServerConnection c) {
        if (c.group == SHARED) {
            return idle[c.loop].remove(c);
        }
        boolean[] removed = new boolean[1];
        groups[c.loop].computeIfPresent(c.group, (g, list) -> {
            removed[0] = list.remove(c);
            return keep(g, list);
        });
        return removed[0];
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
                    host, port, TimeUnit.NANOSECONDS.toSeconds(DISTRUST_NANOS));
        }
        closeIdle();
    }

    private boolean distrusted() {
        long until = distrustedUntil;
        return until != 0 && until - System.nanoTime() > 0;
    }

    void closed(ServerConnection c) {
        uncount(c);
        closedCount.incrementAndGet();
        removeIdle(c);
    }

    private void closeIdle() {
        for (int loop = 0; loop < idle.length; loop++) {
            for (ServerConnection c = idle[loop].pollFirst(); c != null; c = idle[loop].pollFirst()) {
                c.close();
            }
            for (Object g : groups[loop].keySet()) {
                for (ServerConnection c = pollIdle(loop, g); c != null; c = pollIdle(loop, g)) {
                    c.close();
                }
            }
        }
    }

    /** Connections opened, taken again from the idle lists, closed, and closed to make room (at the bound). */
    @Override
    public String reuseMode() {
        return reuse.text();
    }

    @Override
    public long opened() {
        return opened.get();
    }

    @Override
    public long reused() {
        return reused.sum();
    }

    @Override
    public long closedConnections() {
        return closedCount.get();
    }

    @Override
    public long evicted() {
        return evicted.get();
    }

    /** Connections open now (busy, idle, or in a quiet check) or being opened. */
    @Override
    public int open() {
        return open.get();
    }

    /** Closes the idle connections; busy ones close when their exchange ends. */
    void stop() {
        stopped = true;
        closeIdle();
    }
}
