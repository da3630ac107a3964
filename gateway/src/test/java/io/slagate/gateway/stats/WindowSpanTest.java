package io.slagate.gateway.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.sched.QueueManager;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * The window knob shortens the statistics window the gateway holds (4 intervals of 1 s here): the figures and
 * the goal percentile then span only the latest intervals, and going back to the configured span counts the older
 * intervals again (they were kept). Four intervals of known answers: 100 ms, 100 ms, 100 ms, then 1 s.
 */
class WindowSpanTest {
    private static final long MS = 1_000_000L;
    private static final SlagateConfig CFG = ConfigLoader.parse("""
                gateway: { stats: { reportingInterval: 1s, window: 4s } }
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 4 } ]
                classes:
                  - { name: gold, p90: 500ms }
                """, "span.yaml");

    @Test
    void aShorterSpan_coversOnlyTheLatestIntervals_andTheConfiguredOneAllAgain() {
        QueueManager q = QueueManager.create(CFG, new Allocation(1, new double[] {1}, new int[] {4}), System::nanoTime);
        GatewayMetrics m = new GatewayMetrics(CFG, new SimpleMeterRegistry(), q, new GatewayMetrics.Totals());
        assertEquals(4, m.configuredWindowIntervals());
        for (int interval = 0; interval < 4; interval++) {
            if (interval == 3) {
                assertEquals(1, m.windowIntervals(1), "spans the latest interval from the next rotation on");
            }
            for (int i = 0; i < 10; i++) {
                m.arrived(0);
                m.completed(0, 0, (interval < 3 ? 100 : 1000) * MS, (interval < 3 ? 100 : 1000) * MS);
            }
            m.rotate();
        }
        FlowStats last = m.flowStats(q).get(0);
        assertEquals(1.0, last.windowSeconds(), 1e-9);
        assertEquals(10, last.throughput(), 1e-9, "10 answers in the one interval");
        assertEquals(1.0, last.meanResponseSeconds(), 1e-9);
        assertEquals(1.0, last.percentileSeconds(), 0.01, "the percentile spans the same interval");

        assertEquals(4, m.windowIntervals(99), "no more than the configured window: that is what is held");
        m.rotate(); // an empty interval: the window is now the last four, three of them with answers
        FlowStats all = m.flowStats(q).get(0);
        assertEquals(4.0, all.windowSeconds(), 1e-9);
        assertEquals(30 / 4.0, all.throughput(), 1e-9);
        assertEquals((20 * 0.1 + 10 * 1.0) / 30, all.meanResponseSeconds(), 1e-9);
    }
}
