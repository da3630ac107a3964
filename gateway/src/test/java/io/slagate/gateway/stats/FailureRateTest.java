package io.slagate.gateway.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.soap.FaultReason;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * The window tells the gateway's and the servers' failures from the client's own faults (the objective charges
 * only the first): every fault reason is counted as a rejection, and as a failure exactly when the client did not
 * cause it.
 */
class FailureRateTest {
    private static final SlagateConfig CFG = ConfigLoader.parse("""
                gateway: { stats: { reportingInterval: 5s, window: 10s } }
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 4 } ]
                classes:
                  - { name: gold, target: 500ms }
                """, "failures.yaml");

    @Test
    void everyReason_isARejection_andAFailureOnlyWhenTheClientDidNotCauseIt() {
        QueueManager q = QueueManager.create(CFG, new Allocation(1, new double[] {1}, new int[] {4}), System::nanoTime);
        GatewayMetrics m = new GatewayMetrics(CFG, new SimpleMeterRegistry(), q, new GatewayMetrics.Totals());
        int failures = 0;
        for (FaultReason r : FaultReason.values()) {
            m.arrived(0);
            m.faulted(0, r);
            failures += r.senderFault() ? 0 : 1;
        }
        m.rotate();
        FlowStats s = m.flowStats(q).get(0);
        assertEquals(FaultReason.values().length, s.rejectionRate() * s.windowSeconds(), 1e-9);
        assertEquals(failures, s.failureRate() * s.windowSeconds(), 1e-9);
        assertEquals(8, failures, "shed, queue full, unreachable, server timeout, server failed, shutting down, deadline, "
                + "authentication busy");
        assertEquals(0, m.inFlight(), "every arrival ended once");
    }
}
