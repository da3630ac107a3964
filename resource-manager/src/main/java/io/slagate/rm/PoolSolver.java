package io.slagate.rm;

import io.slagate.bus.message.DecisionMessage.FlowDecision;
import io.slagate.config.Combining;
import io.slagate.config.ServerConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.rm.FlowObserver.Flows;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.optimize.AllocationOptimizer;
import io.slagate.rm.optimize.AllocationProblem;
import io.slagate.rm.optimize.Damper;
import io.slagate.rm.optimize.Solution;
import io.slagate.util.LogLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pool's decision, over the manager's reports and state (eq. 2–9): observe each flow (g, c),
 * split the pool's N_s statically or solve the allocation problem (exactly, or importance tier by
 * tier), damp the move from the last decision, and describe it; the flows' forecasts and the pool's
 * capacity deficit are worked out on the way. Not thread-safe: the manager's thread, like the manager.
 */
final class PoolSolver {
    private static final Logger LOG = LoggerFactory.getLogger(ResourceManager.class);
    private final ResourceManager rm;
    private final FlowObserver observer;
    private final ClassLevelSolve byClass;

    PoolSolver(ResourceManager rm) {
        this.rm = rm;
        this.observer = new FlowObserver(rm);
        this.byClass = new ClassLevelSolve(rm, observer);
    }

    record PoolResult(String[] flowGateway, int[] flowClass, double[] weight, double objective,
                      List<FlowDecision> decisions, String summary, CapacityDeficit.Result deficit) {
    }

