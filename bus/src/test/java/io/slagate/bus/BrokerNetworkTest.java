package io.slagate.bus;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.BusAccount;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Two brokers in a network, each listing the other: a message published on one reaches subscribers on the other
 * once, with its sender's account; the roles are enforced where a message enters; and a client on a failover URL of
 * both moves to the survivor when its broker is lost.
 */
class BrokerNetworkTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String ADMIN_PW = "admin-secret-for-test";
    private static final List<BusAccount> ACCOUNTS = List.of(
            new BusAccount("gw", "gateway", "gw-secret-for-test"),
            new BusAccount("rm", "resource-manager", "rm-secret-for-test"));

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static EmbeddedBroker broker(String name, int port, int peer) throws Exception {
        return EmbeddedBroker.start(name, "tcp://127.0.0.1:" + port, "admin", ADMIN_PW, ACCOUNTS, null,
                List.of("tcp://127.0.0.1:" + peer));
    }

    private static HeartbeatMessage beat(String id, long n) {
        return new HeartbeatMessage(BusMessage.SCHEMA, id, "gateway", HeartbeatMessage.ALIVE, n, 0);
    }

    @Test
    void messagesCrossTheNetworkOnceWithTheirSender_andAFailoverClientMovesToTheSurvivor() throws Exception {
        int portA = freePort();
        int portB = freePort();
        EmbeddedBroker a = broker("net-a", portA, portB);
        try (EmbeddedBroker b = broker("net-b", portB, portA)) {
            String urlA = "tcp://127.0.0.1:" + portA;
            String urlB = "tcp://127.0.0.1:" + portB;
            List<String> managerSaw = new CopyOnWriteArrayList<>(); // "sender id" of every heartbeat the manager on A got
            List<String> gatewaySaw = new CopyOnWriteArrayList<>(); // "sender manager" of every allocation the gateway on B got
            List<String> movedSaw = new CopyOnWriteArrayList<>();
            ControlBus manager = new ControlBus(urlA, "rm", "rm-secret-for-test", "rm-on-a")
                    .subscribeWithSender(Topics.HEARTBEAT_GATEWAY, (m, s) -> managerSaw.add(s + " " + ((HeartbeatMessage) m).componentId()))
                    .start();
            ControlBus gateway = new ControlBus(urlB, "gw", "gw-secret-for-test", "gw-on-b")
                    .subscribeWithSender(Topics.allocationFor("gw1"), (m, s) -> gatewaySaw.add(s + " " + ((AllocationMessage) m).managerId()))
                    .start();
            // on both, A first: it starts on A and must move to B when A is lost
            ControlBus moving = new ControlBus("failover:(" + urlA + "," + urlB + ")?randomize=false", "gw", "gw-secret-for-test",
                    "gw-moving").subscribeWithSender(Topics.HEARTBEAT_GATEWAY, (m, s) -> movedSaw.add(((HeartbeatMessage) m).componentId()))
                    .start();
            try {
                await().atMost(DEADLINE).until(() -> manager.isConnected() && gateway.isConnected() && moving.isConnected());
                long[] n = {0};
                await("a gateway's heartbeat on B reaches the manager on A, with the gateway's account").atMost(DEADLINE).until(() -> {
                    gateway.publish(Topics.HEARTBEAT_GATEWAY, beat("gw1", n[0]++));
                    return managerSaw.contains("gw gw1");
                });
                await("an allocation on A reaches the gateway on B, with the manager's account").atMost(DEADLINE).until(() -> {
                    manager.publish(Topics.allocationFor("gw1"), new AllocationMessage(BusMessage.SCHEMA, 1, 0, "rm-a", Map.of()));
                    return gatewaySaw.contains("rm rm-a");
                });
                // a gateway account's allocation is refused where it enters, and never forwarded
                long dropped = gateway.dropped();
                gateway.publish(Topics.allocationFor("gw1"), new AllocationMessage(BusMessage.SCHEMA, 9, 0, "forged", Map.of()));
                await().atMost(DEADLINE).until(() -> gateway.dropped() > dropped);
                // once: one heartbeat published now arrives once on the other broker (no loop back through the bridges)
                int before = managerSaw.size();
                gateway.publish(Topics.HEARTBEAT_GATEWAY, beat("once", 0));
                await().atMost(DEADLINE).until(() -> managerSaw.contains("gw once"));
                manager.publish(Topics.allocationFor("gw1"), new AllocationMessage(BusMessage.SCHEMA, 2, 0, "after", Map.of()));
                await().atMost(DEADLINE).until(() -> gatewaySaw.contains("rm after"));
                assertEquals(1, managerSaw.subList(before, managerSaw.size()).stream().filter("gw once"::equals).count());
                assertFalse(gatewaySaw.contains("gw forged") || gatewaySaw.contains("null forged"), "never delivered: " + gatewaySaw);

                long connects = moving.connects();
                a.close(); // broker A is lost
                await("the failover client moves to B").atMost(DEADLINE).until(() -> moving.isConnected() && moving.connects() > connects);
                await("and hears what is published on B").atMost(DEADLINE).until(() -> {
                    gateway.publish(Topics.HEARTBEAT_GATEWAY, beat("after-loss", 0));
                    return movedSaw.contains("after-loss");
                });
                assertTrue(gateway.isConnected(), "B's own clients are untouched");
            } finally {
                manager.close();
                gateway.close();
                moving.close();
            }
        } finally {
            a.close();
        }
    }
}
