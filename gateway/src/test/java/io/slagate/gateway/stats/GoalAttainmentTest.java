package io.slagate.gateway.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.sched.QueueManager;
import java.util.List;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * Attainment (the share of answers within the class's goal) and the measured goal percentile, from
 * recorded response times whose right answers are known: 90 answers of 100 ms and 10 of 2 s.
 */
class GoalAttainmentTest {
    private static final long MS = 1_000_000L;

    private static final SlagateConfig CFG = ConfigLoader.parse("""
                gateway: { stats: { reportingInterval: 5s, window: 10s } }
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 4 } ]
                classes:
                  - { name: gold, p85: 500ms }
                  - { name: silver, target: 1s }
                  - { name: batch, discretionary: true }
                """, "goal.yaml");

    private static void answer(GatewayMetrics m, int c, long responseNanos) {
        m.arrived(c);
        m.completed(c, 0, responseNanos, responseNanos);
    }

    @Test
    void attainmentAndPercentile_overTheWindow_perClass() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        QueueManager q = QueueManager.create(CFG, new Allocation(1, new double[] {2, 1, 1}, new int[] {4}), System::nanoTime);
        GatewayMetrics m = new GatewayMetrics(CFG, registry, q, new GatewayMetrics.Totals());
        m.registerGauges();
        for (int i = 0; i < 100; i++) {
            answer(m, 0, i < 90 ? 100 * MS : 2000 * MS);
            answer(m, 1, i < 90 ? 100 * MS : 2000 * MS);
            answer(m, 2, 100 * MS);
        }
        m.rotate();
        List<FlowStats> s = m.flowStats(q);
        assertEquals(0.9, s.get(0).attainment(), 1e-12, "gold: 90 of 100 within 500 ms");
        assertEquals(0.1, s.get(0).percentileSeconds(), 0.01 * 0.1, "gold p85: within the fast 90%");
        assertEquals(0.9, s.get(1).attainment(), 1e-12, "silver: 90 of 100 within 1 s");
        assertTrue(Double.isNaN(s.get(1).percentileSeconds()), "silver has no percentile goal");
        assertTrue(Double.isNaN(s.get(2).attainment()), "the discretionary class has no goal to attain");
        assertEquals(100, s.get(2).throughput() * s.get(2).windowSeconds(), 1e-9, "and is measured like the others");
        assertEquals(0.9, registry.get("slagate.class.attainment").tag("class", "gold").gauge().value(), 1e-12);
        assertEquals(0.1, registry.get("slagate.class.response.percentile").tag("class", "gold").tag("percentile", "p85")
                .gauge().value(), 0.001);

        // the next interval's answers are all slow: the 10 s window holds both, 110 of 200 slow
        for (int i = 0; i < 100; i++) {
            answer(m, 0, 2000 * MS);
        }
        m.rotate();
        FlowStats gold = m.flowStats(q).get(0);
        assertEquals(90 / 200.0, gold.attainment(), 1e-12);
        assertEquals(2.0, gold.percentileSeconds(), 0.02 * 2.0, "p85 of 90 fast and 110 slow");
        // two more intervals: the window (two intervals) has slid past the fast ones, then past everything
        m.rotate();
        assertEquals(0.0, m.flowStats(q).get(0).attainment(), 1e-12);
        m.rotate();
        assertTrue(Double.isNaN(m.flowStats(q).get(0).attainment()), "no answers in the window: no attainment");
        assertTrue(Double.isNaN(m.flowStats(q).get(0).percentileSeconds()));
    }
}
