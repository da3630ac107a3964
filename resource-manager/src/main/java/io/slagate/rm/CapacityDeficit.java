package io.slagate.rm;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoublePredicate;
import java.util.function.DoubleUnaryOperator;

/**
 * What a pool lacks, or has to spare, for every class to meet its target at the measured load: for each
 * flow with traffic, the smallest share w whose predicted response time is within the class's target
 * ({@link ClassGoals#meetsForCapacity}); their sum against the pool's slots. The gap, in slots and in
 * servers of the pool's mean size, is the signal an autoscaler acts on: positive, servers to add;
 * negative, servers that could go with every target still met. A flow whose target no share reaches,
 * by the model itself at any share (its service time alone exceeds it), makes the pool unreachable:
 * more servers would not help, and the figure says so (NaN) rather than asking for infinitely many.
 *
 * <p>Where every flow, as measured, meets its goals at the share it has (and no rise of its arrivals is
 * forecast), the pool lacks nothing at this load whatever the sum says: the sum prices each class as if
 * it had its slots to itself, while the classes lend each other the slots they leave idle and closed-loop
 * clients slow their own arrivals, so the sum can exceed the slots that are in fact meeting every target.
 * Then the need is capped at the slots there are: the signal asks for servers only for a class that misses
 * its target, and still offers the ones to spare.
 */
final class CapacityDeficit {
    /**
     * One flow: its class, whether its sizing prediction meets the class's goals at a share, and whether the model alone
     * does (where the sizing prediction finds no share within reach, the model's own smallest share stands, and only
     * when the model finds none either is the flow unreachable).
     */
    record Flow(String className, DoublePredicate meetsAt, DoublePredicate modelMeetsAt, boolean metAtItsShare) {
        Flow(String className, DoublePredicate meetsAt, DoublePredicate modelMeetsAt) {
            this(className, meetsAt, modelMeetsAt, false);
        }

        Flow(String className, DoublePredicate meetsAt) {
            this(className, meetsAt, meetsAt);
        }

        /** A flow with a mean target only: its predicted response time as a function of its share against the target (s). */
        Flow(String className, double targetSeconds, DoubleUnaryOperator predictSeconds) {
            this(className, w -> {
                double t = predictSeconds.applyAsDouble(w);
                return Double.isFinite(t) && t <= targetSeconds;
            });
        }
    }

    /**
     * @param neededSlots   Σ over flows of the smallest share meeting its target, at most the slots there are when every
     *                      flow meets its goals at the share it has (NaN when unreachable)
     * @param deficitSlots  max(0, needed − have) (NaN when unreachable)
     * @param servers       servers of the pool's mean size to add (> 0, the gap rounded up) or that could go (< 0, whole
     *                      servers the slots to spare hold); NaN when unreachable
     * @param neededByClass per class, the slots its flows need by the model (NaN for a class that cannot be helped); their
     *                      sum exceeds neededSlots where that was capped
     * @param slotsPerServer the pool's mean N_s, the size of a server in the figures
     * @param allMet        every flow, as measured, meets its goals at the share it has
     */
    record Result(String pool, int haveSlots, double neededSlots, double deficitSlots, double servers,
                  Map<String, Double> neededByClass, double slotsPerServer, boolean allMet) {
        Result(String pool, int haveSlots, double neededSlots, double deficitSlots, double servers, Map<String, Double> neededByClass,
               double slotsPerServer) {
            this(pool, haveSlots, neededSlots, deficitSlots, servers, neededByClass, slotsPerServer, false);
        }

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
            int units = smallestUnits(f.meetsAt(), resolution, limitUnits);
            if (units < 0) {
                units = smallestUnits(f.modelMeetsAt(), resolution, limitUnits);
            }
            double w = units < 0 ? Double.NaN : units * resolution;
            byClass.merge(f.className(), w, Double::sum);
            needed += w;
        }
        if (Double.isNaN(needed)) {
            return new Result(pool, haveSlots, Double.NaN, Double.NaN, Double.NaN, byClass, slotsPerServer);
        }
        boolean allMet = !flows.isEmpty() && flows.stream().allMatch(Flow::metAtItsShare);
        if (allMet) {
            needed = Math.min(needed, haveSlots);
        }
        return new Result(pool, haveSlots, needed, Math.max(0, needed - haveSlots), servers(needed, haveSlots, slotsPerServer), byClass,
                slotsPerServer, allMet);
    }

    /** Servers of {@code slotsPerServer} to add for {@code needed} slots where there are {@code have} (negative: that could go). */
    static double servers(double needed, int have, double slotsPerServer) {
        double perServer = Math.max(slotsPerServer, 1e-9);
        double s = needed > have ? Math.ceil((needed - have) / perServer - 1e-9) : -Math.floor((have - needed) / perServer + 1e-9);
        return s == 0 ? 0 : s;
    }

    /** The smallest number of units at which {@code meets} holds (predictions fall with the share), or −1. */
    private static int smallestUnits(DoublePredicate meets, double resolution, int limitUnits) {
        int units = ImportanceTiers.smallestUnits(u -> meets.test(u * resolution), limitUnits);
        return units == Integer.MAX_VALUE ? -1 : units;
    }
}
