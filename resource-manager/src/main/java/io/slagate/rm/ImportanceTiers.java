package io.slagate.rm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.function.IntPredicate;

/**
 * Importance levels and the discretionary class, as WebSphere XD's service policies
 * order work: when not every goal can be met, a higher level's goals are met first, and the level that
 * cannot all be met shares what the levels above leave by utility; the levels below and the
 * discretionary class then get the minimum. When every goal can be met, each goal flow gets at least
 * the share its goals need, and the rest goes to the discretionary class (it gets what the others
 * leave) or, without one, to the goal flows by utility.
 *
 * <p>A flow's need is the smallest share whose corrected predictions meet its class's goals at the
 * measured load; a flow whose goals no share meets needs more than the pool has.
 */
final class ImportanceTiers {
    /** A flow to place: its class's importance, whether it is discretionary, whether it carries traffic, and its goals' test. */
    record Flow(int importance, boolean discretionary, boolean busy, double arrivalRate, IntPredicate meetsAtUnits) {
    }

    /**
     * @param fixed per flow its units, or −1 for a flow left to the optimizer
     * @param floor per free flow the units it has at least (the optimizer places the rest)
     * @param note  what the tiers decided, for the log
     */
    record Plan(int[] fixed, int[] floor, String note) {
        boolean anyFree() {
            for (int f : fixed) {
                if (f < 0) {
                    return true;
                }
            }
            return false;
        }
    }

    private ImportanceTiers() {
    }

    static Plan plan(List<Flow> flows, int totalUnits, int minUnits) {
        int k = flows.size();
        int[] fixed = new int[k];
        int[] floor = new int[k];
        int[] need = new int[k];
        Arrays.fill(fixed, minUnits);
        int remaining = totalUnits - minUnits * k;
        TreeSet<Integer> levels = new TreeSet<>(Comparator.reverseOrder());
        for (int j = 0; j < k; j++) {
            Flow f = flows.get(j);
            if (f.busy() && !f.discretionary()) {
                levels.add(f.importance());
                need[j] = Math.max(minUnits, smallestUnits(f.meetsAtUnits(), totalUnits));
            }
        }
        for (int level : levels) {
            long extra = 0;
            List<Integer> members = new ArrayList<>();
            for (int j = 0; j < k; j++) {
                Flow f = flows.get(j);
                if (f.busy() && !f.discretionary() && f.importance() == level) {
                    members.add(j);
                    extra += need[j] == Integer.MAX_VALUE ? Integer.MAX_VALUE : need[j] - minUnits;
                }
            }
            if (extra > remaining) {
                for (int j : members) {
                    fixed[j] = -1;
                    floor[j] = minUnits;
                }
                return new Plan(fixed, floor, "importance " + level + " cannot meet every goal (needs " + extra + " more units, "
                        + remaining + " left): it shares them by utility; lower levels and discretionary get the minimum");
            }
            for (int j : members) {
                fixed[j] = need[j];
            }
            remaining -= (int) extra;
        }
        if (toDiscretionary(flows, fixed, remaining, minUnits)) {
            return new Plan(fixed, floor, "every goal met; " + remaining + " units left to discretionary");
        }
        for (int j = 0; j < k; j++) {
            Flow f = flows.get(j);
            if (f.busy() && !f.discretionary()) {
                floor[j] = fixed[j];
                fixed[j] = -1;
            }
        }
        return new Plan(fixed, floor, "every goal met; " + remaining + " units more by utility");
    }

    /** What the goal flows leave goes to the busy discretionary flows, by arrival rate; false when there are none. */
    private static boolean toDiscretionary(List<Flow> flows, int[] fixed, int remaining, int minUnits) {
        List<Integer> discretionary = new ArrayList<>();
        double rate = 0;
        for (int j = 0; j < flows.size(); j++) {
            if (flows.get(j).busy() && flows.get(j).discretionary()) {
                discretionary.add(j);
                rate += flows.get(j).arrivalRate();
            }
        }
        if (!discretionary.isEmpty()) {
            // what the goal flows leave, by arrival rate: each discretionary flow's share of the spare
            double[] share = new double[discretionary.size()];
            for (int i = 0; i < share.length; i++) {
                double r = flows.get(discretionary.get(i)).arrivalRate();
                share[i] = remaining * (rate > 0 ? r / rate : 1.0 / share.length);
            }
            int[] units = largestRemainder(share, remaining);
            for (int i = 0; i < share.length; i++) {
                fixed[discretionary.get(i)] = minUnits + units[i];
            }
            return true;
        }
        return false;
    }

    /** The smallest units in [0, limit] that meet, or Integer.MAX_VALUE when even the limit does not (the test is monotone). */
    static int smallestUnits(IntPredicate meets, int limit) {
        if (!meets.test(limit)) {
            return Integer.MAX_VALUE;
        }
        int lo = -1;
        int hi = limit;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (mid > 0 && meets.test(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    private static int[] largestRemainder(double[] share, int total) {
        int[] out = new int[share.length];
        int given = 0;
        for (int i = 0; i < share.length; i++) {
            out[i] = (int) Math.floor(share[i]);
            given += out[i];
        }
        while (given < total) {
            int best = 0;
            for (int i = 1; i < share.length; i++) {
                if (share[i] - out[i] > share[best] - out[best]) {
                    best = i;
                }
            }
            out[best]++;
            given++;
        }
        return out;
    }
}
