package io.slagate.rm;

import io.slagate.config.Combining;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.model.ModelCorrection;
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
    private final ControlSetup setup;
    private final ModelCorrection correction;
    private final FlowKeys keys;
    private final ErrorBudgets budgets;

    ClassLevelSolve(ControlSetup setup, ModelCorrection correction, FlowKeys keys, ErrorBudgets budgets) {
        this.budgets = budgets;
        this.setup = setup;
        this.correction = correction;
        this.keys = keys;
    }

    /**
     * The units of each free flow of {@code p} (in the order of {@code p.free()}), Σ = its units, each ≥ its minimum;
     * null when no free flow has traffic (nothing to place by demand).
     *
     * @param full the pool's problem over every free flow, as the exact optimizer would solve it
     */
    Solution solve(PoolProblem p, AllocationProblem full) {
        if (full.concave() && full.combining() == Combining.SUM) {
            // every class concave and summed: the class tables' outer greedy is one greedy over all the flows, which needs
            // no table at all: the pool's units one at a time, O(U log K), the full problem's own exact path
            return AllocationOptimizer.greedy(full);
        }
        int minUnits = p.minUnits();
        Busy busy = Busy.of(p);
        List<Integer> classes = busy.classes();
        if (classes.isEmpty()) {
            return null;
        }
        int spare = Math.max(0, p.units() - minUnits * p.free().size());
        int[] cls = new int[classes.size()];
        AllocationProblem.FlowValue[] values = new AllocationProblem.FlowValue[classes.size()];
        ClassView[] views = new ClassView[classes.size()];
        boolean concave = true;
        for (int x = 0; x < classes.size(); x++) {
            cls[x] = x;
            concave &= setup.concave(classes.get(x))
                    && budgets.keepsConcave(classes.get(x), setup.config.controller().combining() == Combining.MIN);
            views[x] = view(p, full, classes.get(x), busy.flows().get(x), spare);
            values[x] = views[x].value();
        }
        // one flow per class with traffic (a class without one must not enter a min)
        AllocationProblem byClass = new AllocationProblem(classes.size(), cls, values, spare, 0, full.combining(), concave);
        Solution sol = AllocationOptimizer.solve(byClass);
        int[] target = new int[p.free().size()];
        Arrays.fill(target, minUnits);
        for (int x = 0; x < classes.size(); x++) {
            List<Integer> js = busy.flows().get(x);
            int classUnits = sol.units()[x];
            if (views[x].exact() != null) {
                for (int j : views[x].exact().first(classUnits)) {
                    target[j]++;
                }
                continue;
            }
            double[] rates = js.stream().mapToDouble(j -> p.freeFlow(j).obs().rateAhead()).toArray();
            int[] units = split(rates, js, classUnits + minUnits * js.size(), minUnits, full);
            for (int y = 0; y < js.size(); y++) {
                target[js.get(y)] = units[y];
            }
            correction.decidedAt(keys.of(FlowKeys.WHOLE_CLASS, classes.get(x)), views[x].aggregate());
        }
        return new Solution(target, AllocationOptimizer.objective(full, target), "classes+" + sol.method());
    }

    /**
     * A class's value at k units above its flows' minimums: the exact marginal table when its utility is concave
     * ({@code exact}), else its flows seen as one ({@code aggregate}), whose measurement the correction observes.
     */
    private record ClassView(AllocationProblem.FlowValue value, MarginalTable exact, FlowObservation aggregate) {
    }

    private ClassView view(PoolProblem p, AllocationProblem full, int c, List<Integer> js, int spare) {
        if (setup.concave(c) && budgets.keepsConcave(c, setup.config.controller().combining() == Combining.MIN)) {
            MarginalTable t = MarginalTable.of(full, js, p.minUnits(), spare);
            return new ClassView(k -> t.value()[k], t, null);
        }
        FlowObservation o = aggregate(js.stream().map(j -> p.freeFlow(j).obs()).toList());
        String key = keys.of(FlowKeys.WHOLE_CLASS, c);
        correction.observe(key, o, setup.model);
        ClassGoals goal = setup.goals(c);
        int n = js.size();
        int base = p.minUnits() * n;
        double resolution = p.resolution();
        ModelCorrection.Curve curve = correction.curve(key, setup.model, o);
        boolean min = setup.config.controller().combining() == Combining.MIN;
        return new ClassView(k -> n * budgets.weigh(c, goal.utility(curve, (base + k) * resolution), min), null, o);
    }

    /** The classes with traffic among a pool's free flows, and per class the indexes j into the free flows of its busy ones. */
    private record Busy(List<Integer> classes, List<List<Integer>> flows) {
        static Busy of(PoolProblem p) {
            List<Integer> classes = new ArrayList<>();
            List<List<Integer>> flows = new ArrayList<>();
            for (int j = 0; j < p.free().size(); j++) {
                PoolFlows.Flow f = p.freeFlow(j);
                if (f.idle()) {
                    continue;
                }
                int at = classes.indexOf(f.cls());
                if (at < 0) {
                    classes.add(f.cls());
                    flows.add(new ArrayList<>());
                    at = classes.size() - 1;
                }
                flows.get(at).add(j);
            }
            return new Busy(classes, flows);
        }
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

        /** The flows given the class's first {@code k} units, one entry per unit (a flow as often as it got one). */
        int[] first(int k) {
            return Arrays.copyOf(pick, k);
        }
    }

    /** A class's flows as one: rates, throughputs and slots summed; times averaged by rate (by throughput for S). */
    static FlowObservation aggregate(List<FlowObservation> observed) {
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
        for (FlowObservation o : observed) {
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
     * The class's {@code total} units, its flows' minimums included, over its flows {@code js} (rates ahead
     * {@code rates}, in the same order) in proportion to their rates (each at least {@code minUnits}), returned in that
     * order: the share per request is then the same at every gateway, as the class's
     * prediction assumed. Each flow gets the floor of its proportional share; the few units left (fewer than the
     * flows) go one at a time to the flow whose utility gains most from one more, so that rounding costs least
     * where a flow runs close to its saturation. The sum is exactly the class's units.
     */
    static int[] split(double[] rates, List<Integer> js, int total, int minUnits, AllocationProblem full) {
        double rate = 0;
        for (double r : rates) {
            rate += r;
        }
        double[] exact = new double[js.size()];
        int[] units = new int[js.size()];
        int given = 0;
        for (int y = 0; y < js.size(); y++) {
            exact[y] = rate > 0 ? total * rates[y] / rate : (double) total / js.size();
            units[y] = Math.max(minUnits, (int) Math.floor(exact[y] + 1e-9));
            given += units[y];
        }
        if (given > total) { // minimums above some proportional shares: the nearest rounding instead
            return CapPartition.round(exact, total, minUnits);
        }
        PriorityQueue<double[]> gains = new PriorityQueue<>((x, y) -> x[0] != y[0] ? Double.compare(y[0], x[0])
                : Double.compare(x[1], y[1]));
        for (int y = 0; y < js.size(); y++) {
            gains.add(new double[] {gain(full, js.get(y), units[y]), y});
        }
        for (int left = total - given; left > 0; left--) {
            int y = (int) gains.poll()[1];
            units[y]++;
            gains.add(new double[] {gain(full, js.get(y), units[y]), y});
        }
        return units;
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
