package io.slagate.gateway.agent;

import io.slagate.gateway.testing.TestConfigs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.ControlBus;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.bus.message.StatsMessage;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.stats.GatewayMetrics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Applying allocations and building reports; the bus is never started (its tests are in the bus module). */
class GatewayAgentTest {
    private static final String CONFIG = """
            gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0" }
            servers:
              - { id: s1, url: "http://127.0.0.1:1", concurrency: 6 }
              - { id: s2, url: "http://127.0.0.1:2", concurrency: 4 }
            classes:
              - { name: premium, target: 1s }
              - { name: basic, target: 2s }
            """;
    private final Gateway gateway = new Gateway(TestConfigs.parse(CONFIG + "allocation: { weights: { premium: 3, basic: 2 } }\n",
            "agent-test"));
    private final ControlBus bus = new ControlBus("vm://nowhere", null, null, "gw1");
    private final GatewayAgent agent = new GatewayAgent(gateway, bus);

    @AfterEach
    void close() {
        bus.close();
    }

    private static AllocationMessage alloc(long version, String gw, Map<String, Double> w, Map<String, Integer> n) {
        return new AllocationMessage(BusMessage.SCHEMA, version, 0, "rm", Map.of(gw, new GatewayAllocation(w, n)));
    }

    @Test
    void newerAllocation_isApplied_olderOrForOthersIgnored() {
        assertTrue(agent.apply(alloc(10, "gw1", Map.of("premium", 7.5, "basic", 2.5), Map.of("s1", 3, "s2", 2))));
        Allocation a = gateway.queues().caps().allocation();
        assertEquals(10, a.version());
        assertEquals(7.5, a.weight(0));
        assertEquals(2.5, a.weight(1));
        assertEquals(3, a.cap(0));
        assertEquals(2, a.cap(1));
        assertFalse(agent.apply(alloc(9, "gw1", Map.of("premium", 1.0), Map.of())), "older: ignored");
        assertFalse(agent.apply(alloc(10, "gw1", Map.of("premium", 1.0), Map.of())), "same version: ignored");
        assertFalse(agent.apply(alloc(11, "gw2", Map.of("premium", 1.0), Map.of())), "for another gateway");
        assertEquals(7.5, gateway.queues().caps().allocation().weight(0));
        assertEquals(1, agent.allocationsApplied());
    }

    @Test
    void unknownNamesIgnored_missingWeightsKept_missingCapsZero_nonPositiveWeightsFloored() {
        agent.apply(alloc(4, "gw1", Map.of(), Map.of("s1", 5, "s2", 2)));
        agent.apply(alloc(5, "gw1", Map.of("gold", 9.0, "basic", 0.0), Map.of("s9", 1, "s2", 1)));
        Allocation a = gateway.queues().caps().allocation();
        assertEquals(3, a.weight(0), "premium not named: kept");
        assertTrue(a.weight(1) > 0 && a.weight(1) < 0.01, "0 becomes the positive floor the WRR needs");
        assertEquals(0, a.cap(0), "s1 not named: no slots here, whatever the last allocation gave it (5)");
        assertEquals(1, a.cap(1));
    }

    /**
     * Queue timeouts from the manager (the knob) are bus input like the rest: a class the gateway lacks, a value
     * below 1 ms or above an hour, or none, leaves the configured timeout (30 s) in force; a sane one applies, and a later
     * allocation that no longer names the class brings the configured one back.
     */
    @Test
    void queueTimeouts_saneOnesApplied_brokenOnesLeaveTheConfiguredTimeout() {
        Map<String, Long> hostile = new HashMap<>();
        hostile.put("gold", 500L);
        hostile.put("premium", -5L);
        hostile.put("basic", 86_400_000L);
        assertTrue(agent.apply(new AllocationMessage(BusMessage.SCHEMA, 5, 0, "rm",
                Map.of("gw1", new GatewayAllocation(Map.of(), Map.of())), Map.of(), hostile)));
        assertEquals(30_000_000_000L, gateway.queues().timeouts().nanos(0));
        assertEquals(30_000_000_000L, gateway.queues().timeouts().nanos(1));
        assertTrue(agent.apply(new AllocationMessage(BusMessage.SCHEMA, 6, 0, "rm",
                Map.of("gw1", new GatewayAllocation(Map.of(), Map.of())), Map.of(), Map.of("premium", 750L))));
        assertEquals(750_000_000L, gateway.queues().timeouts().nanos(0));
        assertEquals(30_000_000_000L, gateway.queues().timeouts().nanos(1));
        assertTrue(agent.apply(alloc(7, "gw1", Map.of(), Map.of())));
        assertEquals(30_000_000_000L, gateway.queues().timeouts().nanos(0), "not named any more: configured again");
    }

