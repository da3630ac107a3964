package io.slagate.bus;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
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
}
