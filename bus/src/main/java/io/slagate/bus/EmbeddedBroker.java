package io.slagate.bus;

import io.slagate.bus.message.Topics;
import io.slagate.config.BusAccount;
import io.slagate.config.BusTls;
import io.slagate.config.ConfigCheck;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.activemq.broker.BrokerPlugin;
import org.apache.activemq.broker.BrokerService;
import org.apache.activemq.broker.TransportConnector;
import org.apache.activemq.command.ActiveMQDestination;
import org.apache.activemq.command.ActiveMQTopic;
import org.apache.activemq.network.NetworkConnector;
import org.apache.activemq.filter.DestinationMapEntry;
import org.apache.activemq.security.AuthenticationUser;
import org.apache.activemq.security.AuthorizationEntry;
import org.apache.activemq.security.AuthorizationPlugin;
import org.apache.activemq.security.DefaultAuthorizationMap;
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
        return start(name, listen, user, password, List.of());
    }

    /**
     * Starts a broker whose accounts carry roles: each may read every slagate topic, and publish
     * only what its role publishes ({@link #WRITERS}). {@code user}, when set, is an extra account
     * with the admin role (the embedded system's components share it).
     */
    public static EmbeddedBroker start(String name, String listen, String user, String password,
                                       List<BusAccount> accounts) throws Exception {
        return start(name, listen, user, password, accounts, null);
    }

    /**
     * As above, with TLS: an {@code ssl://} listener presents the certificate of {@code tls.keyStore}.
     */
    public static EmbeddedBroker start(String name, String listen, String user, String password,
                                       List<BusAccount> accounts, BusTls tls) throws Exception {
        return start(name, listen, user, password, accounts, tls, List.of());
    }

    /**
     * As above, in a network of brokers: every message on a slagate topic is forwarded to each peer in
     * {@code network} (e.g. {@code tcp://broker2:61616}), over a bridge that connects as {@code user} (the admin
     * account, the same on every broker of the network). Each peer forwards its own to this one when it lists this
     * one: clients on either broker see every message once, and a client on a {@code failover:(a,b)} URL moves to the
     * other broker when one is lost. The bridges keep each message's sender account (JMSXUserID), so identities
     * hold across brokers. A bridge to a peer that is down retries every second.
     */
    public static EmbeddedBroker start(String name, String listen, String user, String password,
                                       List<BusAccount> accounts, BusTls tls, List<String> network) throws Exception {
        BrokerService b = new BrokerService();
        if (tls != null && tls.keyStore() != null) {
            b.setSslContext(BusTlsContext.brokerContext(tls));
        }
        b.setBrokerName(name);
        b.setPersistent(false);
        b.setUseJmx(false);
        b.setUseShutdownHook(false); // the launcher stops components in order
        b.setAdvisorySupport(false); // nothing here consumes advisories; they double the topic traffic
        b.getSystemUsage().getMemoryUsage().setLimit(64L * 1024 * 1024);
        // every message carries the user its connection authenticated as (JMSXUserID), set by the
        // broker over whatever the sender wrote: receivers bind identities to it and audit it
        b.setPopulateJMSXUserID(true);
        b.setUseAuthenticatedPrincipalForJMSXUserID(true);
        List<AuthenticationUser> users = new ArrayList<>();
        if (user != null) {
            users.add(new AuthenticationUser(user, password == null ? "" : password, "admin"));
        }
        for (BusAccount a : accounts) {
            users.add(new AuthenticationUser(a.user(), a.password() == null ? "" : a.password(), a.role()));
        }
        if (!users.isEmpty()) {
            SimpleAuthenticationPlugin auth = new SimpleAuthenticationPlugin(users);
            auth.setAnonymousAccessAllowed(false);
            // the stamp first: plugins wrap in order, so it runs inside authentication and knows the account
            SenderStamp stamp = new SenderStamp(user);
            b.setPlugins(accounts.isEmpty() ? new BrokerPlugin[] {stamp, auth}
                    : new BrokerPlugin[] {stamp, auth, new AuthorizationPlugin(authorization())});
        }
        TransportConnector tcp = null;
        if (listen != null && !listen.isEmpty()) {
            tcp = b.addConnector(new URI(withFrameCap(listen)));
        }
        bridges(b, name, user, password, network);
        b.start();
        if (!b.waitUntilStarted(30_000)) {
            throw new IllegalStateException("broker " + name + " did not start within 30 s");
        }
        if (tcp != null && accounts.isEmpty()) {
            LOG.warn(ConfigCheck.SINGLE_BUS_ACCOUNT);
        }
        EmbeddedBroker eb = new EmbeddedBroker(b, name, tcp);
        LOG.info("embedded broker {} started (in-VM {}{})", name, eb.vmUrl(),
                tcp == null ? "" : ", TCP " + eb.tcpUrl());
        return eb;
    }

    /** A static, one-way bridge to each peer of {@code network}, connecting as the admin account {@code user}. */
    private static void bridges(BrokerService b, String name, String user, String password, List<String> network) throws Exception {
        for (int i = 0; i < network.size(); i++) {
            if (user == null) {
                throw new IllegalArgumentException("a network of brokers needs the admin user the bridges connect with");
            }
            NetworkConnector nc = b.addNetworkConnector(
                    "static:(" + network.get(i) + ")?initialReconnectDelay=200&maxReconnectDelay=1000&useExponentialBackOff=false");
            nc.setName(name + "-to-" + i);
            nc.setUserName(user);
            nc.setPassword(password == null ? "" : password);
            // no advisories here (they would double the traffic): forward every slagate topic, whoever listens
            nc.setStaticBridge(true);
            nc.setStaticallyIncludedDestinations(List.<ActiveMQDestination>of(new ActiveMQTopic("slagate.>")));
            nc.setNetworkTTL(1); // a message crosses one bridge: none comes back, none loops
            nc.setDuplex(false);
            nc.setUseBrokerNameAsIdSees(false); // (sic) brokers of one network may share a name: each process calls its own "slagate"
        }
    }

    /** Topic → the roles that may publish on it (every role may read every topic). */
    static final Map<String, String> WRITERS = Map.of(
            Topics.STATS, "gateway,admin",
            Topics.ALLOCATION, "resource-manager,admin",
            Topics.ALLOCATION_GATEWAYS, "resource-manager,admin",
            Topics.DECISION, "resource-manager,admin",
            Topics.HEARTBEAT_GATEWAY, "gateway,admin",
            Topics.HEARTBEAT_RESOURCE_MANAGER, "resource-manager,admin",
            Topics.CONTROL, "console,admin",
            Topics.CONFIG, "console,admin",
            Topics.CREDENTIALS, "console,admin");

    /**
     * Topic → the roles that may read it, where not every role may: the customers' credential files (bcrypt hashes and
     * key digests) are for the gateways that apply them and the consoles that keep them, not for a resource manager.
     */
    static final Map<String, String> READERS = Map.of(Topics.CREDENTIALS, "gateway,console,admin");

    private static DefaultAuthorizationMap authorization() throws Exception {
        String all = String.join(",", BusAccount.ROLES);
        List<DestinationMapEntry> entries = new ArrayList<>();
        for (Map.Entry<String, String> w : WRITERS.entrySet()) {
            AuthorizationEntry e = new AuthorizationEntry();
            e.setTopic(w.getKey());
            e.setRead(READERS.getOrDefault(w.getKey(), all));
            e.setWrite(w.getValue());
            e.setAdmin(all);
            entries.add(e);
        }
        // every slagate topic at once: what a network bridge (the admin account) subscribes to, to forward them all;
        // a topic without its own entry is the admin's alone
        AuthorizationEntry everything = new AuthorizationEntry();
        everything.setTopic("slagate.>");
        everything.setRead("admin"); // read is granted topic by topic above: a wildcard's would add to each topic's
        everything.setWrite("admin");
        everything.setAdmin(all);
        entries.add(everything);
        AuthorizationEntry advisory = new AuthorizationEntry();
        advisory.setTopic("ActiveMQ.Advisory.>");
        advisory.setRead(all);
        advisory.setWrite(all);
        advisory.setAdmin(all);
        entries.add(advisory);
        return new DefaultAuthorizationMap(entries);
    }

    /**
     * A network listener refuses frames over {@link io.slagate.bus.message.Topics#MAX_MESSAGE_CHARS}
     * (plus room for headers) unless the URL sets its own cap: a 30 MB message never reaches a receiver.
     */
    static String withFrameCap(String listen) {
        if (listen.contains("maxFrameSize")) {
            return listen;
        }
        long cap = 4L * Topics.MAX_MESSAGE_CHARS + 64 * 1024; // UTF-8 at worst, and the frame's headers
        return listen + (listen.contains("?") ? "&" : "?") + "wireFormat.maxFrameSize=" + cap;
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
