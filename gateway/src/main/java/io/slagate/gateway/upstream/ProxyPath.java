package io.slagate.gateway.upstream;

import io.slagate.gateway.proxy.AccessLog;
import io.slagate.gateway.proxy.ClientHandler;
import io.slagate.gateway.proxy.GatewayContext;
import io.slagate.gateway.proxy.RequestRecords;

import io.slagate.gateway.loop.LoopConnector;
import io.slagate.config.GatewaySettings;
import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.config.UpstreamSettings;
import io.slagate.gateway.auth.Authenticator;
import io.slagate.gateway.auth.CredentialFields;
import io.slagate.gateway.quota.Quotas;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.stats.GatewayMetrics;
import io.slagate.gateway.stats.SlaCounts;
import io.slagate.gateway.stats.SlaLedger;
import io.slagate.gateway.trace.Tracer;
import java.net.URI;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.RoundRobinConnectionPool;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.LoggerFactory;

/**
 * The request path of a gateway wired together: classifier, handler, dispatcher, health monitor
 * and the HTTP client toward the servers (pooled keep-alive connections, sharing the server's thread
 * pool). A lifecycle bean of the Jetty server, so the client starts and stops with it.
 */
public final class ProxyPath extends ContainerLifeCycle {
    private final ClientHandler handler;
    private final HttpClient client;
    private final JmsDispatcher jms;
    private final ServerConnectionPool[] pools;

    public ProxyPath(SlagateConfig config, QueueManager queues, GatewayMetrics metrics, QueuedThreadPool threads,
                     ScheduledExecutorService timer, LongSupplier clock, LoopConnector loops, RequestRecords records,
                     Quotas quotas, Authenticator authenticator, SlaLedger sla, ClientHandler.Factory ingress) {
        GatewaySettings g = config.gateway();
        client = httpClient(config, threads);
        addBean(client);

        String[] names = config.classes().stream().map(TrafficClassConfig::name).toArray(String[]::new);
        HttpField[] challenges = authenticator == null ? new HttpField[0] : authenticator.challenges().stream()
                .map(c -> new PreEncodedHttpField(HttpHeader.WWW_AUTHENTICATE, c)).toArray(HttpField[]::new);
        GatewayContext.Policies policies = new GatewayContext.Policies(
                g.accessLog().on() || g.accessLog().startTrace() ? new AccessLog(g.accessLog(), records.accessLog) : null,
                records.spans == null ? null : new Tracer(g.tracing().sampling(), records.spans), quotas, authenticator,
                CredentialFields.of(g.authentication()), challenges, g.locality().key(), g.locality().workingSetHeader(),
                new SlaCounts(config, sla));
        GatewayContext context = new GatewayContext(g.id(), names, queues, metrics, threads, clock, g.faultStatus(), 1,
                g.clients(), timer, loops, policies);
        for (int c = 0; c < names.length; c++) {
            context.deadlines[c] = config.classes().get(c).deadline();
        }
        HealthMonitor health = new HealthMonitor(queues, client, timer, config.servers(), g.health(), g.connectTimeout().toMillis());
        jms = JmsDispatcher.anyJms(config.servers()) ? new JmsDispatcher(context, config.bus(), config.servers(),
                g.serverTimeout().toMillis(), g.maxRequestBytes(), timer) : null;
        if (jms != null) {
            addBean(jms);
        }
        // Plain-HTTP servers get the direct leg, on the client listener's event loops (bench/results/PROFILE.md:
        // Jetty's HttpClient cost about twice the server side per request, on threads of its own); https
        // servers, and every server when -Dslagate.upstream=httpclient (a fallback and the benchmark's
        // comparison), go through HttpClient.
        pools = directPools(config, metrics, loops, queues);
        context.dispatcher(new Dispatcher(context, client, pools, config.servers(), g.serverTimeout().toMillis(), g.maxRequestBytes(),
                health, jms));
        handler = ingress.create(context, config);
    }

