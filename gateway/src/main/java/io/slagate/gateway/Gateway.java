package io.slagate.gateway;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.slagate.config.GatewaySettings;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.gateway.proxy.ProxyPath;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.stats.FlowStats;
import io.slagate.gateway.stats.GatewayMetrics;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
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

    private final SlagateConfig config;
    private final Server server;
    private final ServerConnector gatewayConnector;
    private final ServerConnector adminConnector;
    private final QueueManager queues;
    private final GatewayMetrics metrics;
    private final PrometheusMeterRegistry registry;
    private final ScheduledExecutorService timer;
    private final ProxyPath proxy;
    private final List<Runnable> reportListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean started;

    public Gateway(SlagateConfig config) {
        this(config, System::nanoTime);
    }

    public Gateway(SlagateConfig config, LongSupplier nanoClock) {
        this.config = config;
        GatewaySettings g = config.gateway();
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        queues = QueueManager.create(config, Allocation.fromConfig(config), nanoClock);
        metrics = new GatewayMetrics(config, registry, queues);
        // Nothing on the request path blocks: a small pool avoids context switches under load.
        QueuedThreadPool threads = new QueuedThreadPool(64, 8);
        threads.setName("slagate-" + g.id());
        server = new Server(threads);
        server.setErrorHandler(new io.slagate.gateway.soap.SoapErrorHandler(g.id()));
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setSendDateHeader(false); // the server's Date is relayed; a second one would be a duplicate
        gatewayConnector = g.tls() == null ? connector(http, g.listen().host(), g.listen().port(), "gateway")
                : tlsConnector(http, g.tls(), g.listen().host(), g.listen().port());
        adminConnector = connector(http, g.admin().host(), g.admin().port(), "admin");
        // slowloris: headers that trickle in are cut off after the header timeout
        gatewayConnector.addBean(new io.slagate.gateway.proxy.SlowHeaderGuard(gatewayConnector.getScheduler(), g.headerTimeout()));
        server.addConnector(gatewayConnector);
        // bounded file descriptors and memory whatever the clients do; the admin listener is not counted
        server.addBean(new org.eclipse.jetty.server.NetworkConnectionLimit(g.maxConnections(), gatewayConnector));
        server.addConnector(adminConnector);
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "slagate-" + g.id() + "-timer");
            t.setDaemon(true);
            return t;
        });
        proxy = new ProxyPath(config, queues, metrics, threads, timer, nanoClock);
        AdminHandler admin = new AdminHandler(registry, this::isReady, this::statsView, () -> server.dump());
        Handler gatewayHandler = proxy.handler();
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                // One server, two listeners: route by the connector the request came in on.
                if (request.getConnectionMetaData().getConnector() == adminConnector) {
                    return admin.handle(request, response, callback);
                }
                return gatewayHandler.handle(request, response, callback);
            }
        });
        server.addBean(proxy);
    }

    private ServerConnector connector(HttpConfiguration http, String host, int port, String name) {
        ServerConnector c = new ServerConnector(server, new HttpConnectionFactory(http));
        c.setHost(host);
        c.setPort(port);
        c.setName(name);
        c.setIdleTimeout(Duration.ofSeconds(60).toMillis());
        return c;
    }

    /** HTTPS on the client listener: the same HTTP handling behind TLS (the request's scheme becomes https). */
    private ServerConnector tlsConnector(HttpConfiguration http, io.slagate.config.TlsSettings tls, String host, int port) {
        org.eclipse.jetty.util.ssl.SslContextFactory.Server ssl = new org.eclipse.jetty.util.ssl.SslContextFactory.Server();
        ssl.setKeyStorePath(tls.keyStore());
        ssl.setKeyStoreType(tls.type());
        ssl.setKeyStorePassword(tls.password());
        HttpConfiguration https = new HttpConfiguration(http);
        https.addCustomizer(new org.eclipse.jetty.server.SecureRequestCustomizer());
        ServerConnector c = new ServerConnector(server, new org.eclipse.jetty.server.SslConnectionFactory(ssl, "http/1.1"),
                new HttpConnectionFactory(https));
        c.setHost(host);
        c.setPort(port);
        c.setName("gateway");
        c.setIdleTimeout(Duration.ofSeconds(60).toMillis());
        return c;
    }

    public Gateway start() throws Exception {
        server.start();
        long sweep = sweepIntervalMillis(config.classes());
        timer.scheduleAtFixedRate(guarded("queue-timeout sweep", queues::expireOverdue), sweep, sweep, TimeUnit.MILLISECONDS);
        long interval = config.gateway().stats().reportingInterval().toMillis();
        timer.scheduleAtFixedRate(guarded("statistics window", this::endReportingInterval), interval, interval, TimeUnit.MILLISECONDS);
        started = true;
        LOG.info("gateway {} listening on {} (admin {}), scheduler {}, {} classes, {} servers, N_g = {}",
                config.gateway().id(), address(gatewayConnector), address(adminConnector),
                config.gateway().scheduler().name().toLowerCase(), config.classes().size(), config.servers().size(),
                queues.allocation().totalCap());
        return this;
    }

    /**
     * Stops accepting requests (new ones get a shutting-down fault), waits up to {@code grace} for
     * the accepted ones to be answered, then stops.
     */
    public void stop(Duration grace) throws Exception {
        started = false;
        proxy.stopAccepting();
        long deadline = System.nanoTime() + grace.toNanos();
        while (metrics.inFlight() > 0 && System.nanoTime() - deadline < 0) {
            queues.expireOverdue();
            Thread.onSpinWait();
            TimeUnit.MILLISECONDS.sleep(10);
        }
        if (metrics.inFlight() > 0) {
            LOG.warn("stopping with {} requests still in flight after {}", metrics.inFlight(), grace);
        }
        timer.shutdownNow();
        server.stop();
    }

    @Override
    public void close() throws Exception {
        stop(Duration.ofSeconds(5));
    }

    /** Every reporting interval: close the window's current slot, then let the listeners (the stats publisher) read it. */
    private void endReportingInterval() {
        metrics.rotate();
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

    private static long sweepIntervalMillis(List<TrafficClassConfig> classes) {
        long min = classes.stream().mapToLong(c -> c.queueTimeout().toMillis()).min().orElse(1000);
        return Math.max(5, Math.min(100, min / 20));
    }

    private static String address(ServerConnector c) {
        return (c.getHost() == null ? "0.0.0.0" : c.getHost()) + ":" + c.getLocalPort();
    }

    public boolean isReady() {
        if (!started) {
            return false;
        }
        for (int s = 0; s < queues.serverCount(); s++) {
            if (queues.server(s).inRotation()) {
                return true;
            }
        }
        return false;
    }

    private Object statsView() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("gateway", config.gateway().id());
        m.put("inFlight", metrics.inFlight());
        m.put("arrived", metrics.arrivedTotal());
        m.put("completed", metrics.completedTotal());
        m.put("faulted", metrics.faultedTotal());
        Allocation a = queues.allocation();
        Map<String, Object> alloc = new LinkedHashMap<>();
        alloc.put("version", a.version());
        Map<String, Double> w = new LinkedHashMap<>();
        for (int c = 0; c < a.classCount(); c++) {
            w.put(config.classes().get(c).name(), a.weight(c));
        }
        Map<String, Object> n = new LinkedHashMap<>();
        for (int s = 0; s < a.serverCount(); s++) {
            Map<String, Object> srv = new LinkedHashMap<>();
            srv.put("cap", a.cap(s));
            srv.put("outstanding", queues.server(s).outstanding());
            srv.put("inRotation", queues.server(s).inRotation());
            n.put(config.servers().get(s).id(), srv);
        }
        alloc.put("weights", w);
        alloc.put("servers", n);
        m.put("allocation", alloc);
        m.put("classes", flowStats());
        return m;
    }

    /**
     * Applies a configuration changed at run time, as far as it can be without a restart: the
     * classification (rules, subscriptions, customer source). Returns false, changing nothing, when
     * the classes or servers differ — their queues and slots are built at start-up.
     */
    public boolean reconfigure(SlagateConfig next) {
        boolean sameClasses = next.classes().stream().map(c -> c.name()).toList()
                .equals(config.classes().stream().map(c -> c.name()).toList());
        boolean sameServers = next.servers().stream().map(s -> s.id() + "@" + s.url() + "/" + s.pool()).toList()
                .equals(config.servers().stream().map(s -> s.id() + "@" + s.url() + "/" + s.pool()).toList());
        if (!sameClasses || !sameServers) {
            return false;
        }
        proxy.reclassify(next);
        return true;
    }

    public void setAllocation(Allocation allocation) {
        queues.setAllocation(allocation);
    }

    public List<FlowStats> flowStats() {
        return metrics.flowStats(queues);
    }

    public QueueManager queues() {
        return queues;
    }

    public GatewayMetrics metrics() {
        return metrics;
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public SlagateConfig config() {
        return config;
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
