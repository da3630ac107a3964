package io.slagate.bus;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.CredentialsMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.BusAccount;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Broker accounts with roles: a gateway's account cannot publish allocations; a resource manager's can. */
class AuthorizationTest {
    private static AllocationMessage alloc(String manager, long version) {
        return new AllocationMessage(BusMessage.SCHEMA, version, 0, manager, Map.of());
    }

    @Test
    void onlyTheResourceManagerRole_publishesAllocations() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start("authz", "", null, null, List.of(
                new BusAccount("gw", "gateway", "gw-secret-for-test"),
                new BusAccount("rm", "resource-manager", "rm-secret-for-test")))) {
            List<BusMessage> got = new CopyOnWriteArrayList<>();
            ControlBus reader = new ControlBus(broker.vmUrl(), "gw", "gw-secret-for-test", "reader")
                    .subscribe(Topics.ALLOCATION, got::add).subscribe(Topics.allocationFor("gw1"), got::add).start();
            ControlBus gateway = new ControlBus(broker.vmUrl(), "gw", "gw-secret-for-test", "gateway").start();
            ControlBus manager = new ControlBus(broker.vmUrl(), "rm", "rm-secret-for-test", "manager").start();
            try {
                await().atMost(Duration.ofSeconds(20)).until(() -> reader.isConnected() && gateway.isConnected() && manager.isConnected());
                long droppedBefore = gateway.dropped();
                gateway.publish(Topics.ALLOCATION, alloc("forged", 99));
                gateway.publish(Topics.allocationFor("gw1"), alloc("forged", 99));
                await("the forged allocations are refused at the broker").atMost(Duration.ofSeconds(20))
                        .until(() -> gateway.dropped() >= droppedBefore + 2);
                await("the manager's allocation goes through").atMost(Duration.ofSeconds(20)).until(() -> {
                    manager.publish(Topics.ALLOCATION, alloc("rm", 1));
                    manager.publish(Topics.allocationFor("gw1"), alloc("rm-to-gw1", 1));
                    return got.stream().anyMatch(m -> ((AllocationMessage) m).managerId().equals("rm"))
                            && got.stream().anyMatch(m -> ((AllocationMessage) m).managerId().equals("rm-to-gw1"));
                });
                assertFalse(got.stream().anyMatch(m -> ((AllocationMessage) m).managerId().equals("forged")), "never delivered");
                assertTrue(gateway.isConnected(), "a refused publish does not cost the connection");
            } finally {
                reader.close();
                gateway.close();
                manager.close();
            }
        }
    }

    /**
     * The customers' credential files travel on slagate.credentials: a gateway account (or any but the console and
     * admin roles) that publishes there to grant itself a customer is refused at the broker; the console's goes through.
     */
    @Test
    void onlyTheConsoleRole_publishesCredentials() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start("authz-credentials", "", null, null, List.of(
                new BusAccount("gw", "gateway", "gw-secret-for-test"),
                new BusAccount("rm", "resource-manager", "rm-secret-for-test"),
                new BusAccount("console", "console", "console-secret-for-test")))) {
            List<CredentialsMessage> got = new CopyOnWriteArrayList<>();
            ControlBus reader = new ControlBus(broker.vmUrl(), "gw", "gw-secret-for-test", "reader")
                    .subscribe(Topics.CREDENTIALS, m -> got.add((CredentialsMessage) m)).start();
            ControlBus gateway = new ControlBus(broker.vmUrl(), "gw", "gw-secret-for-test", "gateway").start();
            ControlBus manager = new ControlBus(broker.vmUrl(), "rm", "rm-secret-for-test", "manager").start();
            ControlBus console = new ControlBus(broker.vmUrl(), "console", "console-secret-for-test", "console").start();
            try {
                await().atMost(Duration.ofSeconds(20)).until(() -> reader.isConnected() && gateway.isConnected()
                        && manager.isConnected() && console.isConnected());
                long gwDropped = gateway.dropped();
                long rmDropped = manager.dropped();
                gateway.publish(Topics.CREDENTIALS, credentials("forged-by-gw"));
                manager.publish(Topics.CREDENTIALS, credentials("forged-by-rm"));
                await("refused at the broker").atMost(Duration.ofSeconds(20))
                        .until(() -> gateway.dropped() > gwDropped && manager.dropped() > rmDropped);
                await("the console's goes through").atMost(Duration.ofSeconds(20)).until(() -> {
                    console.publish(Topics.CREDENTIALS, credentials("console"));
                    return got.stream().anyMatch(m -> m.user().equals("console"));
                });
                assertFalse(got.stream().anyMatch(m -> m.user().startsWith("forged")), "never delivered: " + got);
            } finally {
                reader.close();
                gateway.close();
                manager.close();
                console.close();
            }
        }
    }

    private static CredentialsMessage credentials(String user) {
        return new CredentialsMessage(BusMessage.SCHEMA, 1, "mallory:$2y$04$xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n", null, user, 0);
    }

    /** The credential files (every bcrypt hash and key digest) are read by the gateway and console roles only. */
    @Test
    void onlyTheGatewayAndConsoleRoles_readCredentials() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start("authz-read", "", null, null, List.of(
                new BusAccount("gw", "gateway", "gw-secret-for-test"),
                new BusAccount("rm", "resource-manager", "rm-secret-for-test"),
                new BusAccount("console", "console", "console-secret-for-test")))) {
            assertTrue(canRead(broker, "gw", "gw-secret-for-test", Topics.CREDENTIALS), "a gateway applies them");
            assertTrue(canRead(broker, "console", "console-secret-for-test", Topics.CREDENTIALS), "a console keeps them");
            assertFalse(canRead(broker, "rm", "rm-secret-for-test", Topics.CREDENTIALS), "a resource manager has no use for them");
            assertFalse(canRead(broker, "rm", "rm-secret-for-test", "slagate.>"), "nor through the wildcard");
            assertTrue(canRead(broker, "rm", "rm-secret-for-test", Topics.STATS), "every role reads the rest");
            assertTrue(canRead(broker, "gw", "gw-secret-for-test", Topics.allocationFor("gw1")));
        }
    }

    private static boolean canRead(EmbeddedBroker broker, String user, String password, String topic) throws Exception {
        jakarta.jms.Connection c = new org.apache.activemq.ActiveMQConnectionFactory(user, password, broker.vmUrl()).createConnection();
        try {
            c.start();
            jakarta.jms.Session s = c.createSession(false, jakarta.jms.Session.AUTO_ACKNOWLEDGE);
            s.createConsumer(s.createTopic(topic)).close();
            return true;
        } catch (jakarta.jms.JMSSecurityException refused) {
            return false;
        } finally {
            c.close();
        }
    }
}
