package io.slagate.rm;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gateway reported a class's arrivals surging: a control cycle now, on the statistics it just
 * sent, instead of at the next Γ. At most one such cycle per min(1 s, Γ/4) after any cycle, so that
 * a gateway (broken or hostile) cannot keep the manager solving; the report's statistics count in
 * the next cycle all the same. The control loop's thread only, but for the count.
 */
public final class SurgeCycles {
    private static final Logger LOG = LoggerFactory.getLogger(SurgeCycles.class);

    private long lastCycleNanos = Long.MIN_VALUE;
    private final AtomicLong granted = new AtomicLong();
    private final AtomicLong changes = new AtomicLong();

    /** A cycle ran at {@code now} (on the timer or not). */
    public void cycled(long now) {
        lastCycleNanos = now;
    }

    /**
     * Whether a report gets a cycle now: a surge it reports ({@code flashCrowd}, the class; null: none), else a change
     * detected in its flows of {@code changed} (empty: none).
     */
    public boolean admit(String flashCrowd, Set<String> changed, String gatewayId, long now, Duration cycle) {
        if (flashCrowd != null) {
            return admit(flashCrowd, gatewayId, now, cycle);
        }
        return !changed.isEmpty() && admitChange(changed, gatewayId, now, cycle);
    }

    /** Whether gateway {@code gatewayId}'s surge of class {@code className} gets a cycle now. */
    boolean admit(String className, String gatewayId, long now, Duration cycle) {
        long gap = Math.min(1_000_000_000L, cycle.toNanos() / 4);
        if (lastCycleNanos != Long.MIN_VALUE && now - lastCycleNanos < gap) {
            LOG.info("flash crowd of class {} reported by gateway {}: a cycle ran {} ms ago; the next one decides",
                    className, gatewayId, (now - lastCycleNanos) / 1_000_000);
            return false;
        }
        LOG.warn("flash crowd of class {} reported by gateway {}: control cycle now, not at the next {}", className, gatewayId, cycle);
        granted.incrementAndGet();
        return true;
    }

    /**
     * Whether a change detected in gateway {@code gatewayId}'s flows of {@code classes} gets a cycle now (within the
     * same limit as a surge; said at DEBUG, as a change of load is routine).
     */
    boolean admitChange(Set<String> classes, String gatewayId, long now, Duration cycle) {
        long gap = Math.min(1_000_000_000L, cycle.toNanos() / 4);
        if (lastCycleNanos != Long.MIN_VALUE && now - lastCycleNanos < gap) {
            return false;
        }
        LOG.debug("load of {} at gateway {} changed: control cycle now", classes, gatewayId);
        changes.incrementAndGet();
        return true;
    }

    /** Cycles run at once for a detected change of a flow's load or response time. */
    long changeCycles() {
        return changes.get();
    }

    /** Cycles run at once for a flash crowd (not on the timer). */
    long granted() {
        return granted.get();
    }
}