    PoolResult solvePool(String pool, List<Integer> poolClasses, List<String> gws, int n, double resolution, long nowNanos) {
        Flows flows = observer.observeFlows(poolClasses, gws, nowNanos);
        int k = flows.size();
        double[] weight = new double[k];
        int totalUnits = (int) Math.floor(n / resolution + 1e-9);
        int pinnedUnits = 0;
        List<Integer> free = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            Double fixed = flows.pinned()[i] != null ? flows.pinned()[i] : flows.prior()[i];
            if (fixed != null) {
                weight[i] = fixed;
                pinnedUnits += (int) Math.round(fixed / resolution);
            } else {
                free.add(i);
            }
        }
        int units = Math.max(0, totalUnits - pinnedUnits);
        String method;
        if (free.isEmpty()) {
            method = "pinned";
        } else if (!flows.anyTraffic()) {
            // No traffic anywhere in the pool: nothing to optimize; use the configured static shares.
            double staticTotal = 0;
            for (int i : free) {
                staticTotal += staticWeight(flows.cls()[i]);
            }
            for (int i : free) {
                weight[i] = Math.floor(units * staticWeight(flows.cls()[i]) / staticTotal) * resolution;
            }
            method = "static (no traffic)";
        } else {
            method = optimize(pool, poolClasses, flows, free, n, units, resolution, weight);
        }
        double[] perClass = new double[rm.config.classes().size()];
        StringBuilder summary = new StringBuilder(method).append(" [");
        List<FlowDecision> decisions = describe(flows, weight, perClass, summary);
        summary.append(']');
        return new PoolResult(flows.gateway(), flows.cls(), weight, objective(poolClasses, perClass), decisions, summary.toString(),
                deficit(pool, n, resolution, flows));
    }

    /** The free flows' weights into {@code weight}: solved (exactly, or tier by tier), kept within the dead band, damped. */
    private String optimize(String pool, List<Integer> poolClasses, Flows flows, List<Integer> free, int n, int units,
                            double resolution,
                            double[] weight) {
        int minUnits = (int) Math.round(rm.config.controller().minWeight() / resolution);
        if ((long) minUnits * free.size() > units) {
            int equal = units / free.size();
            LOG.warn("pool {}: N = {} is smaller than {} flows × minimum weight {}; each flow's minimum becomes {}",
                    pool, n, free.size(), rm.config.controller().minWeight(), equal * resolution);
            minUnits = equal;
        }
        int[] target;
        boolean kept = false;
        String how;
        List<String> flowKeys = new ArrayList<>();
        for (int i : free) {
            flowKeys.add(flows.gateway()[i] + "/" + flows.cls()[i]);
        }
        if (tiered(poolClasses)) {
            Tiered t = solveTiers(free, flows.gateway(), flows.cls(), flows.obs(), units, minUnits, resolution, poolClasses);
            target = t.units();
            how = t.method();
        } else {
            AllocationProblem problem = problem(poolClasses, flows, free, units, minUnits, resolution);
            Solution sol = rm.config.controller().solveByClass(free.size(), problem.concave())
                    ? byClass.solve(flows, free, units, minUnits, resolution, problem) : null;
            if (sol == null) {
                sol = AllocationOptimizer.solve(problem);
            }
            target = sol.units();
            how = sol.method();
            int[] keep = withinDeadBand(pool, poolClasses, problem, sol, flowKeys, units);
            if (keep != null) {
                target = keep;
                kept = true;
            }
        }
        boolean[] idle = new boolean[free.size()];
        for (int j = 0; j < free.size(); j++) {
            idle[j] = flows.obs()[free.get(j)].isEmpty();
        }
        int[] chosen = rm.damper.damp(pool, flowKeys, units, minUnits, target, idle, rm.config.controller().damping());
        for (int j = 0; j < free.size(); j++) {
            weight[free.get(j)] = chosen[j] * resolution;
        }
        return how + (kept ? " kept (gain < minGain)" : chosen == target ? "" : " damped");
    }

    private AllocationProblem problem(List<Integer> poolClasses, Flows flows, List<Integer> free, int units, int minUnits,
                                      double resolution) {
        int[] cls = new int[free.size()];
        AllocationProblem.FlowValue[] values = new AllocationProblem.FlowValue[free.size()];
        boolean allConcave = true;
        for (int j = 0; j < free.size(); j++) {
            int i = free.get(j);
            cls[j] = poolClasses.indexOf(flows.cls()[i]);
            values[j] = value(flows.gateway()[i], flows.cls()[i], flows.obs()[i], resolution, 0);
            allConcave &= rm.concave[flows.cls()[i]];
        }
        return new AllocationProblem(poolClasses.size(), cls, values, units, minUnits, rm.config.controller().combining(), allConcave);
    }

    /**
     * The last decision's units when the solution gains too little over them to be worth the move, else null. Moving
     * costs something real (a transient), and a predicted gain this small is noise. Utilities are in seconds (eq. 7):
     * the band is a fraction of the pool's tightest target.
     */
    private int[] withinDeadBand(String pool, List<Integer> poolClasses, AllocationProblem problem, Solution sol, List<String> flowKeys,
                                 int units) {
        Damper.Last prev = rm.damper.last(pool);
        if (rm.config.controller().minGain() <= 0 || prev == null || !prev.flows().equals(flowKeys) || prev.total() != units
                || !Arrays.stream(prev.units()).allMatch(u -> u >= problem.minUnits())) {
            return null;
        }
        double tightest = Double.POSITIVE_INFINITY;
        for (int c : poolClasses) {
            tightest = Math.min(tightest, rm.goals[c].tightestSeconds());
        }
        double keep = AllocationOptimizer.objective(problem, prev.units());
        return sol.objective() - keep < rm.config.controller().minGain() * tightest ? prev.units() : null;
    }

    /** The most flows the cycle's log line names one by one. */
    static final int SUMMARY_FLOWS = 32;

    /** Each flow's decision at its weight (floored), its utility added to its class's in {@code perClass}, and the summary. */
    private List<FlowDecision> describe(Flows flows, double[] weight, double[] perClass, StringBuilder sb) {
        List<FlowDecision> decisions = new ArrayList<>();
        FlowObservation[] obs = flows.obs();
        for (int i = 0; i < flows.size(); i++) {
            double w = Math.max(ResourceManager.WEIGHT_FLOOR, weight[i]);
            weight[i] = w;
            String key = observer.flowKey(flows.gateway()[i], flows.cls()[i]);
            int c = flows.cls()[i];
            double predicted = rm.correction.predict(key, rm.model, obs[i], w);
            rm.correction.decidedAt(key, obs[i]);
            double u = rm.goals[c].utility(key, rm.correction, rm.model, obs[i], w);
            perClass[c] += u;
            String cn = rm.config.classes().get(c).name();
            decisions.add(new FlowDecision(flows.gateway()[i], cn, obs[i].arrivalRate(), obs[i].responseSeconds(),
                    obs[i].weight(), w, predicted, u, flows.pinned()[i] != null, rm.model.nameFor(obs[i]), rm.correction.error(key),
                    rm.correction.gain(key), rm.goals[c].predictedPercentile(key, rm.correction, rm.model, obs[i], w),
                    obs[i].forecastRate()));
            if (i == SUMMARY_FLOWS) {
                sb.append(", … ").append(flows.size() - i).append(" more flows");
            }
            if (i >= SUMMARY_FLOWS) {
                continue; // a log line per cycle, not a page
            }
            sb.append(i == 0 ? "" : ", ").append(flows.gateway()[i]).append('/').append(cn)
                    .append(" λ=").append(rm.fmt(obs[i].arrivalRate())).append(" t=").append(rm.fmt(obs[i].responseSeconds()))
                    .append(" w~=").append(rm.fmt(obs[i].weight())).append(" → w=").append(rm.fmt(w))
                    .append(" t(w)=").append(rm.fmt(predicted)).append(" U=").append(rm.fmt(u));
        }
        return decisions;
    }

    /** The pool's utility (eq. 2, or the minimum over classes): the discretionary class has no utility to count. */
    private double objective(List<Integer> poolClasses, double[] perClass) {
        boolean byMin = rm.config.controller().combining() == Combining.MIN;
        double objective = byMin ? Double.POSITIVE_INFINITY : 0;
        for (int c : poolClasses) {
            if (rm.config.classes().get(c).hasGoal()) {
                objective = byMin ? Math.min(objective, perClass[c]) : objective + perClass[c];
            }
        }
        return objective;
    }

    private CapacityDeficit.Result deficit(String pool, int n, double resolution, Flows flows) {
        List<CapacityDeficit.Flow> demand = new ArrayList<>();
        for (int i = 0; i < flows.size(); i++) {
            if (!flows.obs()[i].isEmpty() && rm.config.classes().get(flows.cls()[i]).hasGoal()) {
                FlowObservation o = flows.obs()[i];
                TrafficClassConfig tc = rm.config.classes().get(flows.cls()[i]);
                ClassGoals goal = rm.goals[flows.cls()[i]];
                double bound = rm.config.controller().correctionBound();
                demand.add(new CapacityDeficit.Flow(tc.name(), w -> goal.meetsForCapacity(rm.model, o, w, bound),
                        w -> goal.modelMeets(rm.model, o, w)));
            }
        }
        double slotsPerServer = rm.config.servers().stream().filter(x -> x.pool().equals(pool)).mapToInt(ServerConfig::concurrency)
                .average().orElse(1);
        return CapacityDeficit.of(pool, n, slotsPerServer, resolution, demand);
    }

    private final LogLimiter blownWarnings = new LogLimiter(Duration.ofSeconds(10));

    /** A prediction that missed by over 10×: said at WARN, at most every 10 s, with what led to it. */
    void blown(String what) {
        if (blownWarnings.allow()) {
            LOG.warn("{} — the {} model is wrong here", what, rm.model.name());
        }
    }


    /** U_c of flow (g, c) at {@code floor + k} units, for the optimizer. */
    AllocationProblem.FlowValue value(String g, int c, FlowObservation o, double resolution, int floor) {
        ClassGoals goal = rm.goals[c];
        String key = observer.flowKey(g, c);
        return kk -> goal.utility(key, rm.correction, rm.model, o, (floor + kk) * resolution);
    }

    /** Whether the pool's classes use importance levels or a discretionary class (else the paper's single objective). */
    boolean tiered(List<Integer> poolClasses) {
        Set<Integer> levels = new HashSet<>();
        for (int c : poolClasses) {
            TrafficClassConfig tc = rm.config.classes().get(c);
            if (tc.discretionary()) {
                return true;
            }
            levels.add(tc.importance());
        }
        return levels.size() > 1;
    }

    record Tiered(int[] units, String method) {
    }

    /**
     * The allocation under importance levels ({@link ImportanceTiers}): the tiers fix some flows' units,
     * and the optimizer places the rest among the flows they leave free, over those flows' classes only
     * (a class without a free flow must not enter a min).
     */
    Tiered solveTiers(List<Integer> free, String[] flowGateway, int[] flowClass, FlowObservation[] obs, int units,
                              int minUnits, double resolution, List<Integer> poolClasses) {
        List<ImportanceTiers.Flow> tiers = new ArrayList<>();
        for (int i : free) {
            TrafficClassConfig tc = rm.config.classes().get(flowClass[i]);
            ClassGoals goal = rm.goals[flowClass[i]];
            String key = observer.flowKey(flowGateway[i], flowClass[i]);
            FlowObservation o = obs[i];
            tiers.add(new ImportanceTiers.Flow(tc.importance(), tc.discretionary(), !o.isEmpty(), o.arrivalRate(),
                    kk -> goal.meets(key, rm.correction, rm.model, o, kk * resolution)));
        }
        ImportanceTiers.Plan plan = ImportanceTiers.plan(tiers, units, minUnits);
        int[] out = plan.fixed().clone();
        if (!plan.anyFree()) {
            return new Tiered(out, "tiers (" + plan.note() + ")");
        }
        List<Integer> freeFlows = new ArrayList<>();
        List<Integer> classes = new ArrayList<>();
        int left = units;
        for (int j = 0; j < out.length; j++) {
            if (out[j] >= 0) {
                left -= out[j];
            } else {
                freeFlows.add(j);
                left -= plan.floor()[j];
                int c = flowClass[free.get(j)];
                if (!classes.contains(c)) {
                    classes.add(c);
                }
            }
        }
        int[] cls = new int[freeFlows.size()];
        AllocationProblem.FlowValue[] values = new AllocationProblem.FlowValue[freeFlows.size()];
        for (int x = 0; x < freeFlows.size(); x++) {
            int j = freeFlows.get(x);
            int i = free.get(j);
            cls[x] = classes.indexOf(flowClass[i]);
            values[x] = value(flowGateway[i], flowClass[i], obs[i], resolution, plan.floor()[j]);
        }
        Solution sol = AllocationOptimizer.dynamicProgramming(new AllocationProblem(classes.size(), cls, values, Math.max(0, left), 0,
                rm.config.controller().combining(), false));
        for (int x = 0; x < freeFlows.size(); x++) {
            int j = freeFlows.get(x);
            out[j] = plan.floor()[j] + sol.units()[x];
        }
        return new Tiered(out, "tiers+" + sol.method() + " (" + plan.note() + ")");
    }

    double staticWeight(int c) {
        return rm.config.allocation().weights().getOrDefault(rm.config.classes().get(c).name(), 1.0);
    }
}
