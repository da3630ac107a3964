package io.slagate.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.GatewayRoster;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The console's view of the gateways, on an injected clock: a gateway that left or fell silent is not
 * shown as live, and the console believes only what the resource manager would.
 */
class LiveStateTest {
    private static final long SECOND = 1_000_000_000L;
    private final AtomicLong now = new AtomicLong(42 * SECOND);
    private final LiveState state = new LiveState(100, Duration.ofSeconds(15), new GatewayRoster(64,
            Map.of("gw1", List.of("gw1"), "gw2", List.of("gw2")), "console"), now::get);
    private final List<String> events = new CopyOnWriteArrayList<>();

    private static StatsMessage stats(String gw) {
        return new StatsMessage(BusMessage.SCHEMA, gw, 1, 0, 30, 1,
                List.of(new FlowStatsMessage("premium", 1, 1, 0, 0.1, 0, 0.1, 0, 1, 5)), List.of());
    }

    private static HeartbeatMessage beat(String gw, String event) {
        return new HeartbeatMessage(BusMessage.SCHEMA, gw, "gateway", event, 0, 1);
    }

    /** gw1 and gw2 join with their own accounts and report. */
    private void twoGateways() {
        state.accept(Topics.HEARTBEAT_GATEWAY, beat("gw1", HeartbeatMessage.JOIN), "gw1");
        state.accept(Topics.HEARTBEAT_GATEWAY, beat("gw2", HeartbeatMessage.JOIN), "gw2");
        state.accept(Topics.STATS, stats("gw1"), "gw1");
        state.accept(Topics.STATS, stats("gw2"), "gw2");
    }

    @Test
    void silentGateway_droppedAfterTheExpiry_andBrowsersTold() {
        state.addListener(events::add);
        twoGateways();
        now.addAndGet(14 * SECOND);
        state.accept(Topics.STATS, stats("gw1"), "gw1");
        assertEquals(Set.of("gw1", "gw2"), state.gateways().keySet(), "within the expiry both are live");
        now.addAndGet(2 * SECOND); // gw2 silent for 16 s, gw1 for 2 s
        assertEquals(Set.of("gw1"), state.gateways().keySet());
        assertTrue(events.stream().anyMatch(e -> e.contains("\"gateway-gone\"") && e.contains("\"gw2\"") && e.contains("\"silent\"")), events.toString());
        assertEquals(15.0, state.expirySeconds());
        state.accept(Topics.STATS, stats("gw2"), "gw2");
        assertEquals(Set.of("gw1"), state.gateways().keySet(), "expired, it must join again before its figures count");
    }

    @Test
    void gatewayThatLeaves_droppedAtOnce() {
        state.addListener(events::add);
        twoGateways();
        state.accept(Topics.HEARTBEAT_GATEWAY, beat("gw2", HeartbeatMessage.LEAVE), "gw2");
        assertEquals(Set.of("gw1"), state.gateways().keySet());
        assertTrue(events.stream().anyMatch(e -> e.contains("\"gateway-gone\"") && e.contains("\"gw2\"") && e.contains("\"left\"")),
                events.toString());
        // a leave of a gateway never seen is no event; an alive heartbeat changes nothing
        int before = events.size();
        state.accept(Topics.HEARTBEAT_GATEWAY, beat("gw9", HeartbeatMessage.LEAVE), "gw9");
        state.accept(Topics.HEARTBEAT_GATEWAY, beat("gw1", HeartbeatMessage.ALIVE), "gw1");
        assertEquals(before, events.size());
        assertEquals(Set.of("gw1"), state.gateways().keySet());
    }

