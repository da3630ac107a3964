package io.slagate.bus;

import java.net.URI;
import java.util.List;
import org.apache.activemq.broker.BrokerPlugin;
import org.apache.activemq.broker.BrokerService;
import org.apache.activemq.broker.TransportConnector;
import org.apache.activemq.security.AuthenticationUser;
import org.apache.activemq.security.SimpleAuthenticationPlugin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ActiveMQ broker of the single-JVM default: non-persistent (bus messages are soft state, each
 * one superseded by the next), no JMX, reachable in-VM as {@code vm://NAME} and, when
 * {@code listen} is set, over TCP by other processes. When a user is given, every connection,
 * in-VM ones included, must authenticate.
 */
public final class EmbeddedBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedBroker.class);

    private final BrokerService broker;
    private final String name;
    private final TransportConnector tcp;

    private EmbeddedBroker(BrokerService broker, String name, TransportConnector tcp) {
        this.broker = broker;
        this.name = name;
        this.tcp = tcp;
    }

    /**
     * Starts a broker.
     *
     * @param name     the in-VM name ({@code vm://name})
     * @param listen   a TCP connector URI such as {@code tcp://127.0.0.1:61616} (port 0: any free one), or empty
     * @param user     the one user allowed to connect, or null for anonymous access
     * @param password that user's password
     */
    public static EmbeddedBroker start(String name, String listen, String user, String password) throws Exception {
        BrokerService b = new BrokerService();
        b.setBrokerName(name);
        b.setPersistent(false);
        b.setUseJmx(false);
        b.setUseShutdownHook(false); // the launcher stops components in order
        b.setAdvisorySupport(false); // nothing here consumes advisories; they double the topic traffic
        b.getSystemUsage().getMemoryUsage().setLimit(64L * 1024 * 1024);
        if (user != null) {
            SimpleAuthenticationPlugin auth = new SimpleAuthenticationPlugin(
                    List.of(new AuthenticationUser(user, password == null ? "" : password, "slagate")));
            auth.setAnonymousAccessAllowed(false);
            b.setPlugins(new BrokerPlugin[] {auth});
        }
        TransportConnector tcp = null;
        if (listen != null && !listen.isEmpty()) {
            tcp = b.addConnector(new URI(listen));
        }
        b.start();
        if (!b.waitUntilStarted(30_000)) {
            throw new IllegalStateException("broker " + name + " did not start within 30 s");
        }
        EmbeddedBroker eb = new EmbeddedBroker(b, name, tcp);
        LOG.info("embedded broker {} started (in-VM {}{})", name, eb.vmUrl(),
                tcp == null ? "" : ", TCP " + eb.tcpUrl());
        return eb;
    }

    /** The in-VM URL; {@code create=false} so that a client never starts a second, persistent broker by accident. */
    public String vmUrl() {
        return "vm://" + name + "?create=false";
    }

    /** The TCP URL other processes use, with the port actually bound; null without a TCP connector. */
    public String tcpUrl() {
        if (tcp == null) {
            return null;
        }
        try {
            URI u = tcp.getConnectUri();
            return "tcp://" + u.getHost() + ":" + u.getPort();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws Exception {
        broker.stop();
        broker.waitUntilStopped();
        LOG.info("embedded broker {} stopped", name);
    }
}
