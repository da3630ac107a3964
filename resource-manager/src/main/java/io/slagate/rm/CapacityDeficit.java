package io.slagate.rm;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoublePredicate;
import java.util.function.DoubleUnaryOperator;

/**
 * What a pool lacks for every class to meet its target at the measured load: for each
 * flow with traffic, the smallest share w whose predicted response time (the model in force, with its
 * online correction) is within the class's target; their sum against the pool's slots. The gap, in
 * slots and in servers of the pool's mean size, is the signal an autoscaler acts on. A flow whose
 * target no share can reach (its service time alone exceeds it) makes the pool unreachable: more
 * servers would not help, and the figure says so rather than asking for infinitely many.
 */
final class CapacityDeficit {
    /** One flow: its class, and whether its predictions meet the class's goals at a share. */
    record Flow(String className, DoublePredicate meetsAt) {
        /** A flow with a mean target only: its predicted response time as a function of its share against the target (s). */
        Flow(String className, double targetSeconds, DoubleUnaryOperator predictSeconds) {
            this(className, w -> {
                double t = predictSeconds.applyAsDouble(w);
                return Double.isFinite(t) && t <= targetSeconds;
            });
        }
    }

    /**
     * @param neededSlots   Σ over flows of the smallest share meeting its target (NaN when unreachable)
     * @param deficitSlots  max(0, needed − have) (NaN when unreachable)
     * @param extraServers  the deficit in servers of the pool's mean size, rounded up (−1 when unreachable)
     * @param neededByClass per class, the slots its flows need (NaN for a class that cannot be helped)
     */
    record Result(String pool, int haveSlots, double neededSlots, double deficitSlots, int extraServers,
                  Map<String, Double> neededByClass) {
        boolean reachable() {
            return !Double.isNaN(neededSlots);
        }
    }

    /** Shares are searched up to this many times the pool's slots: a flow needing more is unreachable in practice. */
    static final int SEARCH_LIMIT_FACTOR = 100;

    private CapacityDeficit() {
    }

    static Result of(String pool, int haveSlots, double slotsPerServer, double resolution, List<Flow> flows) {
        Map<String, Double> byClass = new LinkedHashMap<>();
        double needed = 0;
        int limitUnits = (int) Math.ceil(Math.max(haveSlots, 1) * SEARCH_LIMIT_FACTOR / resolution);
        for (Flow f : flows) {
            int units = smallestUnits(f, resolution, limitUnits);
            double w = units < 0 ? Double.NaN : units * resolution;
            byClass.merge(f.className(), w, Double::sum);
            needed += w;
        }
        if (Double.isNaN(needed)) {
            return new Result(pool, haveSlots, Double.NaN, Double.NaN, -1, byClass);
        }
        double deficit = Math.max(0, needed - haveSlots);
        int servers = deficit == 0 ? 0 : (int) Math.ceil(deficit / Math.max(slotsPerServer, 1e-9) - 1e-9);
        return new Result(pool, haveSlots, needed, deficit, servers, byClass);
    }

    /** The smallest number of units whose predictions meet the goals (predictions fall with the share), or −1. */
    private static int smallestUnits(Flow f, double resolution, int limitUnits) {
        int units = ImportanceTiers.smallestUnits(u -> f.meetsAt().test(u * resolution), limitUnits);
        return units == Integer.MAX_VALUE ? -1 : units;
    }
}