    @Test
    void oneGatewayAccount_cannotSpeakForOthers_norInventGateways() {
        twoGateways();
        StatsMessage real = state.gateways().get("gw2");
        long refusedBefore = state.refused();
        state.accept(Topics.STATS, stats("gw2"), "gw1"); // gw1's account speaking for gw2
        state.accept(Topics.HEARTBEAT_GATEWAY, beat("gw2", HeartbeatMessage.LEAVE), "gw1");
        for (int i = 0; i < 200; i++) { // invented gateways under gw1's account
            state.accept(Topics.HEARTBEAT_GATEWAY, beat("fake-" + i, HeartbeatMessage.JOIN), "gw1");
            state.accept(Topics.STATS, stats("fake-" + i), "gw1");
        }
        assertEquals(Set.of("gw1", "gw2"), state.gateways().keySet());
        assertTrue(real == state.gateways().get("gw2"), "gw2's figures are its own");
        assertEquals(refusedBefore + 2 + 400, state.refused(), "every refusal counted");
    }

    @Test
    void aMessageOfAnotherKindThanItsTopic_isRefused() {
        twoGateways();
        // an allocation published on the statistics topic (which gateway accounts may write) is not an allocation
        AllocationMessage forged = new AllocationMessage(BusMessage.SCHEMA, 1, 0, "FORGED-by-gw1", Map.of());
        state.accept(Topics.STATS, forged, "gw1");
        assertNull(state.allocation());
        assertEquals(1, state.refused());
        state.accept(Topics.ALLOCATION, forged, "rm");
        assertEquals("FORGED-by-gw1", state.allocation().managerId(), "on its own topic (the broker lets only managers write there)");
    }

    /**
     * A delayed allocation older than the one shown (a standby's, or one the bus held back) is not shown, nor one from
     * far ahead of the clock; a paused cycle's decision keeps the last version and is shown; an older decision is not.
     */
    @Test
    void anAllocationOrDecisionOlderThanTheOneShown_isNotShown() {
        long v = System.currentTimeMillis();
        state.accept(Topics.ALLOCATION, new AllocationMessage(BusMessage.SCHEMA, v + 5, 0, "rm-a", Map.of()), "rm");
        state.accept(Topics.ALLOCATION, new AllocationMessage(BusMessage.SCHEMA, v + 4, 0, "rm-late", Map.of()), "rm");
        assertEquals("rm-a", state.allocation().managerId(), "the older one, arriving later, is not shown");
        state.accept(Topics.ALLOCATION, new AllocationMessage(BusMessage.SCHEMA, v + 86_400_000L, 0, "rm-future", Map.of()), "rm");
        assertEquals("rm-a", state.allocation().managerId(), "a version a day ahead of the clock is a forgery");
        state.accept(Topics.ALLOCATION, new AllocationMessage(BusMessage.SCHEMA, v + 6, 0, "rm-a", Map.of()), "rm");
        assertEquals(v + 6, state.allocation().version());
        state.accept(Topics.DECISION, new DecisionMessage(BusMessage.SCHEMA, v + 6, 0, "rm-a", false, 1, 0, List.of()), "rm");
        state.accept(Topics.DECISION, new DecisionMessage(BusMessage.SCHEMA, v + 6, 0, "rm-a", true, Double.NaN, 0, List.of()), "rm");
        assertTrue(state.decision().paused(), "a paused cycle's decision, same version, is shown");
        state.accept(Topics.DECISION, new DecisionMessage(BusMessage.SCHEMA, v + 3, 0, "rm-old", false, 1, 0, List.of()), "rm");
        assertEquals("rm-a", state.decision().managerId(), "an older decision is not");
    }

    @Test
    void rosterBounds_likeTheManagers() {
        LiveState small = new LiveState(100, Duration.ofSeconds(15), new GatewayRoster(2, Map.of(), null), now::get);
        for (int i = 0; i < 5; i++) {
            small.accept(Topics.HEARTBEAT_GATEWAY, beat("gw" + i, HeartbeatMessage.JOIN), null);
            small.accept(Topics.STATS, stats("gw" + i), null);
        }
        assertEquals(Set.of("gw0", "gw1"), small.gateways().keySet(), "at most maxGateways");
        assertEquals(6, small.refused());
    }
}
