package io.slagate.gateway.loop;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import io.slagate.gateway.loop.EventLoops;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.IO;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The client listener as N event loops, each running both legs of its exchanges: a loop's selector
 * owns its client connections and the server connections that serve them, so a request read on a
 * loop is forwarded, answered and relayed back on that loop's thread, with no hand-off between
 * threads and no interest change made from another thread (the design of HAProxy's and nginx's
 * workers, and of Netty proxies with per-loop upstream pools).
 *
 * <p>Upstream sockets are connected through this connector's own selector manager, on the loop
 * chosen by the caller (the client's). They are not client connections: they are neither counted
 * by the connection limit nor tracked as the listener's endpoints (graceful shutdown waits on
 * requests, not on pooled server connections).
 */
public final class LoopConnector extends ServerConnector implements EventLoops {
    /** The loop a {@link SelectorManager#connect} call on this thread must use; set only around that call. */
    private static final ThreadLocal<ManagedSelector> TARGET = new ThreadLocal<>();

    /** Tasks handed to a loop from another thread or loop (a request admitted by another loop's completion). */
    private final AtomicLong crossLoopTasks = new AtomicLong();

    /** Upstream channels whose connect completed at once, registered through the accept path (not listener events). */
    private final Set<SelectableChannel> connectedAtOnce = ConcurrentHashMap.newKeySet();

    /** {@code loops} selector threads (at least 1); the factories as for a {@link ServerConnector}. */
    public LoopConnector(Server server, int loops, ConnectionFactory... factories) {
        this(server, new LoopExecutor(server.getThreadPool()), loops, factories);
    }

    private LoopConnector(Server server, LoopExecutor executor, int loops, ConnectionFactory... factories) {
        super(server, executor, null, null, -1, Math.max(1, loops), factories);
        executor.connector = this;
    }

    /**
     * The connector's executor: a connection handed to it (Jetty resumes a client connection this way
     * when its response completes outside the connection's own read, as every relayed answer does)
     * runs on its own loop; anything else (the selectors' own threads, the acceptor) on the pool.
     * Not a {@code TryExecutor}, so a selector never hands its producing role to another thread: a
     * loop stays one thread.
     */
    private static final class LoopExecutor implements Executor {
        private final Executor pool;
        private volatile LoopConnector connector;

        LoopExecutor(Executor pool) {
            this.pool = pool;
        }

        @Override
        public void execute(Runnable task) {
            LoopConnector c = connector;
            if (task instanceof Connection connection && c != null && c.isRunning()) {
                c.execute(loopOf(connection.getEndPoint()), task);
            } else {
                pool.execute(task);
            }
        }
    }

    /** Loops to run when the configuration leaves it open: one per core this JVM may use. */
    public static int defaultLoops() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** How many loops this listener runs. */
    public int loops() {
        return manager().loops.length;
    }

    /** The loop that owns {@code endPoint} (a client's, through any TLS layer, or a server connection's); 0 if none does. */
    public static int loopOf(EndPoint endPoint) {
        EndPoint e = endPoint;
        while (e instanceof EndPoint.Wrapper w && w.unwrap() != e) {
            e = w.unwrap();
        }
        return e instanceof LoopEndPoint l ? l.loop : 0;
    }

    /**
     * Runs {@code task} on loop {@code loop}'s thread, after the events it is handling now (a loop's
     * own queue: from the loop itself no wake-up is needed). Dropped if the loop has stopped: by then
     * every connection it owned is closed.
     */
    @Override
    public void execute(int loop, Runnable task) {
        LoopManager m = manager();
        if (Thread.currentThread() != m.threads[loop]) {
            crossLoopTasks.incrementAndGet();
        }
        m.loops[loop].submit(selector -> task.run());
    }

    @Override
    public int loopIndex(EndPoint endPoint) {
        return loopOf(endPoint);
    }

    /** Whether this thread is loop {@code loop}'s. */
    @Override
    public boolean onLoop(int loop) {
        return Thread.currentThread() == manager().threads[loop];
    }

