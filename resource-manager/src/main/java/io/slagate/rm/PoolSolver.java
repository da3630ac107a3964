package io.slagate.rm;

import io.slagate.config.ServerConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.bus.message.DecisionMessage.FlowDecision;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.optimize.AllocationOptimizer;
import io.slagate.rm.optimize.AllocationProblem;
import io.slagate.rm.optimize.CapPartition;
import io.slagate.rm.optimize.Solution;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pool's decision, over the manager's reports and state (eq. 2–9): observe each flow (g, c),
 * split the pool's N_s statically or solve the allocation problem (exactly, or importance tier by
 * tier), damp the move from the last decision, and describe it; the flows' forecasts and the pool's
 * capacity deficit are worked out on the way. Not thread-safe: the manager's thread, like the manager.
 */
final class PoolSolver {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ResourceManager.class);
    private final ResourceManager rm;

    PoolSolver(ResourceManager rm) {
        this.rm = rm;
    }

    record PoolResult(String[] flowGateway, int[] flowClass, double[] weight, double objective,
                      List<FlowDecision> decisions, String summary, CapacityDeficit.Result deficit) {
    }



    PoolResult solvePool(String pool, List<Integer> poolClasses, List<String> gws, int n, double resolution, long nowNanos) {
        int k = gws.size() * poolClasses.size();
        String[] flowGateway = new String[k];
        int[] flowClass = new int[k];
        FlowObservation[] obs = new FlowObservation[k];
        Double[] pinned = new Double[k];
        Double[] prior = new Double[k];
        int f = 0;
        boolean anyTraffic = false;
        for (String g : gws) {
            for (int c : poolClasses) {
                flowGateway[f] = g;
                flowClass[f] = c;
                obs[f] = observe(g, c, poolClasses);
                if (obs[f] == NON_FINITE) {
                    Double kept = lastWeight(g, c);
                    if (kept != null && rm.overrides.weight(g, rm.config.classes().get(c).name(), nowNanos) == null) {
                        // a broken measurement says nothing: this flow keeps the weight in force, the others share the rest
                        prior[f] = kept;
                    }
                    obs[f] = FlowObservation.NONE;
                }
                rm.correction.observe(flowKey(g, c), obs[f], resolution);
                obs[f] = ahead(flowKey(g, c), obs[f], windowSeconds(g));
                anyTraffic |= !obs[f].isEmpty();
                pinned[f] = rm.overrides.weight(g, rm.config.classes().get(c).name(), nowNanos);
                if (pinned[f] == null && prior[f] == null && !reported(g)) {
                    prior[f] = fairShare(g, c);
                }
                f++;
            }
        }
        double[] weight = new double[k];
        int totalUnits = (int) Math.floor(n / resolution + 1e-9);
        int pinnedUnits = 0;
        List<Integer> free = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            Double fixed = pinned[i] != null ? pinned[i] : prior[i];
            if (fixed != null) {
                weight[i] = fixed;
                pinnedUnits += (int) Math.round(fixed / resolution);
            } else {
                free.add(i);
            }
        }
        int units = Math.max(0, totalUnits - pinnedUnits);
        int minUnits = (int) Math.round(rm.config.controller().minWeight() / resolution);
        String method;
        double objective;
        if (free.isEmpty()) {
            method = "pinned";
        } else if (!anyTraffic) {
            // No traffic anywhere in the pool: nothing to optimize; use the configured static shares.
            double staticTotal = 0;
            for (int i : free) {
                staticTotal += staticWeight(flowClass[i]);
            }
            for (int i : free) {
                weight[i] = Math.floor(units * staticWeight(flowClass[i]) / staticTotal) * resolution;
            }
            method = "static (no traffic)";
        } else {
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
                flowKeys.add(flowGateway[i] + "/" + flowClass[i]);
            }
            if (tiered(poolClasses)) {
                Tiered t = solveTiers(free, flowGateway, flowClass, obs, units, minUnits, resolution, poolClasses);
                target = t.units();
                how = t.method();
            } else {
                int[] cls = new int[free.size()];
                AllocationProblem.FlowValue[] values = new AllocationProblem.FlowValue[free.size()];
                boolean allConcave = true;
                for (int j = 0; j < free.size(); j++) {
                    int i = free.get(j);
                    cls[j] = poolClasses.indexOf(flowClass[i]);
                    values[j] = value(flowGateway[i], flowClass[i], obs[i], resolution, 0);
                    allConcave &= rm.concave[flowClass[i]];
                }
                AllocationProblem problem = new AllocationProblem(poolClasses.size(), cls, values, units, minUnits,
                        rm.config.controller().combining(), allConcave);
                Solution sol = AllocationOptimizer.solve(problem);
                target = sol.units();
                how = sol.method();
                ResourceManager.LastUnits prev = rm.lastUnits.get(pool);
                if (rm.config.controller().minGain() > 0 && prev != null && prev.flows().equals(flowKeys) && prev.total() == units
                        && java.util.Arrays.stream(prev.units()).allMatch(u -> u >= problem.minUnits())) {
                    // dead band: moving costs something real (a transient), and a predicted gain this small is noise.
                    // Utilities are in seconds (eq. 7): the band is a fraction of the pool's tightest target.
                    double tightest = Double.POSITIVE_INFINITY;
                    for (int c : poolClasses) {
                        tightest = Math.min(tightest, rm.goals[c].tightestSeconds());
                    }
                    double keep = AllocationOptimizer.objective(problem, prev.units());
                    if (sol.objective() - keep < rm.config.controller().minGain() * tightest) {
                        target = prev.units();
                        kept = true;
                    }
                }
            }
            boolean[] idle = new boolean[free.size()];
            for (int j = 0; j < free.size(); j++) {
                idle[j] = obs[free.get(j)].isEmpty();
            }
            int[] chosen = damp(pool, flowKeys, units, minUnits, target, idle);
            for (int j = 0; j < free.size(); j++) {
                weight[free.get(j)] = chosen[j] * resolution;
            }
            method = how + (kept ? " kept (gain < minGain)" : chosen == target ? "" : " damped");
        }
        List<FlowDecision> decisions = new ArrayList<>();
        double[] perClass = new double[rm.config.classes().size()];
        StringBuilder sb = new StringBuilder(method).append(" [");
        for (int i = 0; i < k; i++) {
            double w = Math.max(ResourceManager.WEIGHT_FLOOR, weight[i]);
            weight[i] = w;
            String key = flowKey(flowGateway[i], flowClass[i]);
            double predicted = rm.correction.predict(key, rm.model, obs[i], w);
            rm.correction.predicted(key, obs[i], w, predicted);
            double u = rm.goals[flowClass[i]].utility(key, rm.correction, rm.model, obs[i], w);
            perClass[flowClass[i]] += u;
            String cn = rm.config.classes().get(flowClass[i]).name();
            decisions.add(new FlowDecision(flowGateway[i], cn, obs[i].arrivalRate(), obs[i].responseSeconds(),
                    obs[i].weight(), w, predicted, u, pinned[i] != null, rm.model.nameFor(obs[i]), rm.correction.error(key),
                    rm.correction.gain(key), rm.goals[flowClass[i]].predictedPercentile(key, rm.correction, rm.model, obs[i], w),
                    obs[i].forecastRate()));
            sb.append(i == 0 ? "" : ", ").append(flowGateway[i]).append('/').append(cn)
                    .append(" λ=").append(rm.fmt(obs[i].arrivalRate())).append(" t=").append(rm.fmt(obs[i].responseSeconds()))
                    .append(" w~=").append(rm.fmt(obs[i].weight())).append(" → w=").append(rm.fmt(w))
                    .append(" t(w)=").append(rm.fmt(predicted)).append(" U=").append(rm.fmt(u));
        }
        sb.append(']');
        boolean byMin = rm.config.controller().combining() == io.slagate.config.Combining.MIN;
        objective = byMin ? Double.POSITIVE_INFINITY : 0;
        for (int c : poolClasses) {
            if (rm.config.classes().get(c).hasGoal()) { // the discretionary class has no utility to count
                objective = byMin ? Math.min(objective, perClass[c]) : objective + perClass[c];
            }
        }
        List<CapacityDeficit.Flow> demand = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            if (!obs[i].isEmpty() && rm.config.classes().get(flowClass[i]).hasGoal()) {
                String key = flowKey(flowGateway[i], flowClass[i]);
                FlowObservation o = obs[i];
                TrafficClassConfig tc = rm.config.classes().get(flowClass[i]);
                ClassGoals goal = rm.goals[flowClass[i]];
                demand.add(new CapacityDeficit.Flow(tc.name(), w -> goal.meets(key, rm.correction, rm.model, o, w)));
            }
        }
        double slotsPerServer = rm.config.servers().stream().filter(x -> x.pool().equals(pool)).mapToInt(ServerConfig::concurrency)
                .average().orElse(1);
        CapacityDeficit.Result deficit = CapacityDeficit.of(pool, n, slotsPerServer, resolution, demand);
        return new PoolResult(flowGateway, flowClass, weight, objective, decisions, sb.toString(), deficit);
    }

    private long lastBlownWarn = System.nanoTime() - 10_000_000_000L;

    /** A prediction that missed by over 10×: said at WARN, at most every 10 s, with what led to it. */
    void blown(String what) {
        long now = System.nanoTime();
        if (now - lastBlownWarn > 10_000_000_000L) {
            lastBlownWarn = now;
            LOG.warn("{} — the {} model is wrong here", what, rm.model.name());
        }
    }


    /** Most cycles ahead a forecast reaches: beyond, a trend's noise would count for more than the trend. */
    static final double MAX_FORECAST_STEPS = 10;

    /** The statistics window gateway {@code g} last reported (its rates are means over it); NaN when unknown. */
    double windowSeconds(String g) {
        ResourceManager.Report r = rm.gateways.get(g);
        return r == null || r.stats() == null ? Double.NaN : r.stats().windowSeconds();
    }

    /**
     * The observation with the flow's arrival rate during the next cycle, where {@code controller.forecast} puts a
     * forecast in force: always under {@code trend}, under {@code auto} while the forecaster's recent one-cycle error
     * is below {@value #FORECAST_TRUSTED}. Each flow's forecaster sees each cycle's measured rate once. A windowed
     * rate is the mean over the window, centred half a window back, so the next cycle's rate is
     * (window / 2 + Γ / 2) / Γ cycles ahead of it (at most {@link #MAX_FORECAST_STEPS}).
     */
    FlowObservation ahead(String flow, FlowObservation o, double windowSeconds) {
        String mode = rm.config.controller().forecast();
        if ("none".equals(mode) || o.isEmpty()) {
            return o;
        }
        io.slagate.rm.forecast.BestOfForecaster f = rm.forecasters.computeIfAbsent(flow, k -> io.slagate.rm.forecast.BestOfForecaster.standard());
        String before = f.chosen();
        f.observe(o.arrivalRate());
        if (!before.equals(f.chosen())) {
            LOG.info("flow {}: forecasting by {} now (recent one-cycle errors {})", flow, f.chosen(), f.errors());
        }
        double cycle = rm.config.controller().cycle().toNanos() / 1e9;
        double steps = Double.isFinite(windowSeconds) && windowSeconds > 0 && cycle > 0
                ? Math.min(MAX_FORECAST_STEPS, 0.5 + windowSeconds / (2 * cycle)) : 1;
        double rate = f.ahead(steps);
        boolean trusted = "trend".equals(mode) || f.error() < ResourceManager.FORECAST_TRUSTED;
        return Double.isFinite(rate) && trusted ? o.withForecast(rate) : o;
    }

    /** U_c of flow (g, c) at {@code floor + k} units, for the optimizer. */
    AllocationProblem.FlowValue value(String g, int c, FlowObservation o, double resolution, int floor) {
        ClassGoals goal = rm.goals[c];
        String key = flowKey(g, c);
        return kk -> goal.utility(key, rm.correction, rm.model, o, (floor + kk) * resolution);
    }

    /** Whether the pool's classes use importance levels or a discretionary class (else the paper's single objective). */
    boolean tiered(List<Integer> poolClasses) {
        java.util.Set<Integer> levels = new java.util.HashSet<>();
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
            String key = flowKey(flowGateway[i], flowClass[i]);
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

    /**
     * Moves γ of the way from the last allocation to the optimum, rounded by largest remainder so
     * that Σ = total and every flow keeps its minimum (both ends satisfy them, so the blend does).
     *
     * <p>γ adapts, as step sizes do in sign-based descent: when the optimum asks to undo the last
     * move (the model overshot: it is wrong about this plant), γ halves, down to a sixteenth of the
     * configured value; whenever the optimum asks for a change that does not undo the last move, γ
     * grows by half again, up to the configured value — also after cycles in which the small γ
     * rounded the move away, so the loop cannot stay stuck on a stale allocation while the load
     * changes. A fixed γ alone only shrinks an oscillation's amplitude, and with integer units a
     * 2-cycle of any amplitude ≥ 1 survives it. No damping when the flows or N changed since the
     * last cycle, or when a flow idle then carries traffic now (a gateway that has just joined, a
     * class whose clients just came): there is nothing to blend from, and creeping up from the
     * minimum a flow got while idle would make its first clients wait for cycles.
     */
    int[] damp(String pool, List<String> flows, int total, int minUnits, int[] optimum, boolean[] idle) {
        double configured = rm.config.controller().damping();
        ResourceManager.LastUnits prev = rm.lastUnits.get(pool);
        int[] out = optimum;
        double gamma = configured;
        boolean woke = false;
        if (prev != null && prev.flows().equals(flows)) {
            for (int j = 0; j < idle.length; j++) {
                woke |= prev.idle()[j] && !idle[j];
            }
        }
        if (configured < 1 && prev != null && prev.flows().equals(flows) && prev.total() == total && !woke) {
            long agreement = 0;
            for (int j = 0; j < optimum.length; j++) {
                agreement += (long) (optimum[j] - prev.units()[j]) * prev.move()[j];
            }
            boolean wantsChange = !java.util.Arrays.equals(optimum, prev.units());
            gamma = agreement < 0 ? Math.max(configured / 16, prev.gamma() / 2)
                    : wantsChange ? Math.min(configured, prev.gamma() * 1.5) : prev.gamma();
            double[] target = new double[optimum.length];
            for (int j = 0; j < optimum.length; j++) {
                int delta = optimum[j] - prev.units()[j];
                // a hair toward the optimum: a blend that lands on .5 rounds toward it, not by index
                // order (γ = 0.5 and a one-unit step would otherwise never be taken by a lower index)
                target[j] = prev.units()[j] + gamma * delta + 1e-6 * Integer.signum(delta);
            }
            out = CapPartition.round(target, total, minUnits);
        }
        int[] move = new int[out.length];
        if (prev != null && prev.flows().equals(flows) && prev.total() == total) {
            for (int j = 0; j < out.length; j++) {
                move[j] = out[j] - prev.units()[j];
            }
        }
        rm.lastUnits.put(pool, new ResourceManager.LastUnits(List.copyOf(flows), total, out.clone(), move, gamma, idle.clone()));
        return out;
    }

    boolean reported(String g) {
        ResourceManager.Report r = rm.gateways.get(g);
        return r != null && r.stats() != null;
    }

    /**
     * A gateway that joined and has not reported yet starts at a fair share: each class at the mean
     * weight the other gateways hold for it in the allocation in force (behind one balancer its clients
     * are as many as theirs), instead of the minimum an idle flow gets, from which it would creep up
     * over cycles while its clients wait. Null (optimize it as usual) when no other gateway has one.
     */
    Double fairShare(String g, int c) {
        if (rm.last == null) {
            return null;
        }
        String name = rm.config.classes().get(c).name();
        double sum = 0;
        int n = 0;
        for (Map.Entry<String, GatewayAllocation> e : rm.last.gateways().entrySet()) {
            Double w = e.getValue().weights().get(name);
            if (!e.getKey().equals(g) && rm.gateways.containsKey(e.getKey()) && w != null && Double.isFinite(w)) {
                sum += w;
                n++;
            }
        }
        if (n == 0) {
            return null;
        }
        // the others give up a share to make room: of the pool's total, this gateway takes 1 / (n + 1)
        double res = rm.config.controller().resolution();
        return Math.max(rm.config.controller().minWeight(), Math.round(sum / (n + 1) / res) * res);
    }

    /**
     * λ~, t~ and w~ of flow (g,c) from g's last report; w~ in server slots: the class's weight as a
     * fraction of the pool's weights at g, times the slots g had in the pool.
     */
    String flowKey(String gateway, int classIndex) {
        return gateway + "/" + rm.config.classes().get(classIndex).name();
    }

    FlowObservation observe(String g, int c, List<Integer> poolClasses) {
        ResourceManager.Report r = rm.gateways.get(g);
        if (r == null || r.stats() == null) {
            return FlowObservation.NONE;
        }
        StatsMessage s = r.stats();
        String name = rm.config.classes().get(c).name();
        FlowStatsMessage mine = null;
        double poolWeight = 0;
        for (FlowStatsMessage fs : s.flows()) {
            int ci = rm.config.classIndex(fs.className());
            if (ci >= 0 && poolClasses.contains(ci)) {
                poolWeight += fs.weight();
            }
            if (fs.className().equals(name)) {
                mine = fs;
            }
        }
        if (mine == null || !(poolWeight > 0)) {
            return FlowObservation.NONE;
        }
        int slots = 0;
        String pool = rm.config.classes().get(c).pool();
        for (ServerStatusMessage ss : s.servers()) {
            ServerConfig sc = rm.config.servers().stream().filter(x -> x.id().equals(ss.serverId())).findFirst().orElse(null);
            if (sc != null && sc.pool().equals(pool) && ss.inRotation()) {
                slots += ss.cap();
            }
        }
        double w = slots * mine.weight() / poolWeight;
        double[] measured = {mine.arrivalRate(), mine.meanResponseSeconds(), mine.throughput(), mine.meanServiceSeconds(), w};
        for (double v : measured) {
            if (!Double.isFinite(v)) {
                long now = System.nanoTime();
                if (now - rm.lastBadObservationWarn > 10_000_000_000L) {
                    rm.lastBadObservationWarn = now;
                    LOG.warn("gateway {} reported a non-finite measurement for class {} ({}); dropped: the flow keeps the weight"
                            + " in force", g, name, java.util.Arrays.toString(measured));
                }
                return NON_FINITE;
            }
        }
        return new FlowObservation(mine.arrivalRate(), mine.meanResponseSeconds(), w, mine.throughput(), mine.meanServiceSeconds(),
                mine.percentileSeconds());
    }

    /** Marks an observation dropped for a non-finite figure (compared by identity). */
    private static final FlowObservation NON_FINITE = new FlowObservation(0, 0, 0);

    /** The weight of flow (g, c) in the allocation in force, or null when there is none. */
    Double lastWeight(String g, int c) {
        if (rm.last == null || rm.last.gateways().get(g) == null) {
            return null;
        }
        Double w = rm.last.gateways().get(g).weights().get(rm.config.classes().get(c).name());
        return w != null && Double.isFinite(w) ? w : null;
    }

    double staticWeight(int c) {
        return rm.config.allocation().weights().getOrDefault(rm.config.classes().get(c).name(), 1.0);
    }
}
