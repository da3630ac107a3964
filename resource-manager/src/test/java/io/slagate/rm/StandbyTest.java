package io.slagate.rm;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.ControlBus;
import io.slagate.bus.EmbeddedBroker;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * Two resource managers on a real embedded broker: one is active; one started beside it (with a
 * smaller id) stands by without ever publishing; when the active one dies without a word (its bus
 * gone), the standby takes over within a few heartbeats with newer versions; a gateway
 * (here, a bus client reporting statistics) keeps receiving allocations throughout.
 */
class StandbyTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @Test
    void oneActive_standbyTakesOverWhenTheActiveFallsSilent() throws Exception {
        SlagateConfig config = ConfigLoader.parse("""
                gateway: { stats: { reportingInterval: 100ms, window: 500ms } }
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 10 } ]
                classes: [ { name: premium, target: 2s }, { name: basic, target: 3s } ]
                controller: { cycle: 100ms, gatewayExpiry: 50 }
                """, "standby-test");
        ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor();
        try (EmbeddedBroker broker = EmbeddedBroker.start("standby-test", "", null, null)) {
            List<AllocationMessage> seen = new CopyOnWriteArrayList<>();
            ControlBus gateway = new ControlBus(broker.vmUrl(), null, null, "gw1")
                    .subscribe(Topics.ALLOCATION, m -> seen.add((AllocationMessage) m)).start();
            ControlBus busA = new ControlBus(broker.vmUrl(), null, null, "rm-b").start();
            ControlBus busB = new ControlBus(broker.vmUrl(), null, null, "rm-a").start();
            ControlLoop a = new ControlLoop("rm-b", config, busA, new Overrides(), new SimpleMeterRegistry()).start();
            await("the first manager is active").atMost(DEADLINE).until(() -> a.status().active());
            // started beside an active manager: it listens, hears it, and never publishes nor preempts it, smaller id or not
            ControlLoop b = new ControlLoop("rm-a", config, busB, new Overrides(), new SimpleMeterRegistry()).start();
            StatsMessage stats = new StatsMessage(BusMessage.SCHEMA, "gw1", 1, 0, 0.5, 0,
                    List.of(new FlowStatsMessage("premium", 5, 5, 0, 1.5, 0.5, 1, 2, 4, 5),
                            new FlowStatsMessage("basic", 5, 5, 0, 1.0, 0.2, 0.8, 1, 4, 5)),
                    List.of(new ServerStatusMessage("s1", 10, 8, true)));
            // as a gateway does: it reports, then beats; a manager that does not know it yet admits it on its beat
            reporter.scheduleAtFixedRate(() -> {
                gateway.publish(Topics.HEARTBEAT_GATEWAY, new HeartbeatMessage(BusMessage.SCHEMA, "gw1", "gateway",
                        HeartbeatMessage.ALIVE, System.currentTimeMillis(), 0));
                gateway.publish(Topics.STATS, stats);
            }, 0, 100, TimeUnit.MILLISECONDS);
            try {
                await("the newcomer hears the active one and stands by").atMost(DEADLINE).until(() -> a.status().active() && !b.status().active());
                await().atMost(DEADLINE).until(() -> seen.size() >= 10);
                assertTrue(seen.stream().allMatch(x -> x.managerId().equals("rm-b")),
                        "only the active one publishes, and the other never did: " + seen.stream().map(AllocationMessage::managerId).distinct().toList());
                long lastOfA = seen.stream().mapToLong(AllocationMessage::version).max().orElseThrow();

                busA.close(); // the active one dies without a leave: it just falls silent
                await("the standby takes over").atMost(DEADLINE).until(() -> b.status().active());
                await("and its allocations reach the gateway").atMost(DEADLINE).until(() ->
                        seen.stream().anyMatch(x -> x.managerId().equals("rm-a") && x.version() > lastOfA));
            } finally {
                reporter.shutdownNow();
                a.close();
                b.close();
                busB.close();
                gateway.close();
            }
        }
    }
}
