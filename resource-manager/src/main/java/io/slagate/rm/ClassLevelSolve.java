package io.slagate.rm;

import io.slagate.config.Combining;
import io.slagate.rm.FlowObserver.Flows;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.optimize.AllocationOptimizer;
import io.slagate.rm.optimize.AllocationProblem;
import io.slagate.rm.optimize.CapPartition;
import io.slagate.rm.optimize.Solution;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The allocation problem over a pool's classes, then their gateways, for pools with many gateways
 * ({@code controller.solve}): the optimizer places the pool's units among the classes by each class's table
 * h_c(k), the best Σ_g U_c with k units, and each class's units then go to its gateways as the table placed them.
 * <ul>
 *   <li>A class whose utility is concave in the share: its table is built by giving each next unit to the flow that
 *   gains most (the marginal gains only fall, so this is optimal at every k), in O(U log G) utility evaluations
 *   instead of the full DP's O(G·U²). The result is the full DP's optimum.</li>
 *   <li>Any other class is seen as one flow: its gateways' arrival rates, throughputs and slots summed, their response
 *   and service times averaged by rate, its value at k units the sum over its busy gateways of U_c at that one
 *   prediction. Its units are split across its gateways in proportion to their demand (eq. 5–6's way of splitting
 *   N_s), so every request of the class gets the same predicted response time. Approximate: a gateway whose flow
 *   answers differently gets only its demand's share, and rounding can leave a flow just past a step.</li>
 * </ul>
 * Where every class is concave and the classes are summed (eq. 2a), the tables' outer greedy is one greedy over all
 * the flows, which is the full problem's own exact path (O(U log K)) and is taken as is. A cycle's work grows with
 * classes × units², not with gateways × classes × units². Idle flows keep the minimum. Not thread-safe: the
 * manager's thread.
 */
final class ClassLevelSolve {
    private final ResourceManager rm;
    private final FlowObserver observer;

    ClassLevelSolve(ResourceManager rm, FlowObserver observer) {
        this.rm = rm;
        this.observer = observer;
    }

    /**
     * The units of each free flow (indexes into {@code free}), Σ = {@code units}, each ≥ {@code minUnits}; null when no
     * free flow has traffic (nothing to place by demand).
     */
    Solution solve(Flows flows, List<Integer> free, int units, int minUnits, double resolution,
                   AllocationProblem full) {
        if (full.concave() && full.combining() == Combining.SUM) {
            // every class concave and summed: the class tables' outer greedy is one greedy over all the flows, which needs
            // no table at all: the pool's units one at a time, O(U log K), the full problem's own exact path
            return AllocationOptimizer.greedy(full);
        }
        int[] target = new int[free.size()];
        Arrays.fill(target, minUnits);
        List<Integer> classes = new ArrayList<>();
        List<List<Integer>> busy = new ArrayList<>(); // per class, the indexes j into free of its flows with traffic
        for (int j = 0; j < free.size(); j++) {
            int i = free.get(j);
            if (flows.obs()[i].isEmpty()) {
                continue;
            }
            int at = classes.indexOf(flows.cls()[i]);
            if (at < 0) {
                classes.add(flows.cls()[i]);
                busy.add(new ArrayList<>());
                at = classes.size() - 1;
            }
            busy.get(at).add(j);
        }
        if (classes.isEmpty()) {
            return null;
        }
        int spare = Math.max(0, units - minUnits * free.size());
        int[] cls = new int[classes.size()];
        AllocationProblem.FlowValue[] values = new AllocationProblem.FlowValue[classes.size()];
        FlowObservation[] aggregate = new FlowObservation[classes.size()];
        MarginalTable[] exact = new MarginalTable[classes.size()];
        boolean concave = true;
        for (int x = 0; x < classes.size(); x++) {
            int c = classes.get(x);
            List<Integer> js = busy.get(x);
            cls[x] = x;
            concave &= rm.concave[c];
            if (rm.concave[c]) {
                MarginalTable t = MarginalTable.of(full, js, minUnits, spare);
                exact[x] = t;
                values[x] = k -> t.value()[k];
                continue;
            }
            FlowObservation o = aggregate(flows, free, js);
            aggregate[x] = o;
            String key = classKey(c);
            rm.correction.observe(key, o, rm.model);
            ClassGoals goal = rm.goals[c];
            int n = js.size();
            int base = minUnits * n;
            values[x] = k -> n * goal.utility(key, rm.correction, rm.model, o, (base + k) * resolution);
        }
        // one flow per class with traffic (a class without one must not enter a min)
        AllocationProblem byClass = new AllocationProblem(classes.size(), cls, values, spare, 0, full.combining(), concave);
        Solution sol = AllocationOptimizer.solve(byClass);
        for (int x = 0; x < classes.size(); x++) {
            List<Integer> js = busy.get(x);
            int classUnits = sol.units()[x];
            if (exact[x] != null) {
                exact[x].place(classUnits, target);
                continue;
            }
            split(flows, free, js, classUnits, minUnits, full, target);
            double w = (classUnits + minUnits * js.size()) * resolution;
            String key = classKey(classes.get(x));
            rm.correction.decidedAt(key, aggregate[x]);
        }
        return new Solution(target, AllocationOptimizer.objective(full, target), "classes+" + sol.method());
    }

