package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.model.ModelCorrection;
import io.slagate.rm.model.ResponseTimeModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The manager drops what its model correction learned of a flow when the flow's load changes: a gain taught by one
 * load does not describe the next. Reports of 0.25 s intervals in a 1.5 s window (the experiments' short scale), exact
 * counts, so only the step is a change.
 */
class ChangeRestartsCorrectionTest {
    private static final long NOW = 1_000_000_000_000L;

    private static SlagateConfig config() {
        return ConfigLoader.parse("""
                gateway: { stats: { reportingInterval: 250ms, window: 1500ms } }
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 10 }
                classes:
                  - { name: premium, target: 2s }
                  - { name: basic, target: 3s }
                controller: { combining: sum, model: mmm, correctionBound: 4, damping: 1 }
                """, "change-test");
    }

    /** One report: premium at {@code arrivals} per interval answered in {@code premiumSeconds} at share {@code w}, basic steady. */
    private static StatsMessage report(long seq, long arrivals, double premiumSeconds, double w) {
        List<FlowStatsMessage> flows = new ArrayList<>();
        flows.add(flow("premium", arrivals, premiumSeconds, w));
        flows.add(flow("basic", 5, 0.05, 10 - w));
        return new StatsMessage(BusMessage.SCHEMA, "gw1", seq, 0, 1.5, 1, flows, List.of(new ServerStatusMessage("s1", 10, 0, true)));
    }

    private static FlowStatsMessage flow(String name, long arrivals, double seconds, double w) {
        double rate = arrivals / 0.25;
        FlowStatsMessage.Interval last = new FlowStatsMessage.Interval(0.25, arrivals, arrivals, 0, seconds, seconds - 0.04, 0.04);
        return new FlowStatsMessage(name, rate, rate, 0, seconds, seconds - 0.04, 0.04, 0, 0, w, Double.NaN, Double.NaN, 0, last);
    }

    @Test
    void aChangeOfAFlowsLoad_dropsTheGainItsCorrectionLearned() {
        ResourceManager rm = new ResourceManager("rm", config(), new Overrides(), 0);
        ModelCorrection correction = rm.correction();
        ResponseTimeModel mmm = ResponseTimeModel.named("mmm");
        // both flows taught the same gain: one slot less answered five times slower than M/M/m says (80/s, 40 ms each)
        for (String flow : List.of("gw1/premium", "gw1/basic")) {
            correction.decidedAt(flow, new FlowObservation(80, 0.05, 5, 80, 0.04));
            correction.observe(flow, new FlowObservation(80, 0.25, 4, 80, 0.04), mmm);
        }
        double learned = correction.gain("gw1/premium");
        assertTrue(learned > 1.5, "the gain learned from the move: " + learned);
        long seq = 0;
        for (int i = 0; i < 8; i++) {
            assertTrue(rm.onStats(report(seq++, 20, 0.05, 5), NOW).isEmpty(), "a steady load is no change");
        }
        assertEquals(learned, correction.gain("gw1/premium"), 1e-12, "kept while the load holds");
        Set<String> changed = rm.onStats(report(seq++, 80, 0.05, 5), NOW); // premium's arrivals fourfold in one interval
        assertEquals(Set.of("premium"), changed);
        assertEquals(1.0, correction.gain("gw1/premium"), 1e-12, "premium's gain is learned again on the new load");
        assertEquals(learned, correction.gain("gw1/basic"), 1e-12, "basic's load held: its gain is kept");
    }
}
