package io.slagate.rm;

import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.DecisionMessage.FlowDecision;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.utility.UtilityFunctions;
import io.slagate.rm.limit.ConcurrencyLimit;
import io.slagate.rm.limit.KneeLimit;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.model.ModelCorrection;
import io.slagate.rm.model.ResponseTimeModel;
import io.slagate.rm.optimize.AllocationOptimizer;
import io.slagate.rm.optimize.AllocationProblem;
import io.slagate.rm.optimize.CapPartition;
import io.slagate.rm.optimize.Solution;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The global resource manager's decision logic (sections III-B and IV), free of JMS, Jetty and
 * wall clocks: it is fed gateway statistics and asked for a decision with {@link #step(long)}, the
 * time passed in. Every control cycle, per server pool: predict each flow's response time with the
 * model, maximize the cluster utility over w_{g,c} (eq. 2–4), then split each server's N_s among the
 * gateways in proportion to their shares (eq. 5–6).
 *
 * <p>Defined behaviour at the edges: a flow with no traffic or no measurement keeps the minimum
 * weight (its share changes nothing it sees); a pool with no traffic at all gets the configured
 * static weights; a gateway silent for {@code gatewayExpiry} reporting intervals, or that said
 * {@code leave}, is dropped and its share goes to the others; a server that every gateway reports
 * out of rotation leaves N; when N is smaller than the flows' minimums, a warning names the pool and
 * the minimum becomes the equal split ⌊N/K⌋. Not thread-safe: call from one thread (the control loop).
 */
public final class ResourceManager {
    private static final Logger LOG = LoggerFactory.getLogger(ResourceManager.class);
    /** Gateways require positive weights; a flow given 0 units gets this (no guarantee, work conservation still serves it). */
    private static final double WEIGHT_FLOOR = 1e-3;

    private final String id;
    private final SlagateConfig config;
    private final ResponseTimeModel model;
    /** The model's own measured error and gain per flow; carried across reconfigurations. */
    private ModelCorrection correction;
    private long lastBadObservationWarn = System.nanoTime() - 10_000_000_000L;
    private final Overrides overrides;
    /** Control cycles one statistics window spans: consecutive cycles' measurements share that many windows' answers. */
    private final int windowCycles;
    private final ClassGoals[] goals;
    private final boolean[] concave;
    private final Map<String, Report> gateways = new TreeMap<>();
    /** Each flow's arrival-rate forecaster, when {@code controller.forecast} is not none. */
    private final Map<String, io.slagate.rm.forecast.BestOfForecaster> forecasters = new java.util.concurrent.ConcurrentHashMap<>();
    /** Below this recent relative error a forecast is trusted under {@code forecast: auto}. */
    static final double FORECAST_TRUSTED = 0.2;
    /** The automatic N_s of each {@code concurrency: auto} server. */
    private final Map<String, ConcurrencyLimit> limits = new LinkedHashMap<>();
    /** Units per flow of the last decision, per pool, with the flow list they belong to (for damping). */
    private final Map<String, LastUnits> lastUnits = new HashMap<>();
    private long version;
    private AllocationMessage last;

    private record Report(StatsMessage stats, long heardNanos) {
    }

    /** The last decision of a pool: its flows, N in units, units per flow, the move that led there and γ then. */
    private record LastUnits(List<String> flows, int total, int[] units, int[] move, double gamma, boolean[] idle) {
    }

    /** One cycle's outcome: the allocation to publish (null when paused or nobody to serve) and what led to it. */
    public record Decision(AllocationMessage allocation, DecisionMessage decision) {
    }

    public ResourceManager(String id, SlagateConfig config, Overrides overrides, long initialVersion) {
        this.id = id;
        this.config = config;
        this.overrides = overrides;
        this.model = ResponseTimeModel.named(config.controller().model());
        this.correction = new ModelCorrection(config.controller().correctionBound());
        this.correction.onBlownPrediction(this::blown);
        this.version = initialVersion;
        List<TrafficClassConfig> classes = config.classes();
        goals = new ClassGoals[classes.size()];
        concave = new boolean[classes.size()];
        for (int c = 0; c < classes.size(); c++) {
            TrafficClassConfig tc = classes.get(c);
            goals[c] = new ClassGoals(tc);
            // a percentile's curve in w is not known to be convex: such a class takes the exact search
            concave[c] = tc.percentileGoal() == null
                    && UtilityFunctions.provider(tc.utility().type()).concaveNonIncreasing(tc.utility().parameters());
        }
        // a window reflects a new N_s once the allocation reached the gateways, the window filled with answers
        // under it, and its report arrived: a window and three cycles
        windowCycles = (int) Math.max(1, Math.ceil(config.gateway().stats().window().toNanos()
                / (double) config.controller().cycle().toNanos()));
        int settle = windowCycles + 3;
        for (ServerConfig sc : config.servers()) {
            if (sc.auto() != null) {
                limits.put(sc.id(), new KneeLimit(sc.auto().min(), sc.auto().max(), sc.auto().start(), settle, windowCycles));
            }
        }
    }

    /** Control cycles one statistics window spans (at least 1). */
    public int windowCycles() {
        return windowCycles;
    }

    /**
     * A manager for a new configuration that continues this one: same version sequence, the
     * gateways' last reports, the damping memory and the last allocation (for late joiners).
     */
    public ResourceManager reconfigured(SlagateConfig next) {
        ResourceManager r = new ResourceManager(id, next, overrides, version);
        r.gateways.putAll(gateways);
        r.lastUnits.putAll(lastUnits);
        r.forecasters.putAll(forecasters);
        for (ServerConfig sc : next.servers()) {
            ServerConfig before = config.servers().stream().filter(x -> x.id().equals(sc.id())).findFirst().orElse(null);
            if (sc.auto() != null && before != null && sc.auto().equals(before.auto()) && limits.containsKey(sc.id())) {
                r.limits.put(sc.id(), limits.get(sc.id())); // same bounds: keep what was learned
            }
        }
        r.last = last;
        if (next.controller().correctionBound() == config.controller().correctionBound()) {
            r.correction = correction;
            correction.onBlownPrediction(r::blown);
        }
        return r;
    }

    public void onStats(StatsMessage stats, long nowNanos) {
        gateways.put(stats.gatewayId(), new Report(stats, nowNanos));
    }

    /** A gateway left in order: its share is redistributed at the next step. */
    public void onLeave(String gatewayId) {
        gateways.remove(gatewayId);
    }

    /** A gateway joined: known from now on, with no measurements until its first report. */
    public void onJoin(String gatewayId, long nowNanos) {
        gateways.computeIfAbsent(gatewayId, g -> new Report(null, nowNanos));
    }

    public List<String> liveGateways() {
        return new ArrayList<>(gateways.keySet());
    }

    /** The last allocation decided, for a gateway that joins late; null before the first. */
    public AllocationMessage lastAllocation() {
        return last;
    }

    public long version() {
        return version;
    }

    /**
     * The measured utility of the named classes now: per class, eq. 7 on the window's mean (or goal percentile),
     * weighted by answers over the gateways; combined by the configured function (min or sum). NaN while none of them
     * has answers (the objective, one side of the split).
     */
    public double measuredUtility(java.util.Collection<String> classNames) {
        double combined = Double.NaN;
        for (String name : classNames) {
            int c = config.classIndex(name);
            double v = c < 0 ? Double.NaN : measuredUtility(c);
            if (Double.isFinite(v)) {
                combined = Double.isNaN(combined) ? v
                        : config.controller().combining() == io.slagate.config.Combining.MIN ? Math.min(combined, v) : combined + v;
            }
        }
        return combined;
    }

    /**
     * Class {@code c}'s measured utility: eq. 7 on each gateway's window, weighted by its answers, with each failure the
     * gateway or a server caused counted as {@link ClassGoals#failedUtility} (a client's own faults are not counted);
     * NaN without answers or failures.
     */
    private double measuredUtility(int c) {
        TrafficClassConfig tc = config.classes().get(c);
        double failed = goals[c].failedUtility(tc.queueTimeout().toNanos() / 1e9);
        double u = 0;
        double counted = 0;
        for (Report r : gateways.values()) {
            if (r.stats() == null) {
                continue;
            }
            for (FlowStatsMessage f : r.stats().flows()) {
                if (!f.className().equals(tc.name())) {
                    continue;
                }
                if (f.throughput() > 0) {
                    double m = goals[c].measuredUtility(f.meanResponseSeconds(), f.percentileSeconds());
                    if (Double.isFinite(m)) {
                        u += m * f.throughput();
                        counted += f.throughput();
                    }
                }
                if (f.failureRate() > 0 && Double.isFinite(f.failureRate())) {
                    u += failed * f.failureRate();
                    counted += f.failureRate();
                }
            }
        }
        return counted > 0 ? u / counted : Double.NaN;
    }

    /**
     * Per pool, its offered load Σ λ·S over every gateway's flows of its classes (the busy slots it would need at the
     * arrival rates measured), for pool reconfiguration.
     */
    public Map<String, Double> offeredLoad() {
        Map<String, Double> out = new LinkedHashMap<>();
        for (ServerConfig sc : config.servers()) {
            out.putIfAbsent(sc.pool(), 0.0);
        }
        for (Report r : gateways.values()) {
            if (r.stats() == null) {
                continue;
            }
            for (FlowStatsMessage f : r.stats().flows()) {
                int c = config.classIndex(f.className());
                double load = f.arrivalRate() * f.meanServiceSeconds();
                if (c >= 0 && Double.isFinite(load) && load > 0) {
                    out.merge(config.classes().get(c).pool(), load, Double::sum);
                }
            }
        }
        return out;
    }

    /** Every server as pool reconfiguration sees it: its pool now, its slots, requests out on it, its mean service time. */
    /** Servers some gateway reported refusing the pool they were moved to, with that pool. */
    public Map<String, String> refusedPools() {
        Map<String, String> out = new java.util.TreeMap<>();
        for (Report r : gateways.values()) {
            if (r.stats() == null) {
                continue;
            }
            for (ServerStatusMessage ss : r.stats().servers()) {
                if (ss.refusedPool() != null) {
                    out.put(ss.serverId(), ss.refusedPool());
                }
            }
        }
        return out;
    }

    public List<io.slagate.rm.reconfigure.PoolReconfiguration.Server> serverStates(long nowNanos) {
        List<io.slagate.rm.reconfigure.PoolReconfiguration.Server> out = new ArrayList<>();
        for (ServerConfig sc : config.servers()) {
            int outstanding = 0;
            double service = 0;
            int seen = 0;
            for (Report r : gateways.values()) {
                if (r.stats() == null) {
                    continue;
                }
                for (ServerStatusMessage ss : r.stats().servers()) {
                    if (ss.serverId().equals(sc.id())) {
                        outstanding += Math.max(0, ss.outstanding());
                        if (Double.isFinite(ss.meanServiceSeconds()) && ss.meanServiceSeconds() > 0) {
                            service += ss.meanServiceSeconds();
                            seen++;
                        }
                    }
                }
            }
            out.add(new io.slagate.rm.reconfigure.PoolReconfiguration.Server(sc.id(), sc.pool(), sc.pools(),
                    serverUp(sc.id()) ? capacityOf(sc, nowNanos) : 0, outstanding, seen == 0 ? 0 : service / seen));
        }
        return out;
    }

    /** Makes the next allocation's version newer than {@code seen} (a predecessor's, when taking over). */
    public void advanceVersionTo(long seen) {
        version = Math.max(version, seen);
    }

    public Decision step(long nowNanos) {
        expire(nowNanos);
        List<String> gws = new ArrayList<>(gateways.keySet());
        long started = System.nanoTime();
        if (overrides.paused()) {
            return new Decision(null, new DecisionMessage(BusMessage.SCHEMA, version, System.currentTimeMillis(), id, true,
                    Double.NaN, 0, List.of()));
        }
        if (gws.isEmpty()) {
            return new Decision(null, null);
        }
        double resolution = config.controller().resolution();
        List<TrafficClassConfig> classes = config.classes();
        Map<String, List<Integer>> classesOfPool = new LinkedHashMap<>();
        for (int c = 0; c < classes.size(); c++) {
            classesOfPool.computeIfAbsent(classes.get(c).pool(), p -> new ArrayList<>()).add(c);
        }
        Map<String, Map<String, Double>> weights = new TreeMap<>();
        Map<String, Map<String, Integer>> caps = new TreeMap<>();
        for (String g : gws) {
            weights.put(g, new LinkedHashMap<>());
            caps.put(g, new LinkedHashMap<>());
        }
        List<FlowDecision> flowDecisions = new ArrayList<>();
        double clusterUtility = config.controller().combining() == io.slagate.config.Combining.MIN
                ? Double.POSITIVE_INFINITY : 0;
        StringBuilder logLine = new StringBuilder();
        updateLimits(classesOfPool);
        for (Map.Entry<String, List<Integer>> pool : classesOfPool.entrySet()) {
            List<ServerConfig> servers = config.servers().stream().filter(s -> s.pool().equals(pool.getKey())).toList();
            int[] capacity = new int[servers.size()];
            int n = 0;
            for (int s = 0; s < servers.size(); s++) {
                capacity[s] = serverUp(servers.get(s).id()) ? capacityOf(servers.get(s), nowNanos) : 0;
                int limited = locallyLimitedCapacity(servers.get(s).id());
                if (limited >= 0 && limited < capacity[s]) {
                    capacity[s] = limited; // a gateway's fast local limit holds it: its current capacity
                }
                n += capacity[s];
            }
            PoolResult r = solvePool(pool.getKey(), pool.getValue(), gws, n, resolution, nowNanos);
            deficits.put(pool.getKey(), r.deficit);
            for (int f = 0; f < r.flowGateway.length; f++) {
                weights.get(r.flowGateway[f]).put(classes.get(r.flowClass[f]).name(), r.weight[f]);
                flowDecisions.add(r.decisions.get(f));
            }
            clusterUtility = config.controller().combining() == io.slagate.config.Combining.MIN
                    ? Math.min(clusterUtility, r.objective) : clusterUtility + r.objective;
            // eq. 5–6: each server's N_s split among gateways in proportion to w_g (this pool's classes)
            double[] share = new double[gws.size()];
            for (int gi = 0; gi < gws.size(); gi++) {
                for (int c : pool.getValue()) {
                    share[gi] += weights.get(gws.get(gi)).getOrDefault(classes.get(c).name(), 0.0);
                }
            }
            for (int s = 0; s < servers.size(); s++) {
                int[] split = CapPartition.split(capacity[s], share);
                for (int gi = 0; gi < gws.size(); gi++) {
                    caps.get(gws.get(gi)).put(servers.get(s).id(), split[gi]);
                }
            }
            logLine.append(" pool ").append(pool.getKey()).append(": N=").append(n).append(' ').append(r.summary);
        }
        // Servers of pools without classes still need a cap entry (0 leaves them unused).
        for (ServerConfig s : config.servers()) {
            for (String g : gws) {
                caps.get(g).putIfAbsent(s.id(), 0);
            }
        }
        version++;
        Map<String, GatewayAllocation> perGateway = new TreeMap<>();
        for (String g : gws) {
            perGateway.put(g, new GatewayAllocation(weights.get(g), caps.get(g)));
        }
        long now = System.currentTimeMillis();
        boolean changed = last == null || !last.gateways().equals(perGateway);
        Map<String, String> serverPools = new TreeMap<>();
        for (ServerConfig sc : config.servers()) {
            if (sc.movable()) {
                serverPools.put(sc.id(), sc.pool()); // where each movable server serves under this allocation
            }
        }
        Map<String, Long> queueTimeouts = new TreeMap<>(overrides.queueTimeouts());
        queueTimeouts.keySet().retainAll(config.classes().stream().map(TrafficClassConfig::name).toList());
        last = new AllocationMessage(BusMessage.SCHEMA, version, now, id, perGateway, serverPools, queueTimeouts,
                overrides.statsWindowMillis());
        double solveMillis = (System.nanoTime() - started) / 1e6;
        // a line per cycle that changes the allocation; the unchanged ones (most, at steady state) only at DEBUG
        if (changed ? LOG.isInfoEnabled() : LOG.isDebugEnabled()) {
            String line = String.format("cycle v%d gateways=%s Ω=%s solve=%.2fms%s", version, gws, fmt(clusterUtility), solveMillis, logLine);
            if (changed) {
                LOG.info(line);
            } else {
                LOG.debug(line);
            }
        }
        List<DecisionMessage.ServerDecision> autoServers = new ArrayList<>();
        limits.forEach((server, l) -> autoServers.add(new DecisionMessage.ServerDecision(server, l.limit(), l.knee(), l.reason())));
        return new Decision(last, new DecisionMessage(BusMessage.SCHEMA, version, now, id, false, clusterUtility, solveMillis, flowDecisions,
                autoServers));
    }

    private record PoolResult(String[] flowGateway, int[] flowClass, double[] weight, double objective,
                              List<FlowDecision> decisions, String summary, CapacityDeficit.Result deficit) {
    }

    /** Per pool, what the last decision found it lacks for every class to meet its target. */
    private final Map<String, CapacityDeficit.Result> deficits = new java.util.concurrent.ConcurrentHashMap<>();

    /** Per pool, the capacity deficit of the last decision (the autoscaling signal). */
    public Map<String, CapacityDeficit.Result> deficits() {
        return Map.copyOf(deficits);
    }

    private PoolResult solvePool(String pool, List<Integer> poolClasses, List<String> gws, int n, double resolution, long nowNanos) {
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
                    if (kept != null && overrides.weight(g, config.classes().get(c).name(), nowNanos) == null) {
                        // a broken measurement says nothing: this flow keeps the weight in force, the others share the rest
                        prior[f] = kept;
                    }
                    obs[f] = FlowObservation.NONE;
                }
                correction.observe(flowKey(g, c), obs[f], resolution);
                obs[f] = ahead(flowKey(g, c), obs[f], windowSeconds(g));
                anyTraffic |= !obs[f].isEmpty();
                pinned[f] = overrides.weight(g, config.classes().get(c).name(), nowNanos);
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
        int minUnits = (int) Math.round(config.controller().minWeight() / resolution);
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
                        pool, n, free.size(), config.controller().minWeight(), equal * resolution);
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
                    allConcave &= concave[flowClass[i]];
                }
                AllocationProblem problem = new AllocationProblem(poolClasses.size(), cls, values, units, minUnits,
                        config.controller().combining(), allConcave);
                Solution sol = AllocationOptimizer.solve(problem);
                target = sol.units();
                how = sol.method();
                LastUnits prev = lastUnits.get(pool);
                if (config.controller().minGain() > 0 && prev != null && prev.flows().equals(flowKeys) && prev.total() == units
                        && java.util.Arrays.stream(prev.units()).allMatch(u -> u >= problem.minUnits())) {
                    // dead band: moving costs something real (a transient), and a predicted gain this small is noise.
                    // Utilities are in seconds (eq. 7): the band is a fraction of the pool's tightest target.
                    double tightest = Double.POSITIVE_INFINITY;
                    for (int c : poolClasses) {
                        tightest = Math.min(tightest, goals[c].tightestSeconds());
                    }
                    double keep = AllocationOptimizer.objective(problem, prev.units());
                    if (sol.objective() - keep < config.controller().minGain() * tightest) {
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
        double[] perClass = new double[config.classes().size()];
        StringBuilder sb = new StringBuilder(method).append(" [");
        for (int i = 0; i < k; i++) {
            double w = Math.max(WEIGHT_FLOOR, weight[i]);
            weight[i] = w;
            String key = flowKey(flowGateway[i], flowClass[i]);
            double predicted = correction.predict(key, model, obs[i], w);
            correction.predicted(key, obs[i], w, predicted);
            double u = goals[flowClass[i]].utility(key, correction, model, obs[i], w);
            perClass[flowClass[i]] += u;
            String cn = config.classes().get(flowClass[i]).name();
            decisions.add(new FlowDecision(flowGateway[i], cn, obs[i].arrivalRate(), obs[i].responseSeconds(),
                    obs[i].weight(), w, predicted, u, pinned[i] != null, model.nameFor(obs[i]), correction.error(key),
                    correction.gain(key), goals[flowClass[i]].predictedPercentile(key, correction, model, obs[i], w),
                    obs[i].forecastRate()));
            sb.append(i == 0 ? "" : ", ").append(flowGateway[i]).append('/').append(cn)
                    .append(" λ=").append(fmt(obs[i].arrivalRate())).append(" t=").append(fmt(obs[i].responseSeconds()))
                    .append(" w~=").append(fmt(obs[i].weight())).append(" → w=").append(fmt(w))
                    .append(" t(w)=").append(fmt(predicted)).append(" U=").append(fmt(u));
        }
        sb.append(']');
        boolean byMin = config.controller().combining() == io.slagate.config.Combining.MIN;
        objective = byMin ? Double.POSITIVE_INFINITY : 0;
        for (int c : poolClasses) {
            if (config.classes().get(c).hasGoal()) { // the discretionary class has no utility to count
                objective = byMin ? Math.min(objective, perClass[c]) : objective + perClass[c];
            }
        }
        List<CapacityDeficit.Flow> demand = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            if (!obs[i].isEmpty() && config.classes().get(flowClass[i]).hasGoal()) {
                String key = flowKey(flowGateway[i], flowClass[i]);
                FlowObservation o = obs[i];
                TrafficClassConfig tc = config.classes().get(flowClass[i]);
                ClassGoals goal = goals[flowClass[i]];
                demand.add(new CapacityDeficit.Flow(tc.name(), w -> goal.meets(key, correction, model, o, w)));
            }
        }
        double slotsPerServer = config.servers().stream().filter(x -> x.pool().equals(pool)).mapToInt(ServerConfig::concurrency)
                .average().orElse(1);
        CapacityDeficit.Result deficit = CapacityDeficit.of(pool, n, slotsPerServer, resolution, demand);
        return new PoolResult(flowGateway, flowClass, weight, objective, decisions, sb.toString(), deficit);
    }

    private long lastBlownWarn = System.nanoTime() - 10_000_000_000L;

    /** A prediction that missed by over 10×: said at WARN, at most every 10 s, with what led to it. */
    private void blown(String what) {
        long now = System.nanoTime();
        if (now - lastBlownWarn > 10_000_000_000L) {
            lastBlownWarn = now;
            LOG.warn("{} — the {} model is wrong here", what, model.name());
        }
    }

    /**
     * Per flow ("gateway/class"), each forecaster's recent one-cycle relative error and the one in use (the
     * forecaster is picked by its measured error); empty under {@code forecast: none}. Read from any thread.
     */
    public Map<String, String> forecastErrors() {
        Map<String, String> m = new java.util.TreeMap<>();
        forecasters.forEach((flow, f) -> m.put(flow, f.chosen() + " " + f.errors()));
        return m;
    }

    /** Most cycles ahead a forecast reaches: beyond, a trend's noise would count for more than the trend. */
    static final double MAX_FORECAST_STEPS = 10;

    /** The statistics window gateway {@code g} last reported (its rates are means over it); NaN when unknown. */
    private double windowSeconds(String g) {
        Report r = gateways.get(g);
        return r == null || r.stats() == null ? Double.NaN : r.stats().windowSeconds();
    }

    /**
     * The observation with the flow's arrival rate during the next cycle, where {@code controller.forecast} puts a
     * forecast in force: always under {@code trend}, under {@code auto} while the forecaster's recent one-cycle error
     * is below {@value #FORECAST_TRUSTED}. Each flow's forecaster sees each cycle's measured rate once. A windowed
     * rate is the mean over the window, centred half a window back, so the next cycle's rate is
     * (window / 2 + Γ / 2) / Γ cycles ahead of it (at most {@link #MAX_FORECAST_STEPS}).
     */
    private FlowObservation ahead(String flow, FlowObservation o, double windowSeconds) {
        String mode = config.controller().forecast();
        if ("none".equals(mode) || o.isEmpty()) {
            return o;
        }
        io.slagate.rm.forecast.BestOfForecaster f = forecasters.computeIfAbsent(flow, k -> io.slagate.rm.forecast.BestOfForecaster.standard());
        String before = f.chosen();
        f.observe(o.arrivalRate());
        if (!before.equals(f.chosen())) {
            LOG.info("flow {}: forecasting by {} now (recent one-cycle errors {})", flow, f.chosen(), f.errors());
        }
        double cycle = config.controller().cycle().toNanos() / 1e9;
        double steps = Double.isFinite(windowSeconds) && windowSeconds > 0 && cycle > 0
                ? Math.min(MAX_FORECAST_STEPS, 0.5 + windowSeconds / (2 * cycle)) : 1;
        double rate = f.ahead(steps);
        boolean trusted = "trend".equals(mode) || f.error() < FORECAST_TRUSTED;
        return Double.isFinite(rate) && trusted ? o.withForecast(rate) : o;
    }

    /** U_c of flow (g, c) at {@code floor + k} units, for the optimizer. */
    private AllocationProblem.FlowValue value(String g, int c, FlowObservation o, double resolution, int floor) {
        ClassGoals goal = goals[c];
        String key = flowKey(g, c);
        return kk -> goal.utility(key, correction, model, o, (floor + kk) * resolution);
    }

    /** Whether the pool's classes use importance levels or a discretionary class (else the paper's single objective). */
    private boolean tiered(List<Integer> poolClasses) {
        java.util.Set<Integer> levels = new java.util.HashSet<>();
        for (int c : poolClasses) {
            TrafficClassConfig tc = config.classes().get(c);
            if (tc.discretionary()) {
                return true;
            }
            levels.add(tc.importance());
        }
        return levels.size() > 1;
    }

    private record Tiered(int[] units, String method) {
    }

    /**
     * The allocation under importance levels ({@link ImportanceTiers}): the tiers fix some flows' units,
     * and the optimizer places the rest among the flows they leave free, over those flows' classes only
     * (a class without a free flow must not enter a min).
     */
    private Tiered solveTiers(List<Integer> free, String[] flowGateway, int[] flowClass, FlowObservation[] obs, int units,
                              int minUnits, double resolution, List<Integer> poolClasses) {
        List<ImportanceTiers.Flow> tiers = new ArrayList<>();
        for (int i : free) {
            TrafficClassConfig tc = config.classes().get(flowClass[i]);
            ClassGoals goal = goals[flowClass[i]];
            String key = flowKey(flowGateway[i], flowClass[i]);
            FlowObservation o = obs[i];
            tiers.add(new ImportanceTiers.Flow(tc.importance(), tc.discretionary(), !o.isEmpty(), o.arrivalRate(),
                    kk -> goal.meets(key, correction, model, o, kk * resolution)));
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
                config.controller().combining(), false));
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
    private int[] damp(String pool, List<String> flows, int total, int minUnits, int[] optimum, boolean[] idle) {
        double configured = config.controller().damping();
        LastUnits prev = lastUnits.get(pool);
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
        lastUnits.put(pool, new LastUnits(List.copyOf(flows), total, out.clone(), move, gamma, idle.clone()));
        return out;
    }

    private boolean reported(String g) {
        Report r = gateways.get(g);
        return r != null && r.stats() != null;
    }

    /**
     * A gateway that joined and has not reported yet starts at a fair share: each class at the mean
     * weight the other gateways hold for it in the allocation in force (behind one balancer its clients
     * are as many as theirs), instead of the minimum an idle flow gets, from which it would creep up
     * over cycles while its clients wait. Null (optimize it as usual) when no other gateway has one.
     */
    private Double fairShare(String g, int c) {
        if (last == null) {
            return null;
        }
        String name = config.classes().get(c).name();
        double sum = 0;
        int n = 0;
        for (Map.Entry<String, GatewayAllocation> e : last.gateways().entrySet()) {
            Double w = e.getValue().weights().get(name);
            if (!e.getKey().equals(g) && gateways.containsKey(e.getKey()) && w != null && Double.isFinite(w)) {
                sum += w;
                n++;
            }
        }
        if (n == 0) {
            return null;
        }
        // the others give up a share to make room: of the pool's total, this gateway takes 1 / (n + 1)
        double res = config.controller().resolution();
        return Math.max(config.controller().minWeight(), Math.round(sum / (n + 1) / res) * res);
    }

    /**
     * λ~, t~ and w~ of flow (g,c) from g's last report; w~ in server slots: the class's weight as a
     * fraction of the pool's weights at g, times the slots g had in the pool.
     */
    private String flowKey(String gateway, int classIndex) {
        return gateway + "/" + config.classes().get(classIndex).name();
    }

    private FlowObservation observe(String g, int c, List<Integer> poolClasses) {
        Report r = gateways.get(g);
        if (r == null || r.stats() == null) {
            return FlowObservation.NONE;
        }
        StatsMessage s = r.stats();
        String name = config.classes().get(c).name();
        FlowStatsMessage mine = null;
        double poolWeight = 0;
        for (FlowStatsMessage fs : s.flows()) {
            int ci = config.classIndex(fs.className());
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
        String pool = config.classes().get(c).pool();
        for (ServerStatusMessage ss : s.servers()) {
            ServerConfig sc = config.servers().stream().filter(x -> x.id().equals(ss.serverId())).findFirst().orElse(null);
            if (sc != null && sc.pool().equals(pool) && ss.inRotation()) {
                slots += ss.cap();
            }
        }
        double w = slots * mine.weight() / poolWeight;
        double[] measured = {mine.arrivalRate(), mine.meanResponseSeconds(), mine.throughput(), mine.meanServiceSeconds(), w};
        for (double v : measured) {
            if (!Double.isFinite(v)) {
                long now = System.nanoTime();
                if (now - lastBadObservationWarn > 10_000_000_000L) {
                    lastBadObservationWarn = now;
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
    private Double lastWeight(String g, int c) {
        if (last == null || last.gateways().get(g) == null) {
            return null;
        }
        Double w = last.gateways().get(g).weights().get(config.classes().get(c).name());
        return w != null && Double.isFinite(w) ? w : null;
    }

    private double staticWeight(int c) {
        return config.allocation().weights().getOrDefault(config.classes().get(c).name(), 1.0);
    }

    private int capacityOf(ServerConfig s, long nowNanos) {
        Integer pinned = overrides.capacity(s.id(), nowNanos);
        ConcurrencyLimit auto = limits.get(s.id());
        return pinned != null ? pinned : auto != null ? auto.limit() : s.concurrency();
    }

    /**
     * While a gateway reports a local limit on the server (its service times jumped), the server's capacity is
     * what the gateways hold it to now, Σ_g of their reported caps; −1 while none does. The gateways give the
     * slots back as it recovers, and the next cycle's figure follows.
     */
    private int locallyLimitedCapacity(String serverId) {
        boolean limited = false;
        int sum = 0;
        for (Report r : gateways.values()) {
            if (r.stats() == null) {
                continue;
            }
            for (ServerStatusMessage ss : r.stats().servers()) {
                if (ss.serverId().equals(serverId)) {
                    limited |= ss.locallyLimited();
                    sum += Math.max(0, ss.cap());
                }
            }
        }
        return limited ? sum : -1;
    }

    /** The automatic N_s of each {@code concurrency: auto} server (read-only). */
    public Map<String, ConcurrencyLimit> concurrencyLimits() {
        return java.util.Collections.unmodifiableMap(limits);
    }

    /**
     * Feeds each automatic N_s the gateways' view of its server: answers per second summed, their mean
     * service time (weighted by answers), the requests executing, and the requests of its pool waiting.
     */
    private void updateLimits(Map<String, List<Integer>> classesOfPool) {
        for (Map.Entry<String, ConcurrencyLimit> e : limits.entrySet()) {
            ServerConfig sc = config.servers().stream().filter(x -> x.id().equals(e.getKey())).findFirst().orElseThrow();
            List<Integer> poolClasses = classesOfPool.getOrDefault(sc.pool(), List.of());
            double x = 0;
            double work = 0;
            int inUse = 0;
            int waiting = 0;
            boolean missed = false;
            for (Report r : gateways.values()) {
                if (r.stats() == null) {
                    continue;
                }
                for (ServerStatusMessage ss : r.stats().servers()) {
                    if (ss.serverId().equals(sc.id()) && ss.throughput() > 0 && Double.isFinite(ss.throughput())
                            && ss.meanServiceSeconds() > 0 && Double.isFinite(ss.meanServiceSeconds())) {
                        x += ss.throughput();
                        work += ss.throughput() * ss.meanServiceSeconds();
                    }
                    if (ss.serverId().equals(sc.id())) {
                        inUse += Math.max(0, ss.outstanding());
                    }
                }
                for (FlowStatsMessage fs : r.stats().flows()) {
                    int ci = config.classIndex(fs.className());
                    if (poolClasses.contains(ci)) {
                        waiting += Math.max(0, fs.queueLength());
                        missed |= fs.throughput() > 0 && goals[ci].missedBy(fs.meanResponseSeconds(), fs.percentileSeconds());
                    }
                }
            }
            ConcurrencyLimit limit = e.getValue();
            int before = limit.limit();
            double[] utilities = poolClasses.stream().mapToDouble(this::measuredUtility).toArray();
            double answers = x * config.gateway().stats().window().toNanos() / 1e9;
            int after = limit.update(new ConcurrencyLimit.Sample(x, x > 0 ? work / x : Double.NaN, inUse, waiting, missed, utilities,
                    answers));
            if (after != before) {
                LOG.info("server {}: N_s {} → {}: {}", sc.id(), before, after, limit.reason());
            }
        }
    }

    /** Down only when at least one gateway reports the server and none has it in rotation. */
    private boolean serverUp(String serverId) {
        boolean reported = false;
        for (Report r : gateways.values()) {
            if (r.stats() == null) {
                continue;
            }
            for (ServerStatusMessage ss : r.stats().servers()) {
                if (ss.serverId().equals(serverId)) {
                    reported = true;
                    if (ss.inRotation()) {
                        return true;
                    }
                }
            }
        }
        return !reported;
    }

    private void expire(long nowNanos) {
        long limit = config.controller().gatewayExpiry() * config.gateway().stats().reportingInterval().toNanos();
        gateways.entrySet().removeIf(e -> {
            boolean gone = nowNanos - e.getValue().heardNanos() > limit;
            if (gone) {
                LOG.warn("gateway {} silent for more than {} reporting intervals; its share goes to the others",
                        e.getKey(), config.controller().gatewayExpiry());
            }
            return gone;
        });
    }

    private static String fmt(double v) {
        return Double.isFinite(v) ? String.format("%.3f", v) : String.valueOf(v);
    }
}
