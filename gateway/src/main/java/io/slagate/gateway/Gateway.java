package io.slagate.gateway;

import io.slagate.gateway.listener.connector.Listeners;
import io.slagate.config.GatewaySettings;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.auth.Authenticator;
import io.slagate.gateway.quota.Quotas;
import io.slagate.gateway.loop.LoopConnector;
import io.slagate.gateway.ingress.GatewayHandler;
import io.slagate.gateway.upstream.ProxyPath;
import io.slagate.gateway.proxy.RequestRecords;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.stats.FlowStats;
import io.slagate.gateway.stats.GatewayMetrics;
import io.slagate.gateway.stats.SlaLedger;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.eclipse.jetty.server.Handler;
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

    private final Server server;
    private final LoopConnector gatewayConnector;
    private final ServerConnector adminConnector;
    private final PrometheusMeterRegistry registry;
    private final ScheduledExecutorService timer;
    private final QueuedThreadPool threads;
    private final LongSupplier nanoClock;
    private final GatewayMetrics.Totals totals = new GatewayMetrics.Totals();
    private final Generations generations;
    private final GatewayTimers timers;
    private final DataPlaneFigures figures;
    private final Readiness readiness;
    /** The access log's writer and the spans' exporter (one for the gateway's life: a reload does not move them). */
    private final RequestRecords records;
    private final Quotas quotas;
    /** The counts toward the classes' objectives (one for the gateway's life: a reload keeps them). */
    private final SlaLedger sla;
    /** Proves customers (null: names are claimed); one for the gateway's life, its files read again on a reload. */
    private final Authenticator authenticator;
    private volatile boolean accepting = true;
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
        Listening listening = Listening.of(threads, g);
        server = listening.server();
        gatewayConnector = listening.client();
        adminConnector = listening.admin();
        timer = GatewayTimers.executor(g.id());
        quotas = new Quotas(config.classification(), registry, g.id());
        sla = new SlaLedger(registry, g.id(), System.currentTimeMillis());
        authenticator = Authenticator.of(config, registry, nanoClock);
        records = new RequestRecords(g, registry, nanoClock);
        Listeners.meters(registry, g.id(), gatewayConnector);
        generations = new Generations(server, timer, this::generation, config);
        timers = new GatewayTimers(timer, generations, quotas, nanoClock);
        figures = new DataPlaneFigures(gatewayConnector, adminConnector, generations);
        readiness = new Readiness(() -> generations.current().queues());
        generations.current().metrics().registerGauges();
        AdminHandler admin = new AdminHandler(registry, readiness::reason, this::statsView, g.adminDump() ? server::dump : null);
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
                return generations.current().proxy().handler().handle(request, response, callback);
            }
        });
        server.addBean(generations.current().proxy());
    }

    private Generations.Generation generation(SlagateConfig config, Allocation allocation, Generations.Generation previous) {
        QueueManager queues = previous == null ? QueueManager.create(config, allocation, nanoClock)
                : QueueManager.succeeding(previous.queues(), config, allocation, nanoClock);
        GatewayMetrics metrics = new GatewayMetrics(config, registry, queues, totals);
        // a server leaving or rejoining the rotation is reported at once, not at the end of the interval: the
        // controller's next cycle then splits N_s knowing it (on the timer, where reports are always made)
        queues.onRotationChange(() -> timers.reportSoon());
        return new Generations.Generation(config, queues, metrics, new ProxyPath(config, queues, metrics, threads, timer, nanoClock, gatewayConnector, records, quotas,
                authenticator, sla, GatewayHandler::new));
    }

    /** The data plane's connections and event loops, read-only. */
    public DataPlaneFigures dataPlane() {
        return figures;
    }

    /** Whether the gateway should get traffic, and why not; the control plane's agent sets what it knows. */
    public Readiness readiness() {
        return readiness;
    }

    public Gateway start() throws Exception {
        SlagateConfig config = generations.current().config();
        records.start();
        server.start();
        timers.start(config);
        if (authenticator != null) {
            authenticator.start(timer);
        }
        readiness.started(true);
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
                generations.current().queues().caps().allocation().totalCap());
        return this;
    }

    /**
     * Stops accepting requests (new ones get a shutting-down fault), waits up to {@code grace} for
     * the accepted ones to be answered, then stops.
     */
    public void stop(Duration grace) throws Exception {
        readiness.started(false);
        synchronized (this) {
            accepting = false;
            generations.current().proxy().stopAccepting();
        }
        Generations.Generation gen = generations.current();
        long draining = gen.metrics().inFlight();
        long stopStarted = System.nanoTime();
        LOG.info("gateway {} stopping: new requests get a shutting-down fault; draining {} in flight (up to {})",
                gen.config().gateway().id(), draining, grace);
        long deadline = System.nanoTime() + grace.toNanos();
        while (gen.metrics().inFlight() > 0 && System.nanoTime() - deadline < 0) {
            generations.expireOverdueWhileStopping();
            TimeUnit.MILLISECONDS.sleep(10);
        }
        if (gen.metrics().inFlight() > 0) {
            LOG.warn("stopping with {} requests still in flight after {}", gen.metrics().inFlight(), grace);
        } else if (draining > 0) {
            LOG.info("gateway {} drained in {} ms", gen.config().gateway().id(), (System.nanoTime() - stopStarted) / 1_000_000);
        }
        // the request paths of replaced configurations still there are beans of the server: they stop with it
        timer.shutdownNow();
        server.stop();
        records.close();
        if (authenticator != null) {
            authenticator.close();
        }
        LOG.info("gateway {} stopped", gen.config().gateway().id());
    }

    @Override
    public void close() throws Exception {
        stop(Duration.ofSeconds(5));
    }

    /** Called with the class's name when a class's arrivals surge: the agent reports at once. */
    public void addFlashCrowdListener(Consumer<String> listener) {
        timers.addFlashCrowdListener(listener);
    }

    /** Runs on the gateway's timer at the end of every reporting interval, after the statistics window moved. */
    public void addReportListener(Runnable listener) {
        timers.addReportListener(listener);
    }

    private static String address(ServerConnector c) {
        return (c.getHost() == null ? "0.0.0.0" : c.getHost()) + ":" + c.getLocalPort();
    }

    /** What the resource manager last said of each pool's capacity (its capacity line), for {@code /stats}. */
    public void capacity(List<Map<String, Object>> pools) {
        capacity = List.copyOf(pools);
    }

    private Object statsView() {
        Generations.Generation gen = generations.current();
        return StatsView.of(gen.config(), gen.queues(), gen.metrics(), timers.flashCrowd(), capacity, quotas);
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
        Generations.Generation gen = generations.current();
        if (!accepting) {
            return false;
        }
        GatewaySettings live = gen.config().gateway().withSchedulingOf(next.gateway());
        boolean complete = live.equals(next.gateway());
        SlagateConfig effective = complete ? next : new SlagateConfig(next.source(), live, next.servers(), next.classes(),
                next.classification(), next.allocation(), next.bus(), next.controller(), next.console(), next.sla());
        if (!effective.classification().equals(gen.config().classification())) {
            quotas.reconfigure(effective.classification());
        }
        if (authenticator != null) {
            authenticator.reload(); // credentials are read again with the configuration
        }
        return generations.apply(effective) && complete;
    }

    public void setAllocation(Allocation allocation) {
        generations.current().queues().setAllocation(allocation);
    }

    public List<FlowStats> flowStats() {
        Generations.Generation gen = generations.current();
        return gen.metrics().flowStats(gen.queues());
    }

    /** Per class and customer, the requests counted toward the class's objective and the good ones. */
    public SlaLedger sla() {
        return sla;
    }

    /** The subscription quotas' buckets at this gateway. */
    public Quotas quotas() {
        return quotas;
    }

    /** The queues of the configuration in force (a new object after classes or servers changed). */
    public QueueManager queues() {
        return generations.current().queues();
    }

    /** What proves customers here (its {@code reload} reads the credential files at once), or null: names are claimed. */
    public Authenticator authenticator() {
        return authenticator;
    }

    public GatewayMetrics metrics() {
        return generations.current().metrics();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public SlagateConfig config() {
        return generations.current().config();
    }

    public int port() {
        return gatewayConnector.getLocalPort();
    }

    public int adminPort() {
        return adminConnector.getLocalPort();
    }
}