    /** Tasks that {@link #execute} handed from one thread to another loop's (admissions by another loop, the controller, a timer). */
    public long crossLoopTasks() {
        return crossLoopTasks.get();
    }

    /**
     * Opens a connection to {@code address} on loop {@code loop}; {@code factory} makes it, {@code promise}
     * gets it once connected (on that loop's thread), or the failure.
     */
    public <C extends Connection> void connect(int loop, InetSocketAddress address, UpstreamFactory<C> factory, Promise<C> promise) {
        Upstream<C> upstream = new Upstream<>(factory, promise);
        SocketChannel channel = null;
        try {
            channel = SocketChannel.open();
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(false);
            boolean connected = channel.connect(address);
            LoopManager m = manager();
            TARGET.set(m.loops[loop]);
            try {
                if (connected) {
                    connectedAtOnce.add(channel);
                    m.accept(channel, upstream);
                } else {
                    m.connect(channel, upstream);
                }
            } finally {
                TARGET.remove();
            }
        } catch (IOException | RuntimeException e) {
            if (channel != null) {
                connectedAtOnce.remove(channel);
                IO.close(channel);
            }
            promise.failed(e);
        }
    }

    /** The connect timeout of upstream connections (the gateway's {@code connectTimeout}). */
    public void setConnectTimeout(long millis) {
        getSelectorManager().setConnectTimeout(millis);
    }

    private LoopManager manager() {
        return (LoopManager) getSelectorManager();
    }

    @Override
    protected SelectorManager newSelectorManager(Executor executor, Scheduler scheduler, int selectors) {
        return new LoopManager(executor, scheduler, selectors);
    }

    @Override
    protected SocketChannelEndPoint newEndPoint(SocketChannel channel, ManagedSelector selector, SelectionKey key) {
        LoopManager m = manager();
        int loop = m.indexOf(selector);
        LoopEndPoint endPoint = new LoopEndPoint(channel, selector, key, getScheduler(), loop,
                key.attachment() instanceof Upstream, m.threads, m.stages[loop]);
        endPoint.setIdleTimeout(getIdleTimeout());
        return endPoint;
    }

    /** What an upstream connect carries to its loop: who makes the connection, who hears the outcome. */
    private record Upstream<C extends Connection>(UpstreamFactory<C> factory, Promise<C> promise) {
        Connection open(EndPoint endPoint, int loop) {
            return factory.newConnection(endPoint, loop, promise);
        }

        @SuppressWarnings("unchecked") // the connection open() made for this promise
        void opened(Connection connection) {
            promise.succeeded((C) connection);
        }
    }

    /**
     * An endpoint and the loop whose selector it is registered with, for life. On the loop's thread its heap buffers
     * are read into and written from through the loop's {@link LoopStage}; elsewhere, and for direct buffers, as
     * Jetty's endpoint does.
     */
    static final class LoopEndPoint extends SocketChannelEndPoint {
        final int loop;
        final boolean upstream;
        private final Thread[] loopThreads;
        private final LoopStage stage;

        LoopEndPoint(SocketChannel channel, ManagedSelector selector, SelectionKey key, Scheduler scheduler, int loop,
                     boolean upstream, Thread[] loopThreads, LoopStage stage) {
            super(channel, selector, key, scheduler);
            this.loop = loop;
            this.upstream = upstream;
            this.loopThreads = loopThreads;
            this.stage = stage;
        }

        /** Called by the loop's selector thread, which is the loop's thread for as long as it runs (read, not written, mostly). */
        @Override
        public Runnable onSelected() {
            Thread t = Thread.currentThread();
            if (loopThreads[loop] != t) {
                loopThreads[loop] = t;
                stage.claim(t);
            }
            return super.onSelected();
        }

        @Override
        public int fill(ByteBuffer buffer) throws IOException {
            if (buffer.isDirect() || !buffer.hasArray() || !stage.mine()) {
                return super.fill(buffer);
            }
            if (isInputShutdown()) {
                return -1;
            }
            int n;
            try {
                n = stage.read(getChannel(), buffer);
            } catch (IOException e) {
                shutdownInput(); // as Jetty's endpoint: a failed read is the input's end
                return -1;
            }
            if (n > 0) {
                notIdle();
            } else if (n < 0) {
                shutdownInput();
            }
            return n;
        }