    /**
     * A class's best Σ_g U_c for every number of units above its flows' minimums, when its utility is concave in the
     * share: then the marginal gains only fall, and giving each next unit to the flow that gains most is optimal at
     * every count (the full DP's inner table, in O(U log G) utility evaluations instead of O(G·U²)).
     *
     * @param value {@code value[k]}: the class's utility with k units above the minimums
     * @param pick  {@code pick[k]}: the flow (index into the pool's free flows) given the (k+1)-th unit
     */
    record MarginalTable(double[] value, int[] pick) {
        static MarginalTable of(AllocationProblem full, List<Integer> js, int minUnits, int spare) {
            double[] value = new double[spare + 1];
            int[] pick = new int[spare];
            int[] units = new int[full.flowCount()];
            PriorityQueue<double[]> gains = new PriorityQueue<>((x, y) -> x[0] != y[0] ? Double.compare(y[0], x[0])
                    : Double.compare(x[1], y[1]));
            for (int j : js) {
                units[j] = minUnits;
                value[0] += full.value()[j].at(minUnits);
                gains.add(new double[] {gain(full, j, minUnits), j});
            }
            for (int k = 1; k <= spare; k++) {
                double[] best = gains.poll();
                int j = (int) best[1];
                pick[k - 1] = j;
                units[j]++;
                value[k] = value[k - 1] + full.value()[j].at(units[j]) - full.value()[j].at(units[j] - 1);
                gains.add(new double[] {gain(full, j, units[j]), j});
            }
            return new MarginalTable(value, pick);
        }

        /** The class's first {@code k} units given as the table did, onto {@code target} (each flow at its minimum). */
        void place(int k, int[] target) {
            for (int i = 0; i < k; i++) {
                target[pick[i]]++;
            }
        }
    }

    /** The correction's key of a class seen as one flow (no gateway id has '*'). */
    private String classKey(int c) {
        return observer.flowKey("*", c);
    }

    /** A class's flows {@code js} as one: rates, throughputs and slots summed; times averaged by rate (by throughput for S). */
    static FlowObservation aggregate(Flows flows, List<Integer> free, List<Integer> js) {
        double lambda = 0;
        double ahead = 0;
        boolean forecast = false;
        double weight = 0;
        double x = 0;
        double t = 0;
        double s = 0;
        double sWeight = 0;
        double p = 0;
        boolean percentile = true;
        for (int j : js) {
            FlowObservation o = flows.obs()[free.get(j)];
            lambda += o.arrivalRate();
            ahead += o.rateAhead();
            forecast |= o.rateAhead() != o.arrivalRate();
            weight += o.weight();
            x += o.throughput();
            t += o.arrivalRate() * o.responseSeconds();
            if (o.hasServiceTime() && o.throughput() > 0) {
                s += o.throughput() * o.serviceSeconds();
                sWeight += o.throughput();
            }
            if (o.percentileSeconds() > 0 && Double.isFinite(o.percentileSeconds())) {
                p += o.arrivalRate() * o.percentileSeconds();
            } else {
                percentile = false;
            }
        }
        return new FlowObservation(lambda, t / lambda, weight, x, sWeight > 0 ? s / sWeight : Double.NaN,
                percentile ? p / lambda : Double.NaN, forecast ? ahead : Double.NaN);
    }

    /**
     * The class's units, its flows' minimums included, over its flows {@code js} in proportion to their rates ahead
     * (each at least {@code minUnits}): the share per request is then the same at every gateway, as the class's
     * prediction assumed. Each flow gets the floor of its proportional share; the few units left (fewer than the
     * flows) go one at a time to the flow whose utility gains most from one more, so that rounding costs least
     * where a flow runs close to its saturation. The sum is exactly the class's units.
     */
    static void split(Flows flows, List<Integer> free, List<Integer> js, int classUnits, int minUnits, AllocationProblem full,
                      int[] target) {
        int total = classUnits + minUnits * js.size();
        double rate = 0;
        for (int j : js) {
            rate += flows.obs()[free.get(j)].rateAhead();
        }
        double[] exact = new double[js.size()];
        int given = 0;
        for (int y = 0; y < js.size(); y++) {
            exact[y] = rate > 0 ? total * flows.obs()[free.get(js.get(y))].rateAhead() / rate : (double) total / js.size();
            target[js.get(y)] = Math.max(minUnits, (int) Math.floor(exact[y] + 1e-9));
            given += target[js.get(y)];
        }
        if (given > total) { // minimums above some proportional shares: the nearest rounding instead
            int[] units = CapPartition.round(exact, total, minUnits);
            for (int y = 0; y < js.size(); y++) {
                target[js.get(y)] = units[y];
            }
            return;
        }
        PriorityQueue<double[]> gains = new PriorityQueue<>((x, y) -> x[0] != y[0] ? Double.compare(y[0], x[0])
                : Double.compare(x[1], y[1]));
        for (int j : js) {
            gains.add(new double[] {gain(full, j, target[j]), j});
        }
        for (int left = total - given; left > 0; left--) {
            int j = (int) gains.poll()[1];
            target[j]++;
            gains.add(new double[] {gain(full, j, target[j]), j});
        }
    }

    /**
     * What flow j's utility gains from one more unit than {@code units}: +∞ while it climbs out of an unbounded loss
     * (a flow that cannot keep up at this share comes first), −∞ where one more unit cannot make it finite.
     */
    private static double gain(AllocationProblem full, int j, int units) {
        double before = full.value()[j].at(units);
        double after = full.value()[j].at(units + 1);
        if (Double.isFinite(before) && Double.isFinite(after)) {
            return after - before;
        }
        return Double.isFinite(after) || after == Double.POSITIVE_INFINITY || Double.isNaN(before) || before == Double.NEGATIVE_INFINITY
                ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
    }
}
