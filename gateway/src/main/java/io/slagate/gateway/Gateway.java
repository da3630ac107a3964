package io.slagate.gateway;

import io.slagate.gateway.listener.connector.Listeners;
import io.slagate.config.GatewaySettings;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.gateway.auth.Authenticator;
import io.slagate.gateway.control.FlashCrowdWatch;
import io.slagate.gateway.control.LocalLimits;
import io.slagate.gateway.quota.Quotas;
import io.slagate.gateway.loop.LoopConnector;
import io.slagate.gateway.proxy.ProxyPath;
import io.slagate.gateway.proxy.RequestRecords;
import io.slagate.gateway.proxy.SlowHeaderGuard;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.soap.SoapErrorHandler;
import io.slagate.gateway.stats.FlowStats;
import io.slagate.gateway.stats.GatewayMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.server.AbstractConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One gateway node: the client listener and the admin listener on one Jetty server, the queue
 * manager, the dispatcher and the timers (queue-timeout sweeper, statistics window). Built from a
 * validated configuration; {@link #setAllocation} is how the control plane steers it.
 */
public final class Gateway implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

    /**
     * What a configuration's classes and servers are built into: queues and slots, meters, the
     * request path. Replaced whole when classes or servers change at run time; the one replaced
     * finishes what it accepted, then stops.
     */
    private record Generation(SlagateConfig config, QueueManager queues, GatewayMetrics metrics, ProxyPath proxy) {
    }

    private final Server server;
    private final LoopConnector gatewayConnector;
    private final ServerConnector adminConnector;
    private final PrometheusMeterRegistry registry;
    private final ScheduledExecutorService timer;
    private final QueuedThreadPool threads;
    private final LongSupplier nanoClock;
    private final GatewayMetrics.Totals totals = new GatewayMetrics.Totals();
    private volatile Generation current;
    /** Generations replaced and still finishing their requests. */
    private final List<Generation> retiring = new CopyOnWriteArrayList<>();
    private volatile boolean accepting = true;
    private final List<Runnable> reportListeners = new CopyOnWriteArrayList<>();
    private volatile boolean started;
    private final Readiness readiness = new Readiness();
    /** Per pool, the resource manager's capacity line from the last allocation (empty without one). */
    private volatile List<Map<String, Object>> capacity = List.of();

    public Gateway(SlagateConfig config) {
        this(config, System::nanoTime);
    }

    public Gateway(SlagateConfig config, LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        GatewaySettings g = config.gateway();
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // Nothing on the request path blocks: a small pool avoids context switches under load.
        threads = new QueuedThreadPool(64, 8);
        threads.setName("slagate-" + g.id());
        // buckets of 1 KiB (Jetty's default is 4 KiB): a client connection's read buffer is held while its request waits,
        // so its configured size, not the next multiple of 4 KiB, is what a waiting request costs in direct memory
        server = new Server(threads, null, new ArrayByteBufferPool(0, 1024, 64 * 1024));
        server.setErrorHandler(new SoapErrorHandler(g.id()));
        Listeners listeners = new Listeners(server);
        gatewayConnector = listeners.client(g);
        adminConnector = listeners.admin(g);
        // slowloris: headers that trickle in are cut off after the header timeout
        gatewayConnector.addBean(new SlowHeaderGuard(gatewayConnector, g.headerTimeout()));
        server.addConnector(gatewayConnector);
        // bounded file descriptors and memory whatever the clients do; the admin listener is not counted
        server.addBean(new NetworkConnectionLimit(g.maxConnections(), gatewayConnector));
        server.addConnector(adminConnector);
        ScheduledThreadPoolExecutor stpe = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "slagate-" + g.id() + "-timer");
            t.setDaemon(true);
            return t;
        });
        // SOAP/JMS schedules a timeout per request and cancels it on the reply: drop cancelled ones at once
        stpe.setRemoveOnCancelPolicy(true);
        timer = stpe;
        quotas = new Quotas(config.classification(), registry, g.id());
        authenticator = Authenticator.of(config, registry, nanoClock);
        records = new RequestRecords(g, registry, nanoClock);
        Listeners.meters(registry, g.id(), gatewayConnector);
        current = generation(config, Allocation.fromConfig(config), null);
        current.metrics().registerGauges();
        AdminHandler admin = new AdminHandler(registry, this::notReadyReason, this::statsView, g.adminDump() ? server::dump : null);
        // Declared non-blocking: a client's request is classified, queued or forwarded by the event loop
        // that read it, with no hand-off to a pool thread. The admin endpoint's requests (a scrape, a
        // dump: they take a while) are handed to a pool thread instead.
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                // One server, two listeners: route by the connector the request came in on.
                if (request.getConnectionMetaData().getConnector() == adminConnector) {
                    threads.execute(() -> admin.serve(request, response, callback));
                    return true;
                }
                return current.proxy().handler().handle(request, response, callback);
            }
        });
        server.addBean(current.proxy());
    }

    private Generation generation(SlagateConfig config, Allocation allocation, Generation previous) {
        QueueManager queues = previous == null ? QueueManager.create(config, allocation, nanoClock)
                : QueueManager.succeeding(previous.queues(), config, allocation, nanoClock);
        GatewayMetrics metrics = new GatewayMetrics(config, registry, queues, totals);
        // a server leaving or rejoining the rotation is reported at once, not at the end of the interval: the
        // controller's next cycle then splits N_s knowing it (on the timer, where reports are always made)
        queues.onRotationChange(() -> {
            try {
                timer.execute(() -> reportListeners.forEach(r -> guarded("report listener", r).run()));
            } catch (RejectedExecutionException stopping) {
                // the gateway is stopping
            }
        });
        return new Generation(config, queues, metrics, new ProxyPath(config, queues, metrics, threads, timer, nanoClock, gatewayConnector, records, quotas,
                authenticator));
    }

    /** The client listener's connections open now. */
    List<org.eclipse.jetty.io.Connection> clientConnections() {
        return gatewayConnector.getConnectedEndPoints().stream().map(e -> e.getConnection()).toList();
    }

    /** The read buffer of a client connection, and of an admin one (bytes), as Jetty will size them. */
    int[] inputBufferSizes() {
        return new int[] {gatewayConnector.getConnectionFactory(AbstractConnectionFactory.class).getInputBufferSize(),
                adminConnector.getConnectionFactory(HttpConnectionFactory.class).getInputBufferSize()};
    }

    /** Whether this gateway reuses its connections to server {@code i} (it does once the server proved it speaks only when asked). */
    public boolean reusesConnections(int i) {
        return current.proxy().reusesConnections(i);
    }

    /** The client listener's event loops. */
    public int loops() {
        return gatewayConnector.loops();
    }

    /** Requests handed to another event loop than the thread's own (admitted by another loop's completion, or by the controller). */
    public long crossLoopTasks() {
        return gatewayConnector.crossLoopTasks();
    }

    /** Server {@code i}'s connection counters, or null for a server not on the direct leg (https, JMS). */
    public GatewayMetrics.UpstreamConnections upstreamConnections(int i) {
        return current.proxy().upstreamConnections(i);
    }

    /** Connections to server {@code i} given to an exchange of another loop than their own: 0 unless the design is broken. */
    public long crossLoopHandOuts(int i) {
        return current.proxy().crossLoopHandOuts(i);
    }

    /** Quiet checks started on connections to server {@code i}; each took one connection out of its pool for a while. */
    public long quietChecks(int i) {
        return current.proxy().quietChecks(i);
    }

    public Gateway start() throws Exception {
        SlagateConfig config = current.config();
        records.start();
        server.start();
        // from the first configuration's queue timeouts; a later one with shorter timeouts is swept at
        // this pace (at most every 100 ms) all the same
        long sweep = sweepIntervalMillis(config.classes());
        timer.scheduleAtFixedRate(guarded("queue-timeout sweep", this::expireOverdue), sweep, sweep, TimeUnit.MILLISECONDS);
        long interval = config.gateway().stats().reportingInterval().toMillis();
        timer.scheduleAtFixedRate(guarded("statistics window", this::endReportingInterval), interval, interval, TimeUnit.MILLISECONDS);
        long remap = config.gateway().locality().remapInterval().toMillis();
        // every generation's queues: a new configuration's pools are remapped from its own first interval
        timer.scheduleAtFixedRate(guarded("locality remap", () -> current.queues().remapLocality()), remap, remap, TimeUnit.MILLISECONDS);
        if (config.gateway().flashCrowd() != null) {
            timer.scheduleAtFixedRate(guarded("flash-crowd watch", () -> {
                Generation g = current;
                flashCrowd.tick(g.config(), g.metrics(), g.queues(), nanoClock.getAsLong());
            }), FlashCrowdWatch.TICK_MILLIS, FlashCrowdWatch.TICK_MILLIS,
                    TimeUnit.MILLISECONDS);
        }
        if (config.gateway().localLimit()) {
            timer.scheduleAtFixedRate(guarded("local limit", () -> {
                Generation g = current;
                localLimits.tick(g.config(), g.metrics(), g.queues());
            }), LocalLimits.TICK_MILLIS, LocalLimits.TICK_MILLIS,
                    TimeUnit.MILLISECONDS);
        }
        if (authenticator != null) {
            authenticator.start(timer);
        }
        started = true;
        String budget = Listeners.directMemoryProblem(config.gateway());
        if (budget != null) {
            LOG.warn(budget);
        }
        if (server.getInvocationType() != Invocable.InvocationType.NON_BLOCKING) {
            LOG.warn("the request path is not non-blocking ({}): every request is handed to a pool thread", server.getInvocationType());
        }
        LOG.info("gateway {} listening on {} ({} listener, {} event loops, admin {}), scheduler {}, {} classes, {} servers, N_g = {}",
                config.gateway().id(), address(gatewayConnector), Listeners.relay(config.gateway()) ? "relay" : "jetty", gatewayConnector.loops(),
                address(adminConnector),
                config.gateway().scheduler().name().toLowerCase(), config.classes().size(), config.servers().size(),
                current.queues().allocation().totalCap());
        return this;
    }

    private void expireOverdue() {
        current.queues().expireOverdue();
        for (Generation old : retiring) {
            old.queues().expireOverdue();
            if (old.metrics().ownInFlight() == 0) {
                retiring.remove(old);
                // its last responses may still be on their way to the clients: stop its client a little later
                timer.schedule(guarded("retire a configuration", () -> stopQuietly(old.proxy())), 5, TimeUnit.SECONDS);
                LOG.info("the previous configuration's requests are all answered; its request path stops");
            }
        }
    }

    private void stopQuietly(ProxyPath proxy) {
        try {
            proxy.stop();
        } catch (Exception e) {
            LOG.warn("stopping a retired request path: {}", e.toString());
        }
        server.removeBean(proxy);
    }

    /**
     * Stops accepting requests (new ones get a shutting-down fault), waits up to {@code grace} for
     * the accepted ones to be answered, then stops.
     */
    public void stop(Duration grace) throws Exception {
        started = false;
        synchronized (this) {
            accepting = false;
            current.proxy().stopAccepting();
        }
        long draining = current.metrics().inFlight();
        long stopStarted = System.nanoTime();
        LOG.info("gateway {} stopping: new requests get a shutting-down fault; draining {} in flight (up to {})",
                current.config().gateway().id(), draining, grace);
        long deadline = System.nanoTime() + grace.toNanos();
        while (current.metrics().inFlight() > 0 && System.nanoTime() - deadline < 0) {
            current.queues().expireOverdue();
            retiring.forEach(g -> g.queues().expireOverdue());
            TimeUnit.MILLISECONDS.sleep(10);
        }
        if (current.metrics().inFlight() > 0) {
            LOG.warn("stopping with {} requests still in flight after {}", current.metrics().inFlight(), grace);
        } else if (draining > 0) {
            LOG.info("gateway {} drained in {} ms", current.config().gateway().id(), (System.nanoTime() - stopStarted) / 1_000_000);
        }
        // the request paths of replaced configurations still there are beans of the server: they stop with it
        timer.shutdownNow();
        server.stop();
        records.close();
        if (authenticator != null) {
            authenticator.close();
        }
        LOG.info("gateway {} stopped", current.config().gateway().id());
    }

    @Override
    public void close() throws Exception {
        stop(Duration.ofSeconds(5));
    }

    private final FlashCrowdWatch flashCrowd = new FlashCrowdWatch();
    /** The access log's writer and the spans' exporter (one for the gateway's life: a reload does not move them). */
    private final RequestRecords records;
    private final Quotas quotas;
    /** Proves customers (null: names are claimed); one for the gateway's life, its files read again on a reload. */
    private final Authenticator authenticator;
    private final LocalLimits localLimits = new LocalLimits();

    /** Called with the class's name when a class's arrivals surge: the agent reports at once. */
    public void addFlashCrowdListener(Consumer<String> listener) {
        flashCrowd.addListener(listener);
    }

    /** Every reporting interval: close the window's current slot, then let the listeners (the stats publisher) read it. */
    private void endReportingInterval() {
        current.metrics().rotate();
        quotas.endInterval(current.config().gateway().stats().reportingInterval().toNanos() / 1e9, nanoClock.getAsLong());
        for (Runnable r : reportListeners) {
            guarded("report listener", r).run();
        }
    }

    /** Runs on the gateway's timer at the end of every reporting interval, after the statistics window moved. */
    public void addReportListener(Runnable listener) {
        reportListeners.add(listener);
    }

    private static Runnable guarded(String what, Runnable r) {
        return () -> {
            try {
                r.run();
            } catch (Throwable t) {
                LOG.error("{} failed; will run again", what, t); // never let a timer task die silently
            }
        };
    }

    /** How often waiting requests are checked against their queue timeouts and deadlines. */
    public static long sweepIntervalMillis(List<TrafficClassConfig> classes) {
        long min = classes.stream().mapToLong(c -> Math.min(c.queueTimeout().toMillis(),
                c.deadline() == null ? Long.MAX_VALUE : c.deadline().toMillis())).min().orElse(1000);
        return Math.max(5, Math.min(100, min / 20));
    }

    private static String address(ServerConnector c) {
        return (c.getHost() == null ? "0.0.0.0" : c.getHost()) + ":" + c.getLocalPort();
    }

    /**
     * Takes the gateway out of rotation for good: {@code /ready} answers 503 with the reason from now
     * on (the control plane refused it; a load balancer must not send it traffic on its static caps).
     */
    public void notReady(String reason) {
        readiness.refused(reason);
    }

    /** Not ready until {@link #allocationInForce}: a gateway waiting for its share of the servers says so on {@code /ready}. */
    public void awaitAllocation(String reason) {
        readiness.awaiting(reason);
    }

    /** An allocation is in force (given by a manager, or the static one chosen when none was heard): ready as far as that goes. */
    public void allocationInForce() {
        readiness.awaiting(null);
    }

    /** Why the gateway is not ready, or null when it is. */
    public String notReadyReason() {
        Generation gen = current;
        return readiness.reason(started, gen == null ? null : gen.queues());
    }

    public boolean isReady() {
        return notReadyReason() == null;
    }

    /** What the resource manager last said of each pool's capacity (its capacity line), for {@code /stats}. */
    public void capacity(List<Map<String, Object>> pools) {
        capacity = List.copyOf(pools);
    }

    private Object statsView() {
        Generation gen = current;
        return StatsView.of(gen.config(), gen.queues(), gen.metrics(), flashCrowd, capacity, quotas);
    }

    /**
     * Applies a configuration changed at run time without dropping a request. A new classification
     * (rules, subscriptions, customer source) is in force for the next request. New, changed or
     * deleted classes and servers (and the scheduler mode) build a new set of queues, slots and
     * request path that takes every request from now on, while the previous one finishes the requests
     * it accepted: classes and servers that stay keep their weights and caps (caps cut to a lower
     * N_s) until the resource manager decides anew. The gateway's own settings (listeners, TLS,
     * timeouts, statistics) need a restart: the rest is applied with the ones in force, and the
     * answer is false.
     *
     * @return whether all of {@code next} is in force
     */
    public synchronized boolean reconfigure(SlagateConfig next) {
        Generation gen = current;
        if (!accepting) {
            return false;
        }
        GatewaySettings live = gen.config().gateway().withSchedulingOf(next.gateway());
        boolean complete = live.equals(next.gateway());
        SlagateConfig effective = complete ? next : new SlagateConfig(next.source(), live, next.servers(), next.classes(),
                next.classification(), next.allocation(), next.bus(), next.controller(), next.console());
        if (!effective.classification().equals(gen.config().classification())) {
            quotas.reconfigure(effective.classification());
        }
        if (authenticator != null) {
            authenticator.reload(); // credentials are read again with the configuration
        }
        boolean sameClasses = queueingView(effective).equals(queueingView(gen.config()));
        boolean sameServers = effective.servers().equals(gen.config().servers());
        if (sameClasses && sameServers && live.equals(gen.config().gateway())) {
            gen.proxy().reclassify(effective);
            current = new Generation(effective, gen.queues(), gen.metrics(), gen.proxy());
            return complete;
        }
        Generation fresh = generation(effective, gen.queues().allocation().carriedOver(gen.config(), effective), gen);
        try {
            // a managed bean of the running server: started now, stopped with the server if still there
            server.addBean(fresh.proxy(), true);
            if (!fresh.proxy().isStarted()) {
                fresh.proxy().start();
            }
        } catch (Exception e) {
            server.removeBean(fresh.proxy());
            LOG.error("could not start the request path of the new configuration; the old one stays", e);
            return false;
        }
        gen.metrics().retireGauges();
        fresh.metrics().registerGauges();
        gen.queues().succeededBy(fresh.queues());
        current = fresh;
        retiring.add(gen);
        LOG.info("gateway {}: now {} classes, {} servers (N_g = {}); the previous configuration finishes its {} requests",
                live.id(), effective.classes().size(), effective.servers().size(), fresh.queues().allocation().totalCap(),
                gen.metrics().ownInFlight());
        return complete;
    }

    /** What of the classes the gateway's queues are built from (targets and utilities are the manager's). */
    private static List<String> queueingView(SlagateConfig c) {
        return c.classes().stream().map(x -> x.name() + "/" + x.pool() + "/" + x.queueBound() + "/" + x.queueTimeout()).toList();
    }

    public void setAllocation(Allocation allocation) {
        current.queues().setAllocation(allocation);
    }

    public List<FlowStats> flowStats() {
        Generation gen = current;
        return gen.metrics().flowStats(gen.queues());
    }

    /** The queues of the configuration in force (a new object after classes or servers changed). */
    /** The subscription quotas' buckets at this gateway. */
    public Quotas quotas() {
        return quotas;
    }

    public QueueManager queues() {
        return current.queues();
    }

    /** What proves customers here (its {@code reload} reads the credential files at once), or null: names are claimed. */
    public Authenticator authenticator() {
        return authenticator;
    }

    public GatewayMetrics metrics() {
        return current.metrics();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public SlagateConfig config() {
        return current.config();
    }

    public int port() {
        return gatewayConnector.getLocalPort();
    }

    /** Client connections the gateway listener holds open now. */
    public int connectedEndPoints() {
        return gatewayConnector.getConnectedEndPoints().size();
    }

    public int adminPort() {
        return adminConnector.getLocalPort();
    }
}
