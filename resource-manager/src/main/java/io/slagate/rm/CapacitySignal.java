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
 * most of the span's readings have. With a zero span, each cycle's reading as it is.
 *
 * <p>And hysteresis, one way: the figure in servers rises as soon as the median's need does, and falls
 * only once the need is under the boundary by {@value #HYSTERESIS} of a server (or the pool's slots
 * change). A pool whose need sits on a boundary (20.3 slots of 20) otherwise reads +1 and 0 by turns
 * with the measurements' noise, and an autoscaler would add and remove a server by turns; holding the
 * higher figure costs at most a server, while holding the lower one (a margin both ways) kept a pool
 * on one server whose classes missed their targets by half, its need read 11 of 10 slots. The
 * manager's thread only.
 */
final class CapacitySignal {
    private record Reading(long atNanos, CapacityDeficit.Result result) {
    }

    private static final Comparator<CapacityDeficit.Result> BY_NEED =
            Comparator.comparingDouble(r -> Double.isNaN(r.neededSlots()) ? Double.POSITIVE_INFINITY : r.neededSlots());

    /** How far past a boundary, in servers, the slots needed must be for the figure in servers to move. */
    static final double HYSTERESIS = 0.2;

    private final long spanNanos;
    private final Map<String, Deque<Reading>> readings = new HashMap<>();
    /** Per pool, the signal last given. */
    private final Map<String, CapacityDeficit.Result> given = new HashMap<>();

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
        CapacityDeficit.Result median = sorted.get((sorted.size() - 1) / 2);
        CapacityDeficit.Result before = given.get(r.pool());
        CapacityDeficit.Result out = holds(before, median) ? before : median;
        given.put(r.pool(), out);
        return out;
    }

    /**
     * Whether the signal given before stands against a median that asks for fewer servers: the same slots, within the
     * margin. Servers asked for are not held once the median reading has every class meeting its target as measured.
     */
    private static boolean holds(CapacityDeficit.Result before, CapacityDeficit.Result median) {
        if (before == null || before.haveSlots() != median.haveSlots() || !before.reachable() || !median.reachable()
                || median.servers() >= before.servers() || before.servers() > 0 && median.allMet()) {
            return false;
        }
        double shifted = median.neededSlots() + HYSTERESIS * median.slotsPerServer();
        return CapacityDeficit.servers(shifted, median.haveSlots(), median.slotsPerServer()) >= before.servers();
    }

    /** Takes over {@code other}'s readings (a reconfigured manager's signal goes on from where it was). */
    void keep(CapacitySignal other) {
        other.readings.forEach((pool, q) -> readings.put(pool, new ArrayDeque<>(q)));
        given.putAll(other.given);
    }
}
