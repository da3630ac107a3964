package io.slagate.bus;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.activemq.broker.Broker;
import org.apache.activemq.broker.BrokerFilter;
import org.apache.activemq.broker.BrokerPlugin;
import org.apache.activemq.broker.ConnectionContext;
import org.apache.activemq.broker.ProducerBrokerExchange;
import org.apache.activemq.command.ConnectionInfo;
import org.apache.activemq.command.Message;
import org.apache.activemq.security.SecurityContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every message carries the account its connection authenticated as, whatever the sender wrote. ActiveMQ
 * keeps a message's own user id when its connection is a network bridge, and takes any connection that sends
 * an OpenWire {@code BrokerInfo} for one, whatever its account. Here only the bridge account (the one the
 * network of brokers connects with) may be a network connection: any other is refused when it connects as
 * one, refused a send when it turns into one after connecting, and otherwise has its own account stamped on
 * every message. Installed inside the authentication plugin, so the account is known when it runs.
 */
final class SenderStamp implements BrokerPlugin {
    private static final Logger LOG = LoggerFactory.getLogger(SenderStamp.class);

    private final String bridgeAccount;
    private final AtomicLong refused = new AtomicLong();

    /** @param bridgeAccount the account the network bridges connect with (null: none may bridge) */
    SenderStamp(String bridgeAccount) {
        this.bridgeAccount = bridgeAccount;
    }

    /** Connections and sends refused for claiming to be a bridge from another account. */
    long refused() {
        return refused.get();
    }

    @Override
    public Broker installPlugin(Broker next) {
        return new BrokerFilter(next) {
            @Override
            public void addConnection(ConnectionContext context, ConnectionInfo info) throws Exception {
                if (context.isNetworkConnection() && !bridge(context)) {
                    throw refusal(context, "connected as a network bridge");
                }
                super.addConnection(context, info);
            }

            @Override
            public void send(ProducerBrokerExchange exchange, Message message) throws Exception {
                ConnectionContext context = exchange.getConnectionContext();
                if (!bridge(context)) {
                    if (context.isNetworkConnection()) {
                        throw refusal(context, "turned into a network bridge");
                    }
                    String account = account(context);
                    if (account != null) {
                        message.setUserID(account);
                    }
                }
                super.send(exchange, message);
            }
        };
    }

    private boolean bridge(ConnectionContext context) {
        return bridgeAccount != null && bridgeAccount.equals(account(context)) || context.isInRecoveryMode();
    }

    private static String account(ConnectionContext context) {
        SecurityContext s = context.getSecurityContext();
        return s == null ? null : s.getUserName();
    }

    private SecurityException refusal(ConnectionContext context, String what) {
        long n = refused.incrementAndGet();
        String why = "bus account " + account(context) + " " + what + "; only " + (bridgeAccount == null ? "no account"
                : "account " + bridgeAccount) + " may bridge brokers";
        LOG.warn("refused: {} ({} refused so far)", why, n);
        return new SecurityException(why);
    }
}
