package io.slagate.bus;

import io.slagate.config.BusTls;
import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.ActiveMQSslConnectionFactory;

/** How a slagate process reaches a broker: the URL it really uses, and a connection factory with its credentials and TLS. */
public final class BusConnections {
    private BusConnections() {
    }

    /**
     * In-VM URLs get {@code create=false} (never start a stray broker); plain TCP/SSL URLs are
     * wrapped in failover so that a lost broker is reconnected with subscriptions restored; a
     * failover URL gets a send timeout unless it has one, so that a publish cannot block forever.
     */
    public static String effectiveUrl(String url) {
        if (url.startsWith("vm:")) {
            return url.contains("create=") ? url : url + (url.contains("?") ? "&" : "?") + "create=false";
        }
        String failover = url.startsWith("failover:") ? url
                : "failover:(" + url + ")?initialReconnectDelay=100&maxReconnectDelay=2000&startupMaxReconnectAttempts=1";
        // an operator's own failover: URL keeps its settings, but gets the bus's reconnect pace where it names none
        // (ActiveMQ's default backoff grows to 30 s: a broker back after a restart was found 17-20 s later)
        for (String option : new String[] {"initialReconnectDelay=100", "maxReconnectDelay=2000", "timeout=3000"}) {
            String key = option.substring(0, option.indexOf('=') + 1);
            if (!failover.contains(key)) {
                failover += (failover.contains(")?") ? "&" : "?") + option;
            }
        }
        return failover;
    }

    /**
     * A connection factory for {@code url} (as given: see {@link #effectiveUrl}) with these credentials;
     * with a trust store, an SSL one that trusts its certificates. Shared with the gateway's SOAP/JMS dispatch.
     */
    public static ActiveMQConnectionFactory connectionFactory(String url, String user, String password,
                                                              BusTls tls) throws Exception {
        if (tls == null || tls.trustStore() == null && tls.keyStore() == null) {
            return new ActiveMQConnectionFactory(user, password, url);
        }
        ActiveMQSslConnectionFactory f = new ActiveMQSslConnectionFactory(url);
        f.setUserName(user);
        f.setPassword(password);
        TrustManager[] trust = null; // null: the JDK's default trust
        if (tls.trustStore() != null) {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(
                    TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(BusTlsContext.load(tls.trustStore(), tls.trustStoreType(), tls.trustStorePassword()));
            trust = tmf.getTrustManagers();
        }
        KeyManager[] keys = null; // a client certificate, for brokers that require one
        if (tls.keyStore() != null) {
            keys = BusTlsContext.keyManagers(tls);
        }
        f.setKeyAndTrustManagers(keys, trust, null);
        return f;
    }
}