    /**
     * Jetty's HttpClient: the leg to https servers (to every server under {@code -Dslagate.upstream=httpclient}) and the
     * health checks. It follows no redirect, keeps no cookie and adds no User-Agent: the client's request goes as it came.
     */
    private static HttpClient httpClient(SlagateConfig config, QueuedThreadPool threads) {
        GatewaySettings g = config.gateway();
        HttpClient client;
        ClientConnector connector = new ClientConnector();
        connector.setExecutor(threads);
        connector.setConnectTimeout(g.connectTimeout());
        client = new HttpClient(new HttpClientTransportOverHTTP(connector));
        client.setExecutor(threads);
        client.setFollowRedirects(false);
        client.setHttpCookieStore(new HttpCookieStore.Empty());
        client.setUserAgentField(null);
        client.setConnectTimeout(g.connectTimeout().toMillis());
        client.setIdleTimeout(g.serverTimeout().toMillis() + 30_000);
        // The scheduler already caps each server at N_{g,s} ≤ N_s requests, so N_s connections per
        // server suffice; a larger pool only lengthens the scan for an idle connection. Round-robin
        // starts each scan after the last connection taken, which is rarely still busy (the default
        // FIRST strategy rescans the busy ones at the front every time: 36% of CPU in a profile).
        int maxConnections = config.servers().stream().mapToInt(ServerConfig::concurrency).max().orElse(1);
        client.setMaxConnectionsPerDestination(maxConnections);
        client.setMaxRequestsQueuedPerDestination(65536);
        client.getTransport().setConnectionPoolFactory(destination -> new RoundRobinConnectionPool(destination, maxConnections));
        return client;
    }

    /**
     * Per server, the direct leg's connection pool on the client listener's loops (their connect timeout set); null for
     * the servers reached through HttpClient.
     */
    private static ServerConnectionPool[] directPools(SlagateConfig config, GatewayMetrics metrics, LoopConnector loops,
                                                      QueueManager queues) {
        GatewaySettings g = config.gateway();
        ServerConnectionPool[] pools;
        boolean direct = !"httpclient".equals(System.getProperty("slagate.upstream"));
        if (!direct) {
            LoggerFactory.getLogger(ProxyPath.class).info(
                    "slagate.upstream=httpclient: every server is reached through Jetty's HttpClient");
        }
        loops.setConnectTimeout(g.connectTimeout().toMillis());
        pools = new ServerConnectionPool[config.servers().size()];
        for (int i = 0; i < pools.length; i++) {
            URI url = config.servers().get(i).url();
            if (direct && "http".equals(url.getScheme())) {
                ServerConfig sc = config.servers().get(i);
                int s = i;
                UpstreamSettings upstream = g.upstream();
                int loopCount = loops.loops();
                // the bound follows the cap the manager or a local limit puts in force: busy connections never exceed it
                IntSupplier bound = () -> upstream.maxConnections(queues.caps().effectiveCap(s), loopCount);
                pools[i] = new ServerConnectionPool(loops, url, g.serverTimeout().toMillis() + 30_000, upstream.reuse(sc.pool()), bound);
                metrics.servers().upstreamConnections(i, pools[i]);
            }
        }
        return pools;
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        // No content decoding (bodies pass untouched), no redirects, no authentication handling:
        // every response, 401 and 3xx included, goes back to the client as the server sent it.
        client.getContentDecoderFactories().clear();
        client.getProtocolHandlers().clear();
    }

    @Override
    protected void doStop() throws Exception {
        for (ServerConnectionPool p : pools) {
            if (p != null) {
                p.stop();
            }
        }
        super.doStop();
    }

    /** A new classification (rules, subscriptions, customer source) for the same classes, in force for the next request. */
    public void reclassify(SlagateConfig next) {
        handler.reclassify(next);
    }

    /**
     * Whether connections to server {@code i} are reused (plain-HTTP servers on the direct leg, once
     * the server proved it writes only when asked; see {@link ServerConnectionPool#reusesConnections}).
     */
    public boolean reusesConnections(int i) {
        return pools[i] != null && pools[i].reusesConnections();
    }

    /** Connections to server {@code i} given to an exchange of another event loop than their own (none, by design). */
    public long crossLoopHandOuts(int i) {
        return pools[i] == null ? 0 : pools[i].crossLoopHandOuts();
    }

    /** Server {@code i}'s connection counters, or null for a server not on the direct leg (https, JMS). */
    public GatewayMetrics.UpstreamConnections upstreamConnections(int i) {
        return pools[i];
    }

    /** Quiet checks started on server {@code i}'s connections (0 for servers not on the direct leg). */
    public long quietChecks(int i) {
        return pools[i] == null ? 0 : pools[i].quietChecks();
    }

    public Handler handler() {
        return handler;
    }

    public void stopAccepting() {
        handler.stopAccepting();
    }
}
