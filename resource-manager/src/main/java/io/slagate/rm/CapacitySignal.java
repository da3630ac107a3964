package io.slagate.rm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The capacity signal as an autoscaler reads it: per pool, of the readings of the last
 * {@code controller.capacityStabilization}, the median one (by the slots needed, an unreachable
 * reading counting as the most; of two middle ones the smaller). One noisy cycle, or a gateway that
 * reports a thousand times its rate for one window, does not move it, and it changes sign only when
 * most of the span's readings have. With a zero span, each cycle's reading as it is. The manager's
 * thread only.
 */
final class CapacitySignal {
    private record Reading(long atNanos, CapacityDeficit.Result result) {
    }

    private static final Comparator<CapacityDeficit.Result> BY_NEED =
            Comparator.comparingDouble(r -> Double.isNaN(r.neededSlots()) ? Double.POSITIVE_INFINITY : r.neededSlots());

    private final long spanNanos;
    private final Map<String, Deque<Reading>> readings = new HashMap<>();

    CapacitySignal(long spanNanos) {
        this.spanNanos = spanNanos;
    }

    /** Adds this cycle's reading of its pool; returns the pool's signal now. */
    CapacityDeficit.Result observe(CapacityDeficit.Result r, long nowNanos) {
        Deque<Reading> q = readings.computeIfAbsent(r.pool(), p -> new ArrayDeque<>());
        q.addLast(new Reading(nowNanos, r));
        while (q.size() > 1 && nowNanos - q.peekFirst().atNanos() > spanNanos) {
            q.removeFirst();
        }
        List<CapacityDeficit.Result> sorted = new ArrayList<>(q.size());
        q.forEach(x -> sorted.add(x.result()));
        sorted.sort(BY_NEED);
        return sorted.get((sorted.size() - 1) / 2);
    }

    /** Takes over {@code other}'s readings (a reconfigured manager's signal goes on from where it was). */
    void keep(CapacitySignal other) {
        other.readings.forEach((pool, q) -> readings.put(pool, new ArrayDeque<>(q)));
    }
}
