package io.slagate.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.StatsMessage;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The console's view of the gateways, on an injected clock: a gateway that left or fell silent is not shown as live. */
class LiveStateTest {
    private static final long SECOND = 1_000_000_000L;
    private final AtomicLong now = new AtomicLong(42 * SECOND);
    private final LiveState state = new LiveState(100, Duration.ofSeconds(15), now::get);
    private final List<String> events = new CopyOnWriteArrayList<>();

    private static StatsMessage stats(String gw) {
        return new StatsMessage(BusMessage.SCHEMA, gw, 1, 0, 30, 1,
                List.of(new FlowStatsMessage("premium", 1, 1, 0, 0.1, 0, 0.1, 0, 1, 5)), List.of());
    }

    @Test
    void silentGateway_droppedAfterTheExpiry_andBrowsersTold() {
        state.addListener(events::add);
        state.accept(stats("gw1"));
        state.accept(stats("gw2"));
        now.addAndGet(14 * SECOND);
        state.accept(stats("gw1"));
        assertEquals(Set.of("gw1", "gw2"), state.gateways().keySet(), "within the expiry both are live");
        now.addAndGet(2 * SECOND); // gw2 silent for 16 s, gw1 for 2 s
        assertEquals(Set.of("gw1"), state.gateways().keySet());
        assertTrue(events.stream().anyMatch(e -> e.contains("\"gateway-gone\"") && e.contains("\"gw2\"") && e.contains("\"silent\"")), events.toString());
        assertEquals(15.0, state.expirySeconds());
    }

    @Test
    void gatewayThatLeaves_droppedAtOnce() {
        state.addListener(events::add);
        state.accept(stats("gw1"));
        state.accept(stats("gw2"));
        state.accept(new HeartbeatMessage(BusMessage.SCHEMA, "gw2", "gateway", HeartbeatMessage.LEAVE, 0, 1));
        assertEquals(Set.of("gw1"), state.gateways().keySet());
        assertTrue(events.stream().anyMatch(e -> e.contains("\"gateway-gone\"") && e.contains("\"gw2\"") && e.contains("\"left\"")),
                events.toString());
        // a leave of a gateway never seen is no event; an alive heartbeat changes nothing
        int before = events.size();
        state.accept(new HeartbeatMessage(BusMessage.SCHEMA, "gw9", "gateway", HeartbeatMessage.LEAVE, 0, 1));
        state.accept(new HeartbeatMessage(BusMessage.SCHEMA, "gw1", "gateway", HeartbeatMessage.ALIVE, 0, 1));
        assertEquals(before, events.size());
        assertEquals(Set.of("gw1"), state.gateways().keySet());
    }
}
