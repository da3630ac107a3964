package io.slagate.gateway.listener.connector;

import io.slagate.config.ClientPolicy;
import io.slagate.config.GatewaySettings;
import io.slagate.config.TlsSettings;
import io.slagate.gateway.control.DirectMemoryBudget;
import io.slagate.gateway.listener.jetty.JettyConnectionFactory;
import io.slagate.gateway.loop.LoopConnector;
import io.slagate.gateway.listener.relay.RelayConnectionFactory;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The gateway's two listeners on one Jetty server: the client listener ({@code gateway.listen},
 * HTTP/1.1 or HTTPS, on {@code gateway.loops} event loops; Jetty's HTTP/1.1 or, with
 * {@code gateway.listener: relay}, the gateway's own) and the admin listener. Neither says
 * what it is (no Server, X-Powered-By or Date of its own: the server's Date is relayed).
 */
public final class Listeners {
    private final Server server;
    private final HttpConfiguration http = new HttpConfiguration();

    public Listeners(Server server) {
        this.server = server;
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setSendDateHeader(false); // the server's Date is relayed; a second one would be a duplicate
        // room for any head the upstream parser accepts from a server, plus the gateway's own fields
        http.setResponseHeaderSize(64 * 1024);
    }

    public LoopConnector client(GatewaySettings g) {
        int loops = g.loops() > 0 ? g.loops() : LoopConnector.defaultLoops();
        if (relay(g)) {
            RelayConnectionFactory relay = new RelayConnectionFactory(new HttpConfiguration(http), g.clients().requestBufferBytes(),
                    g.maxRequestBytes());
            return listening(new LoopConnector(server, loops, relay), g.listen().host(), g.listen().port(), "gateway");
        }
        // Jetty's per-connection cache of field lines costs more than it saves: a trie walk per line, hit or miss, against
        // the strings of a few fields (bench/results/profile-ab-header-cache.md)
        HttpConfiguration clients = new HttpConfiguration(http);
        clients.setHeaderCacheSize(0);
        return g.tls() == null ? loopConnector(clients, g.listen().host(), g.listen().port(), g.clients().requestBufferBytes(), loops)
                : tlsConnector(clients, g.tls(), g.listen().host(), g.listen().port(), g.clients().requestBufferBytes(), loops);
    }

    /** Whether {@code g}'s clients are read by the relay listener (configured, and plain HTTP: it serves no TLS). */
    public static boolean relay(GatewaySettings g) {
        return g.clients().relayListener() && g.tls() == null;
    }

    /**
     * Why {@code g}'s client connections' read buffers may not fit the JVM's direct memory, or null. Jetty's listener
     * reads into direct memory; the relay listener into the heap.
     */
    public static String directMemoryProblem(GatewaySettings g) {
        return relay(g) ? null : DirectMemoryBudget.problem(g.maxConnections(), g.clients().requestBufferBytes(), DirectMemoryBudget.limit());
    }

    /** The client listener's own counters: hand-offs between loops, and (relay listener) answers out of step with their length. */
    public static void meters(MeterRegistry registry, String gatewayId, LoopConnector clients) {
        FunctionCounter.builder("slagate.loops.handoffs", clients, LoopConnector::crossLoopTasks).tag("gateway", gatewayId)
                .description("Tasks handed to an event loop from another thread (an admission by another loop's request, a timer)")
                .register(registry);
        RelayConnectionFactory relay = clients.getConnectionFactory(RelayConnectionFactory.class);
        if (relay != null) {
            FunctionCounter.builder("slagate.answers.length.mismatches", relay, RelayConnectionFactory::lengthMismatches)
                    .tag("gateway", gatewayId).description("Answers whose bytes did not match the Content-Length their head"
                            + " announced: the exchange failed and the client connection was closed").register(registry);
        }
    }

    public ServerConnector admin(GatewaySettings g) {
        return connector(http, g.admin().host(), g.admin().port(), "admin", ClientPolicy.DEFAULTS.requestBufferBytes());
    }

    /** The client listener: {@code loops} event loops, each running both legs of its exchanges. */
    private LoopConnector loopConnector(HttpConfiguration http, String host, int port, int inputBuffer,
                                                                 int loops) {
        return listening(new LoopConnector(server, loops, h1(http, inputBuffer)), host, port, "gateway");
    }

    private ServerConnector connector(HttpConfiguration http, String host, int port, String name, int inputBuffer) {
        return listening(new ServerConnector(server, h1(http, inputBuffer)), host, port, name);
    }

    /** HTTP/1.1 on a copy of {@code http}: the factory's input buffer size is its own, and the admin listener's would overwrite it. */
    private static HttpConnectionFactory h1(HttpConfiguration http, int inputBuffer) {
        HttpConnectionFactory h1 = new JettyConnectionFactory(new HttpConfiguration(http));
        h1.setInputBufferSize(inputBuffer);
        return h1;
    }

    private static <C extends ServerConnector> C listening(C c, String host, int port, String name) {
        c.setHost(host);
        c.setPort(port);
        c.setName(name);
        c.setIdleTimeout(Duration.ofSeconds(60).toMillis());
        return c;
    }

    /** HTTPS on the client listener: the same HTTP handling behind TLS (the request's scheme becomes https). */
    private LoopConnector tlsConnector(HttpConfiguration http, TlsSettings tls,
                                                                String host, int port, int inputBuffer, int loops) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(tls.keyStore());
        ssl.setKeyStoreType(tls.type());
        ssl.setKeyStorePassword(tls.password());
        if (tls.trustStore() != null) {
            // asked for, not required: a client without one gets the authentication's answer (401, or anonymous), not a failed handshake
            ssl.setTrustStorePath(tls.trustStore());
            ssl.setTrustStoreType(tls.trustStoreType());
            if (tls.trustStorePassword() != null) {
                ssl.setTrustStorePassword(tls.trustStorePassword());
            }
            ssl.setWantClientAuth(true);
        }
        server.addBean(new TlsStoreWatch(ssl, tls.keyStore(), tls.trustStore()));
        HttpConfiguration https = new HttpConfiguration(http);
        https.addCustomizer(new SecureRequestCustomizer());
        return listening(new LoopConnector(server, loops,
                new SslConnectionFactory(ssl, "http/1.1"), h1(https, inputBuffer)), host, port, "gateway");
    }
}