    /** The manager's statistics window (the window knob): shortened in whole intervals, never beyond the configured. */
    @Test
    void statsWindow_shortenedByTheManager_neverBeyondTheConfigured() {
        GatewayMetrics m = gateway.metrics();
        int configured = m.configuredWindowIntervals();
        long interval = Math.round(m.intervalSeconds() * 1000);
        assertTrue(agent.apply(new AllocationMessage(BusMessage.SCHEMA, 5, 0, "rm", Map.of("gw1", new GatewayAllocation(Map.of(), Map.of())),
                Map.of(), Map.of(), 2 * interval)));
        assertEquals(2, m.windowIntervals());
        assertTrue(agent.apply(new AllocationMessage(BusMessage.SCHEMA, 6, 0, "rm", Map.of("gw1", new GatewayAllocation(Map.of(), Map.of())),
                Map.of(), Map.of(), 1000 * interval * configured)));
        assertEquals(configured, m.windowIntervals(), "longer than what the gateway holds: the configured window");
        assertTrue(agent.apply(new AllocationMessage(BusMessage.SCHEMA, 7, 0, "rm", Map.of("gw1", new GatewayAllocation(Map.of(), Map.of())),
                Map.of(), Map.of(), interval)));
        assertEquals(1, m.windowIntervals());
        assertTrue(agent.apply(alloc(8, "gw1", Map.of(), Map.of())));
        assertEquals(configured, m.windowIntervals(), "not set any more: the configured window");
    }

    @Test
    void report_carriesEveryClassAndServer_withTheWeightsAndCapsInForce() {
        StatsMessage m = agent.statsMessage();
        assertEquals("gw1", m.gatewayId());
        assertEquals(2, m.flows().size());
        assertEquals("premium", m.flows().get(0).className());
        assertEquals(3, m.flows().get(0).weight());
        assertEquals(List.of(), m.servers(), "before its first allocation a gateway on a bus holds no slot, not 6: every server"
                + " idle and in rotation, which goes without saying");
        assertEquals(m.sequence() + 1, agent.statsMessage().sequence(), "sequence numbers increase");
        assertTrue(agent.apply(alloc(9, "gw1", Map.of(), Map.of("s2", 4))));
        StatsMessage after = agent.statsMessage();
        assertEquals(1, after.servers().size(), "s1 holds no slot here (not named: 0), s2 four: " + after.servers());
        assertEquals("s2", after.servers().get(0).serverId());
        assertEquals(4, after.servers().get(0).cap());
        assertTrue(after.servers().get(0).inRotation());
    }

    @Test
    void reconfigure_classesAndServersLive_gatewaySettingsAtRestart() {
        String same = CONFIG + "classification: { rules: [ { operation: \"urn:buy*\", class: premium } ], defaultClass: basic }\n";
        var queuesBefore = gateway.queues();
        assertTrue(gateway.reconfigure(TestConfigs.parse(same, "t")), "same classes and servers: applied live");
        assertSame(queuesBefore, gateway.queues(), "a classification change keeps the queues");
        assertTrue(gateway.reconfigure(TestConfigs.parse(same.replace("name: basic", "name: bronze")
                .replace("defaultClass: basic", "defaultClass: bronze"), "t")), "a renamed class is applied live");
        assertEquals(3.0, gateway.queues().caps().allocation().weight(0), "premium keeps its weight across the change");
        assertEquals("bronze", gateway.config().classes().get(1).name());
        assertTrue(gateway.reconfigure(TestConfigs.parse(same.replace("127.0.0.1:2", "127.0.0.1:3"), "t")), "a moved server too");
        assertEquals("127.0.0.1:3", gateway.config().servers().get(1).url().getAuthority());
        assertFalse(gateway.reconfigure(TestConfigs.parse(same.replace("admin: \"127.0.0.1:0\"", "admin: \"127.0.0.1:9\""), "t")),
                "a listener change waits for a restart");
        assertEquals("basic", gateway.config().classes().get(1).name(), "the rest of that file is applied");
    }
}
