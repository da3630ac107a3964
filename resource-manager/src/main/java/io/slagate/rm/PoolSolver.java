package io.slagate.rm;

import io.slagate.config.Combining;
import io.slagate.bus.message.DecisionMessage.FlowDecision;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.model.ModelCorrection;
import io.slagate.rm.optimize.AllocationOptimizer;
import io.slagate.rm.optimize.AllocationProblem;
import io.slagate.rm.optimize.Damper;
import io.slagate.rm.optimize.Solution;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One pool's decision from its problem (eq. 2–9): split the units statically while the pool has no traffic, else
 * solve the allocation problem (exactly, class by class, or importance tier by tier), keep the last decision where
 * the gain is too small to be worth a move, damp the move, and describe it. Not thread-safe: the control loop's thread.
 */
final class PoolSolver {
    /** Gateways require positive weights; a flow given 0 units gets this (no guarantee, work conservation still serves it). */
    static final double WEIGHT_FLOOR = 1e-3;
    /** The most flows the cycle's log line names one by one. */
    static final int SUMMARY_FLOWS = 32;

    private final ControlSetup setup;
    private final ModelCorrection correction;
    private final Damper damper;
    private final ClassLevelSolve byClass;
    private final TieredSolve tiers;
    private final ErrorBudgets budgets;

    PoolSolver(ControlSetup setup, ModelCorrection correction, Damper damper, FlowKeys keys, ErrorBudgets budgets) {
        this.setup = setup;
        this.correction = correction;
        this.damper = damper;
        this.budgets = budgets;
        this.byClass = new ClassLevelSolve(setup, correction, keys, budgets);
        this.tiers = new TieredSolve(setup, correction, budgets);
    }

    /** The free flows' units and how they were found. */
    private record Placed(int[] units, String method) {
    }

    PoolDecision solve(PoolProblem p) {
        PoolFlows flows = p.flows();
        double[] weight = new double[flows.size()];
        for (int i = 0; i < flows.size(); i++) {
            Double fixed = flows.get(i).fixed();
            weight[i] = fixed == null ? 0 : fixed;
        }
        String method;
        if (p.free().isEmpty()) {
            method = flows.all().stream().anyMatch(f -> f.pinned() != null) ? "pinned" : "held";
        } else {
            Placed placed = flows.anyTraffic() ? optimize(p) : staticSplit(p);
            for (int j = 0; j < p.free().size(); j++) {
                weight[p.free().get(j)] = placed.units()[j] * p.resolution();
            }
            method = placed.method();
        }
        return describe(p, weight, method);
    }

    /** No traffic anywhere in the pool: nothing to optimize; the configured static shares. */
    private Placed staticSplit(PoolProblem p) {
        double staticTotal = 0;
        for (int j = 0; j < p.free().size(); j++) {
            staticTotal += setup.staticWeight(p.freeFlow(j).cls());
        }
        int[] units = new int[p.free().size()];
        for (int j = 0; j < units.length; j++) {
            units[j] = (int) Math.floor(p.units() * setup.staticWeight(p.freeFlow(j).cls()) / staticTotal);
        }
        return new Placed(units, "static (no traffic)");
    }

    /** The free flows' units: solved (exactly, or tier by tier), kept within the dead band, damped. */
    private Placed optimize(PoolProblem p) {
        List<String> keys = p.freeKeys();
        int[] target;
        boolean kept = false;
        String how;
        if (setup.tiered(p.classes())) {
            Solution t = tiers.solve(p);
            target = t.units();
            how = t.method();
        } else {
            AllocationProblem problem = allocationProblem(p);
            Solution sol = setup.config.controller().solveByClass(p.free().size(), problem.concave())
                    ? byClass.solve(p, problem) : null;
            if (sol == null) {
                sol = AllocationOptimizer.solve(problem);
            }
            target = sol.units();
            how = sol.method();
            int[] keep = withinDeadBand(p, keys, problem, sol);
            if (keep != null) {
                target = keep;
                kept = true;
            }
        }
        boolean[] idle = new boolean[p.free().size()];
        for (int j = 0; j < idle.length; j++) {
            idle[j] = p.freeFlow(j).idle();
        }
        int[] chosen = damper.damp(p.pool(), keys, p.units(), p.minUnits(), target, idle, setup.config.controller().damping());
        return new Placed(chosen, how + (kept ? " kept (gain < minGain)" : chosen == target ? "" : " damped"));
    }

    private AllocationProblem allocationProblem(PoolProblem p) {
        int[] cls = new int[p.free().size()];
        AllocationProblem.FlowValue[] values = new AllocationProblem.FlowValue[p.free().size()];
        boolean allConcave = true;
        for (int j = 0; j < cls.length; j++) {
            PoolFlows.Flow f = p.freeFlow(j);
            cls[j] = p.classes().indexOf(f.cls());
            values[j] = value(f, p.resolution(), 0);
            allConcave &= setup.concave(f.cls()) && budgets.keepsConcave(f.cls(), setup.config.controller().combining() == Combining.MIN);
        }
        return new AllocationProblem(p.classes().size(), cls, values, p.units(), p.minUnits(), setup.config.controller().combining(),
                allConcave);
    }

