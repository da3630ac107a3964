package io.slagate.bus;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.BusCodec;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.BusAccount;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.activemq.ActiveMQConnection;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.command.ActiveMQTextMessage;
import org.apache.activemq.command.BrokerId;
import org.apache.activemq.command.BrokerInfo;
import org.junit.jupiter.api.Test;

/**
 * A bus client with a gateway account that sends an OpenWire BrokerInfo (ActiveMQ then takes it for a network
 * bridge and would keep the user id the client writes) delivers nothing the manager reads as another account:
 * sent before connecting, the connection is refused; sent after, its sends are refused; a plain client that
 * writes another user id has its own account stamped. On one broker and across a network of two.
 */
class BrokerInfoAttackTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String ADMIN_PW = "admin-secret-for-test";
    private static final String GW_PW = "gw-secret-for-test";
    private static final List<BusAccount> ACCOUNTS = List.of(
            new BusAccount("gw", "gateway", GW_PW),
            new BusAccount("rm", "resource-manager", "rm-secret-for-test"));

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private enum When { NEVER, BEFORE_CONNECTING, AFTER_CONNECTING }

    /** A gateway-account client that writes {@code forgedId} as the message's user id; true when its send was accepted. */
    private static boolean attack(String url, When brokerInfo, String forgedId, String marker) throws Exception {
        ActiveMQConnectionFactory f = new ActiveMQConnectionFactory(url);
        f.setUseAsyncSend(false); // the broker's answer to each send comes back
        ActiveMQConnection c = (ActiveMQConnection) f.createConnection("gw", GW_PW);
        try {
            BrokerInfo info = new BrokerInfo();
            info.setBrokerId(new BrokerId("forger-" + marker));
            info.setBrokerName("forger");
            info.setNetworkConnection(true);
            if (brokerInfo == When.BEFORE_CONNECTING) {
                c.getTransport().oneway(info); // before ConnectionInfo, which start() sends
            }
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            if (brokerInfo == When.AFTER_CONNECTING) {
                c.getTransport().oneway(info);
                c.syncSendPacket(new org.apache.activemq.command.ConnectionControl()); // the BrokerInfo is processed before what follows
            }
            MessageProducer p = s.createProducer(s.createTopic(Topics.HEARTBEAT_GATEWAY));
            ActiveMQTextMessage m = (ActiveMQTextMessage) s.createTextMessage(BusCodec.encode(
                    new HeartbeatMessage(BusMessage.SCHEMA, marker, "gateway", HeartbeatMessage.ALIVE, 1, 0)));
            m.setUserID(forgedId);
            p.send(m);
            return true;
        } catch (JMSException | SecurityException refused) {
            return false;
        } finally {
            try {
                c.close();
            } catch (JMSException ignored) {
                // a refused connection may already be closed
            }
        }
    }

    @Test
    void onOneBroker_aForgedSenderIsRefusedOrRestamped() throws Exception {
        int port = freePort();
        try (EmbeddedBroker broker = EmbeddedBroker.start("attack", "tcp://127.0.0.1:" + port, "admin", ADMIN_PW, ACCOUNTS)) {
            String url = "tcp://127.0.0.1:" + port;
            List<String> seen = new CopyOnWriteArrayList<>();
            ControlBus manager = new ControlBus(url, "rm", "rm-secret-for-test", "rm")
                    .subscribeWithSender(Topics.HEARTBEAT_GATEWAY, (m, s) -> seen.add(s + " " + ((HeartbeatMessage) m).componentId()))
                    .start();
            try {
                await().atMost(DEADLINE).until(manager::isConnected);
                assertFalse(attack(url, When.BEFORE_CONNECTING, "rm-forged", "before"), "a gateway account connecting as a bridge is refused");
                assertFalse(attack(url, When.AFTER_CONNECTING, "rm-forged", "after"), "a gateway account turned bridge has its sends refused");
                assertTrue(attack(url, When.NEVER, "rm-forged", "plain"), "a plain client's send is taken");
                await("and reaches the manager as the account it authenticated with").atMost(DEADLINE)
                        .until(() -> seen.contains("gw plain"));
                assertEquals(List.of("gw plain"), List.copyOf(seen), "nothing arrived as rm-forged, nothing of the bridge attempts arrived");
            } finally {
                manager.close();
            }
        }
    }

    @Test
    void acrossANetworkOfTwo_theBridgeKeepsTheRealSender_andTheAttackDeliversNothingForged() throws Exception {
        int portA = freePort();
        int portB = freePort();
        try (EmbeddedBroker a = EmbeddedBroker.start("attack-a", "tcp://127.0.0.1:" + portA, "admin", ADMIN_PW, ACCOUNTS, null,
                List.of("tcp://127.0.0.1:" + portB));
             EmbeddedBroker b = EmbeddedBroker.start("attack-b", "tcp://127.0.0.1:" + portB, "admin", ADMIN_PW, ACCOUNTS, null,
                     List.of("tcp://127.0.0.1:" + portA))) {
            List<String> seen = new CopyOnWriteArrayList<>();
            ControlBus manager = new ControlBus("tcp://127.0.0.1:" + portB, "rm", "rm-secret-for-test", "rm-on-b")
                    .subscribeWithSender(Topics.HEARTBEAT_GATEWAY, (m, s) -> seen.add(s + " " + ((HeartbeatMessage) m).componentId()))
                    .start();
            try {
                await().atMost(DEADLINE).until(manager::isConnected);
                String urlA = "tcp://127.0.0.1:" + portA;
                await("a plain gateway message sent on A reaches the manager on B as gw (the bridges are up)").atMost(DEADLINE)
                        .until(() -> attack(urlA, When.NEVER, "rm-forged", "plain") && seen.contains("gw plain"));
                assertFalse(attack(urlA, When.BEFORE_CONNECTING, "rm-forged", "before"));
                assertFalse(attack(urlA, When.AFTER_CONNECTING, "rm-forged", "after"));
                assertTrue(attack(urlA, When.NEVER, "rm-forged", "last"));
                await().atMost(DEADLINE).until(() -> seen.contains("gw last"));
                assertTrue(seen.stream().allMatch(s -> s.startsWith("gw ") && (s.endsWith(" plain") || s.endsWith(" last"))),
                        "every message the manager read came from the gw account, none from the bridge attempts: " + seen);
            } finally {
                manager.close();
            }
        }
    }
}
