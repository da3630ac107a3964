package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A flow whose requests arrived and none was answered within the window (its first requests still queued) has an
 * unknown response time, not a zero one: it keeps the weight it runs under instead of being optimized down to the
 * minimum while those requests wait, for at most one window, and within its gateway's slots. Seen in the whole system:
 * a cycle that came before premium's first answer gave it the minimum and basic the rest.
 */
class UnansweredFlowTest {
    private static final long SECOND = 1_000_000_000L;
    private long now = Long.MAX_VALUE - 1_000_000 * SECOND;

    private static final SlagateConfig CONFIG = ConfigLoader.parse("""
            gateway: { stats: { reportingInterval: 5s, window: 5s } }
            servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 10 } ]
            classes:
              - { name: premium, target: 2s }
              - { name: basic, target: 3s }
            allocation: { weights: { premium: 7, basic: 3 } }
            controller: { combining: min, model: mm1, correctionBound: 1 }
            """, "unanswered-test");

    /** Flow figures: λ, and t with as many answers (t = 0: none answered). */
    private static FlowStatsMessage flow(String cls, double lambda, double t, double weight) {
        double answered = t > 0 ? lambda : 0;
        return new FlowStatsMessage(cls, lambda, answered, 0, t, 0, t, 0, 0, weight);
    }

    private static StatsMessage report(FlowStatsMessage premium, FlowStatsMessage basic) {
        return report(premium, basic, 10);
    }

    private static StatsMessage report(FlowStatsMessage premium, FlowStatsMessage basic, int slots) {
        return new StatsMessage(BusMessage.SCHEMA, "gw1", 1, 0, 5, 1, List.of(premium, basic),
                List.of(new ServerStatusMessage("s1", slots, 0, true)));
    }

    private static double w(AllocationMessage a, String cls) {
        return a.gateways().get("gw1").weights().get(cls);
    }

    @Test
    void beforeTheFirstAllocation_aFlowWithNoAnswerYet_keepsTheWeightItsGatewayRuns() {
        ResourceManager rm = new ResourceManager("rm", CONFIG, new Overrides(), 0);
        rm.onStats(report(flow("premium", 5, 0, 7), flow("basic", 5, 2.0, 3)), now);
        AllocationMessage a = rm.step(now).allocation();
        assertEquals(7, w(a, "premium"), 1e-9, "premium's requests wait for their first answer: " + a.gateways());
        assertEquals(3, w(a, "basic"), 1e-9);
    }

    @Test
    void aFlowWithNoAnswerInItsWindow_keepsTheWeightInForce_andIsOptimizedAgainOnceAnswered() {
        ResourceManager rm = new ResourceManager("rm", CONFIG, new Overrides(), 0);
        rm.onStats(report(flow("premium", 2, 3.0, 7), flow("basic", 1, 1.0, 3)), now);
        AllocationMessage first = rm.step(now).allocation();
        double premium = w(first, "premium");
        assertTrue(premium > 1, "premium, over its target, is given more than the minimum: " + first.gateways());

        now += 5 * SECOND;
        // basic near its target at its share: on premium's zero, the optimizer would move premium's slots to basic
        rm.onStats(report(flow("premium", 2, 0, premium), flow("basic", 1, 2.9, w(first, "basic"))), now);
        AllocationMessage unanswered = rm.step(now).allocation();
        assertEquals(premium, w(unanswered, "premium"), 1e-9, "kept while unanswered: " + unanswered.gateways());

        now += 5 * SECOND;
        rm.onStats(report(flow("premium", 0.01, 0.01, premium), flow("basic", 5, 2.9, w(first, "basic"))), now);
        AllocationMessage answered = rm.step(now).allocation();
        assertTrue(w(answered, "premium") < premium, "answered fast and nearly idle, it gives basic slots again: "
                + answered.gateways());
    }

    @Test
    void beforeTheFirstAllocation_theGatewaysWeightsAreReadAsItsShareOfItsSlots() {
        ResourceManager rm = new ResourceManager("rm", CONFIG, new Overrides(), 0);
        rm.onStats(report(flow("premium", 5, 0, 1), flow("basic", 5, 2.0, 1)), now); // its own units: 1 : 1 of 10 slots
        AllocationMessage a = rm.step(now).allocation();
        assertEquals(5, w(a, "premium"), 1e-9, "half of its slots: " + a.gateways());

        ResourceManager hostile = new ResourceManager("rm", CONFIG, new Overrides(), 0);
        hostile.onStats(report(flow("premium", 5, 0, 1e12), flow("basic", 5, 2.0, 3), 4), now); // 4 slots of 10
        AllocationMessage b = hostile.step(now).allocation();
        assertTrue(w(b, "premium") <= 4, "no more than the slots its gateway has: " + b.gateways());
        assertTrue(Double.isFinite(w(b, "basic")) && w(b, "basic") > 0, "finite weights: " + b.gateways());
    }

    @Test
    void aFlowUnansweredForLongerThanAWindow_isDecidedOnWhatItReads() {
        ResourceManager rm = new ResourceManager("rm", CONFIG, new Overrides(), 0);
        rm.onStats(report(flow("premium", 2, 3.0, 7), flow("basic", 1, 1.0, 3)), now);
        double premium = w(rm.step(now).allocation(), "premium");
        for (int report = 1; report <= 3; report++) { // a window is one report: held at the first and 5 s on, not 10 s on
            now += 5 * SECOND;
            rm.onStats(report(flow("premium", 2, 0, premium), flow("basic", 1, 2.9, 10 - premium)), now);
            AllocationMessage a = rm.step(now).allocation();
            if (report < 3) {
                assertEquals(premium, w(a, "premium"), 1e-9, "held within a window of the first: " + a.gateways());
            } else {
                assertEquals(1, w(a, "premium"), 1e-9, "no longer held: read as it reports, no answer, the minimum: "
                        + a.gateways());
            }
        }
    }
}
