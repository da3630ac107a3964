package io.slagate.rm;

import io.slagate.config.Combining;
import io.slagate.rm.model.ModelCorrection;
import io.slagate.rm.optimize.AllocationOptimizer;
import io.slagate.rm.optimize.AllocationProblem;
import io.slagate.rm.optimize.Solution;
import java.util.ArrayList;
import java.util.List;

/**
 * A pool's allocation under importance levels ({@link ImportanceTiers}): the tiers fix some flows' units, and the
 * optimizer places the rest among the flows they leave free, over those flows' classes only (a class without a free
 * flow must not enter a min). Not thread-safe: the control loop's thread.
 */
final class TieredSolve {
    private final ControlSetup setup;
    private final ModelCorrection correction;
    private final ErrorBudgets budgets;

    TieredSolve(ControlSetup setup, ModelCorrection correction, ErrorBudgets budgets) {
        this.budgets = budgets;
        this.setup = setup;
        this.correction = correction;
    }

    /** The units of each free flow of {@code p} (the objective is not computed: NaN). */
    Solution solve(PoolProblem p) {
        List<ImportanceTiers.Flow> tiers = new ArrayList<>();
        double resolution = p.resolution();
        for (int j = 0; j < p.free().size(); j++) {
            PoolFlows.Flow f = p.freeFlow(j);
            ClassGoals goal = setup.goals(f.cls());
            ModelCorrection.Curve curve = correction.curve(f.key(), setup.model, f.obs());
            tiers.add(new ImportanceTiers.Flow(setup.cls(f.cls()).importance(), setup.cls(f.cls()).discretionary(), !f.idle(),
                    f.obs().arrivalRate(), kk -> goal.meets(curve, kk * resolution)));
        }
        ImportanceTiers.Plan plan = ImportanceTiers.plan(tiers, p.units(), p.minUnits());
        int[] out = plan.fixed().clone();
        if (!plan.anyFree()) {
            return new Solution(out, Double.NaN, "tiers (" + plan.note() + ")");
        }
        List<Integer> freeFlows = new ArrayList<>();
        List<Integer> classes = new ArrayList<>();
        int left = p.units();
        for (int j = 0; j < out.length; j++) {
            if (out[j] >= 0) {
                left -= out[j];
            } else {
                freeFlows.add(j);
                left -= plan.floor()[j];
                int c = p.freeFlow(j).cls();
                if (!classes.contains(c)) {
                    classes.add(c);
                }
            }
        }
        int[] cls = new int[freeFlows.size()];
        AllocationProblem.FlowValue[] values = new AllocationProblem.FlowValue[freeFlows.size()];
        for (int x = 0; x < freeFlows.size(); x++) {
            int j = freeFlows.get(x);
            PoolFlows.Flow f = p.freeFlow(j);
            cls[x] = classes.indexOf(f.cls());
            ClassGoals goal = setup.goals(f.cls());
            int floor = plan.floor()[j];
            ModelCorrection.Curve curve = correction.curve(f.key(), setup.model, f.obs());
            int c = f.cls();
            boolean min = setup.config.controller().combining() == Combining.MIN;
            values[x] = kk -> budgets.weigh(c, goal.utility(curve, (floor + kk) * resolution), min);
        }
        Solution sol = AllocationOptimizer.dynamicProgramming(new AllocationProblem(classes.size(), cls, values, Math.max(0, left), 0,
                setup.config.controller().combining(), false));
        for (int x = 0; x < freeFlows.size(); x++) {
            int j = freeFlows.get(x);
            out[j] = plan.floor()[j] + sol.units()[x];
        }
        return new Solution(out, Double.NaN, "tiers+" + sol.method() + " (" + plan.note() + ")");
    }
}