    /** U_c of a flow at {@code floor + k} units, for the optimizer, weighed by its class's error budget ({@link ErrorBudgets}). */
    AllocationProblem.FlowValue value(PoolFlows.Flow f, double resolution, int floor) {
        ClassGoals goal = setup.goals(f.cls());
        ModelCorrection.Curve curve = correction.curve(f.key(), setup.model, f.obs());
        int c = f.cls();
        boolean min = setup.config.controller().combining() == Combining.MIN;
        return kk -> budgets.weigh(c, goal.utility(curve, (floor + kk) * resolution), min);
    }

    /**
     * The last decision's units when the solution gains too little over them to be worth the move, else null. Moving
     * costs something real (a transient), and a predicted gain this small is noise. Utilities are in seconds (eq. 7):
     * the band is a fraction of the pool's tightest target.
     */
    private int[] withinDeadBand(PoolProblem p, List<String> keys, AllocationProblem problem, Solution sol) {
        Damper.Last prev = damper.last(p.pool());
        double minGain = setup.config.controller().minGain();
        if (minGain <= 0 || prev == null || !prev.flows().equals(keys) || prev.total() != p.units()
                || !Arrays.stream(prev.units()).allMatch(u -> u >= problem.minUnits())) {
            return null;
        }
        double tightest = Double.POSITIVE_INFINITY;
        for (int c : p.classes()) {
            tightest = Math.min(tightest, setup.goals(c).tightestSeconds());
        }
        double keep = AllocationOptimizer.objective(problem, prev.units());
        return sol.objective() - keep < minGain * tightest ? prev.units() : null;
    }

    /** Each flow's decision at its weight (floored), the pool's utility over its goal classes, and the log's summary. */
    private PoolDecision describe(PoolProblem p, double[] weight, String method) {
        PoolFlows flows = p.flows();
        List<FlowDecision> decisions = new ArrayList<>(flows.size());
        double[] perClass = new double[setup.classCount()];
        StringBuilder sb = new StringBuilder(method).append(" [");
        for (int i = 0; i < flows.size(); i++) {
            PoolFlows.Flow f = flows.get(i);
            FlowObservation o = f.obs();
            double w = Math.max(WEIGHT_FLOOR, weight[i]);
            ClassGoals goal = setup.goals(f.cls());
            ModelCorrection.Curve curve = correction.curve(f.key(), setup.model, o);
            double predicted = curve.mean(w);
            correction.decidedAt(curve);
            double u = goal.utility(curve, w, predicted);
            perClass[f.cls()] += u;
            String cn = setup.cls(f.cls()).name();
            decisions.add(new FlowDecision(f.gateway(), cn, o.arrivalRate(), o.responseSeconds(), o.weight(), w, predicted, u,
                    f.pinned() != null, setup.model.nameFor(o), curve.error(), curve.gain(),
                    goal.predictedPercentile(curve, w), o.forecastRate()));
            if (i == SUMMARY_FLOWS) {
                sb.append(", … ").append(flows.size() - i).append(" more flows");
            }
            if (i < SUMMARY_FLOWS) { // a log line per cycle, not a page
                sb.append(i == 0 ? "" : ", ").append(f.gateway()).append('/').append(cn)
                        .append(" λ=").append(fmt(o.arrivalRate())).append(" t=").append(fmt(o.responseSeconds()))
                        .append(" w~=").append(fmt(o.weight())).append(" → w=").append(fmt(w))
                        .append(" t(w)=").append(fmt(predicted)).append(" U=").append(fmt(u));
            }
        }
        sb.append(']');
        return new PoolDecision(decisions, objective(p.classes(), perClass), sb.toString(), deficit(p));
    }

    /** The pool's utility (eq. 2, or the minimum over classes): the discretionary class has no utility to count. */
    private double objective(List<Integer> poolClasses, double[] perClass) {
        double objective = setup.combineStart();
        for (int c : poolClasses) {
            if (setup.cls(c).hasGoal()) {
                objective = setup.combine(objective, perClass[c]);
            }
        }
        return objective;
    }

    private CapacityDeficit.Result deficit(PoolProblem p) {
        List<CapacityDeficit.Flow> demand = new ArrayList<>();
        double bound = setup.config.controller().correctionBound();
        for (PoolFlows.Flow f : p.flows().all()) {
            if (!f.idle() && setup.cls(f.cls()).hasGoal()) {
                FlowObservation o = f.obs();
                ClassGoals goal = setup.goals(f.cls());
                demand.add(new CapacityDeficit.Flow(setup.cls(f.cls()).name(), goal.capacityTest(setup.model, o, bound),
                        w -> goal.modelMeets(setup.model, o, w), goal.measuredMeets(o)));
            }
        }
        return CapacityDeficit.of(p.pool(), p.slots(), p.slotsPerServer(), p.resolution(), demand);
    }

    static String fmt(double v) {
        return Double.isFinite(v) ? String.format("%.3f", v) : String.valueOf(v);
    }
}
