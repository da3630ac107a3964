package io.slagate.rm;

import io.slagate.bus.ControlBus;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.Topics;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * How an allocation leaves the manager: each gateway's part on that gateway's own topic, then the summary
 * (version, pools, capacity) for the console and standby managers. A message is sized by one gateway's classes and
 * servers, so a cycle's bytes grow linearly with the gateways, not with their square. Also coalesces the cycles
 * that joins ask for: a burst of joins costs one cycle, not one each. The control loop's thread only.
 */
final class AllocationFanOut {
    /** Joins within this many milliseconds are decided together. */
    static final long JOIN_COALESCE_MILLIS = 50;

    private final ControlBus bus;
    private final ManagerMetrics metrics;
    private final ScheduledExecutorService loop;
    private final Runnable cycle;
    private boolean joinCyclePending;

    AllocationFanOut(ControlBus bus, ManagerMetrics metrics, ScheduledExecutorService loop, Runnable cycle) {
        this.bus = bus;
        this.metrics = metrics;
        this.loop = loop;
        this.cycle = cycle;
    }

    /** Every gateway's part, then the summary. */
    void publish(AllocationMessage a) {
        long t0 = System.nanoTime();
        for (String g : a.gateways().keySet()) {
            bus.publish(Topics.allocationFor(g), a.forGateway(g));
        }
        bus.publish(Topics.ALLOCATION, a.summary());
        metrics.published(System.nanoTime() - t0);
    }

    /** Gateway {@code g}'s part of {@code a} alone (a gateway that joined, when the allocation in force covers it). */
    void publishTo(String g, AllocationMessage a) {
        bus.publish(Topics.allocationFor(g), a.forGateway(g));
    }

    /**
     * A cycle soon for a joined gateway the allocation in force does not cover, one for all the joins of a burst; on a loop
     * not started (driven by its caller's thread), at once.
     */
    void joined(boolean started) {
        if (!started) {
            cycle.run();
            return;
        }
        if (joinCyclePending) {
            return;
        }
        joinCyclePending = true;
        loop.schedule(() -> {
            joinCyclePending = false;
            cycle.run();
        }, JOIN_COALESCE_MILLIS, TimeUnit.MILLISECONDS);
    }
}