        @Override
        public boolean flush(ByteBuffer... buffers) throws IOException {
            if (!stage.mine() || allDirect(buffers)) {
                return super.flush(buffers);
            }
            long n;
            try {
                n = stage.write(getChannel(), buffers);
            } catch (IOException e) {
                throw new EofException(e);
            }
            if (n > 0) {
                notIdle();
            }
            for (ByteBuffer b : buffers) {
                if (b.hasRemaining()) {
                    return false;
                }
            }
            return true;
        }

        private static boolean allDirect(ByteBuffer[] buffers) {
            for (ByteBuffer b : buffers) {
                if (!b.isDirect()) {
                    return false;
                }
            }
            return true;
        }
    }

    private final class LoopManager extends ServerConnectorManager {
        final ManagedSelector[] loops;
        /** Each loop's selector thread, as last seen selecting (for counting hand-offs between loops only). */
        final Thread[] threads;
        /** Each loop's direct buffer for its sockets' heap buffers. */
        final LoopStage[] stages;

        LoopManager(Executor executor, Scheduler scheduler, int selectors) {
            super(executor, scheduler, selectors);
            loops = new ManagedSelector[selectors];
            threads = new Thread[selectors];
            stages = new LoopStage[selectors];
            for (int i = 0; i < selectors; i++) {
                stages[i] = new LoopStage();
            }
        }

        int indexOf(ManagedSelector selector) {
            for (int i = 0; i < loops.length; i++) {
                if (loops[i] == selector) {
                    return i;
                }
            }
            return 0;
        }

        @Override
        protected ManagedSelector newSelector(int id) {
            ManagedSelector selector = super.newSelector(id);
            loops[id] = selector;
            return selector;
        }

        @Override
        protected ManagedSelector chooseSelector() {
            ManagedSelector target = TARGET.get();
            return target != null ? target : super.chooseSelector();
        }

        @Override
        public Connection newConnection(SelectableChannel channel, EndPoint endPoint, Object attachment) throws IOException {
            if (attachment instanceof Upstream<?> u) {
                connectedAtOnce.remove(channel);
                return u.open(endPoint, ((LoopEndPoint) endPoint).loop);
            }
            return super.newConnection(channel, endPoint, attachment);
        }

        @Override
        public void connectionOpened(Connection connection, Object attachment) {
            super.connectionOpened(connection, attachment);
            if (attachment instanceof Upstream<?> u) {
                u.opened(connection);
            }
        }

        @Override
        protected void connectionFailed(SelectableChannel channel, Throwable failure, Object attachment) {
            if (attachment instanceof Upstream<?> u) {
                u.promise().failed(failure);
            } else {
                super.connectionFailed(channel, failure, attachment);
            }
        }

        @Override
        protected void endPointOpened(EndPoint endPoint) {
            if (!(endPoint instanceof LoopEndPoint l && l.upstream)) {
                super.endPointOpened(endPoint);
            }
        }

        @Override
        protected void endPointClosed(EndPoint endPoint) {
            if (!(endPoint instanceof LoopEndPoint l && l.upstream)) {
                super.endPointClosed(endPoint); // the connection limit counts client connections only
            }
        }

        @Override
        protected void onAccepting(SelectableChannel channel) {
            if (!connectedAtOnce.contains(channel)) {
                super.onAccepting(channel);
            }
        }

        @Override
        protected void onAccepted(SelectableChannel channel) {
            if (!connectedAtOnce.contains(channel)) {
                super.onAccepted(channel);
            }
        }

        @Override
        protected void onAcceptFailed(SelectableChannel channel, Throwable failure, Object attachment) {
            if (attachment instanceof Upstream u) {
                connectedAtOnce.remove(channel);
                u.promise().failed(failure);
            } else {
                super.onAcceptFailed(channel, failure, attachment);
            }
        }
    }
}
