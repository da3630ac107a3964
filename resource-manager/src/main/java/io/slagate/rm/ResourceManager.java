package io.slagate.rm;

import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.DecisionMessage.FlowDecision;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.Combining;
import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.config.utility.UtilityFunctions;
import io.slagate.rm.forecast.BestOfForecaster;
import io.slagate.rm.limit.ConcurrencyLimit;
import io.slagate.rm.model.ModelCorrection;
import io.slagate.rm.model.ResponseTimeModel;
import io.slagate.rm.optimize.CapPartition;
import io.slagate.rm.optimize.Damper;
import io.slagate.rm.reconfigure.PoolReconfiguration;
import io.slagate.util.LogLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
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
    static final double WEIGHT_FLOOR = 1e-3;

    final String id;
    final SlagateConfig config;
    final ResponseTimeModel model;
    /** The model's own measured error and gain per flow; carried across reconfigurations. */
    ModelCorrection correction;
    final LogLimiter badObservationWarnings = new LogLimiter(Duration.ofSeconds(10));
    /** Flow reports refused for a non-finite or negative figure (the flow kept its weight). */
    final AtomicLong refusedFigures = new AtomicLong();
    final Overrides overrides;
    /** Control cycles one statistics window spans: consecutive cycles' measurements share that many windows' answers. */
    final int windowCycles;
    final ClassGoals[] goals;
    final boolean[] concave;
    final Map<String, Report> gateways = new TreeMap<>();
    /** Each flow's arrival-rate forecaster, when {@code controller.forecast} is not none. */
    final Map<String, BestOfForecaster> forecasters = new ConcurrentHashMap<>();
    /** Each flow's shares over its statistics window, which its measurements are paired with. */
    final ShareHistory shares;
    /** Below this recent relative error a forecast is trusted under {@code forecast: auto}. */
    static final double FORECAST_TRUSTED = 0.2;
    /** The automatic N_s of each {@code concurrency: auto} server. */
    final AutoLimits limits;
    /** Units per flow of the last decision, per pool, with the flow list they belong to (for damping). */
    final Damper damper = new Damper();
    long version;
    /** The per-pool solve, over this manager's reports and state. */
    private final PoolSolver solver = new PoolSolver(this);
    AllocationMessage last;
    /** Per pool, what the last decision found it lacks for every class to meet its target. */
    final Map<String, CapacityDeficit.Result> deficits = new ConcurrentHashMap<>();
    /** The readings behind {@link #deficits}: each pool's median over the stabilization span. */
    private final CapacitySignal capacitySignal;

    record Report(StatsMessage stats, long heardNanos) {
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
        this.correction.onBlownPrediction(what -> solver.blown(what));
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
        windowCycles = (int) Math.max(1, Math.ceil(config.gateway().stats().window().toNanos()
                / (double) config.controller().cycle().toNanos()));
        limits = new AutoLimits(this, windowCycles);
        shares = new ShareHistory(config.gateway().stats().window().toNanos() / 1e9);
        capacitySignal = new CapacitySignal(config.controller().capacityStabilization(config.gateway().stats().window()).toNanos());
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
        r.damper.rememberFrom(damper);
        r.forecasters.putAll(forecasters);
        r.shares.keep(shares);
        r.limits.keep(limits, config); // same bounds: keep what was learned
        r.capacitySignal.keep(capacitySignal);
        r.refusedFigures.set(refusedFigures.get());
        r.last = last;
        if (next.controller().correctionBound() == config.controller().correctionBound()) {
            r.correction = correction;
            correction.onBlownPrediction(what -> r.solver.blown(what));
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
    public double measuredUtility(Collection<String> classNames) {
        double combined = Double.NaN;
        for (String name : classNames) {
            int c = config.classIndex(name);
            double v = c < 0 ? Double.NaN : measuredUtility(c);
            if (Double.isFinite(v)) {
                combined = Double.isNaN(combined) ? v
                        : config.controller().combining() == Combining.MIN ? Math.min(combined, v) : combined + v;
            }
        }
        return combined;
    }

    /**
     * Class {@code c}'s measured utility: eq. 7 on each gateway's window, weighted by its answers, with each failure the
     * gateway or a server caused counted as {@link ClassGoals#failedUtility} (a client's own faults are not counted);
     * NaN without answers or failures.
     */
    double measuredUtility(int c) {
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

    /** Servers some gateway reported refusing the pool they were moved to, with that pool. */
    public Map<String, String> refusedPools() {
        Map<String, String> out = new TreeMap<>();
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

    /** Every server as pool reconfiguration sees it: its pool now, its slots, requests out on it, its mean service time. */
    public List<PoolReconfiguration.Server> serverStates(long nowNanos) {
        List<PoolReconfiguration.Server> out = new ArrayList<>();
        GatewayReports reports = new GatewayReports(gateways.values());
        for (ServerConfig sc : config.servers()) {
            GatewayReports.Server r = reports.server(sc.id());
            out.add(new PoolReconfiguration.Server(sc.id(), sc.pool(), sc.pools(), reports.up(sc.id()) ? capacityOf(sc, nowNanos) : 0,
                    r.outstanding(), r.meanServiceSeconds()));
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
        double clusterUtility = config.controller().combining() == Combining.MIN
                ? Double.POSITIVE_INFINITY : 0;
        StringBuilder logLine = new StringBuilder();
        limits.update(classesOfPool);
        for (Map.Entry<String, List<Integer>> pool : classesOfPool.entrySet()) {
            List<ServerConfig> servers = config.servers().stream().filter(s -> s.pool().equals(pool.getKey())).toList();
            int[] capacity = capacities(servers, nowNanos);
            int n = Arrays.stream(capacity).sum();
            PoolSolver.PoolResult r = solver.solvePool(pool.getKey(), pool.getValue(), gws, n, resolution, nowNanos);
            deficits.put(pool.getKey(), capacitySignal.observe(r.deficit(), nowNanos));
            for (int f = 0; f < r.flowGateway().length; f++) {
                weights.get(r.flowGateway()[f]).put(classes.get(r.flowClass()[f]).name(), r.weight()[f]);
                flowDecisions.add(r.decisions().get(f));
            }
            clusterUtility = config.controller().combining() == Combining.MIN
                    ? Math.min(clusterUtility, r.objective()) : clusterUtility + r.objective();
            splitCaps(gws, pool.getValue(), servers, capacity, weights, caps);
            logLine.append(" pool ").append(pool.getKey()).append(": N=").append(n).append(' ').append(r.summary());
        }
        version++;
        Map<String, GatewayAllocation> perGateway = perGateway(gws, weights, caps);
        long now = System.currentTimeMillis();
        boolean changed = last == null || !withoutQuotas(last.gateways()).equals(withoutQuotas(perGateway));
        last = allocation(perGateway, now);
        double solveMillis = (System.nanoTime() - started) / 1e6;
        logCycle(changed, gws, clusterUtility, solveMillis, logLine);
        return new Decision(last, new DecisionMessage(BusMessage.SCHEMA, version, now, id, false, clusterUtility, solveMillis,
                DecisionDigest.of(flowDecisions), limits.decisions(), List.of(), last.capacity()));
    }

    /** Each server's N_s this cycle: its capacity while a gateway sees it up, or what a gateway's fast local limit holds it to. */
    private int[] capacities(List<ServerConfig> servers, long nowNanos) {
        int[] capacity = new int[servers.size()];
        GatewayReports reports = new GatewayReports(gateways.values());
        for (int s = 0; s < servers.size(); s++) {
            GatewayReports.Server r = reports.server(servers.get(s).id());
            capacity[s] = reports.up(servers.get(s).id()) ? capacityOf(servers.get(s), nowNanos) : 0;
            int limited = r.locallyLimitedCapacity();
            if (limited >= 0 && limited < capacity[s]) {
                capacity[s] = limited; // a gateway's fast local limit holds it: its current capacity
            }
        }
        return capacity;
    }

    /** Eq. 5–6: each server's N_s split among the gateways in proportion to their weights for the pool's classes. */
    private void splitCaps(List<String> gws, List<Integer> poolClasses, List<ServerConfig> servers, int[] capacity,
                           Map<String, Map<String, Double>> weights, Map<String, Map<String, Integer>> caps) {
        double[] share = new double[gws.size()];
        for (int gi = 0; gi < gws.size(); gi++) {
            for (int c : poolClasses) {
                share[gi] += weights.get(gws.get(gi)).getOrDefault(config.classes().get(c).name(), 0.0);
            }
        }
        int[][] split = CapPartition.splitServers(capacity, share);
        for (int gi = 0; gi < gws.size(); gi++) {
            Map<String, Integer> mine = caps.get(gws.get(gi));
            for (int s = 0; s < servers.size(); s++) {
                if (split[s][gi] > 0) { // a server not named has no slots (GatewayAllocation)
                    mine.put(servers.get(s).id(), split[s][gi]);
                }
            }
        }
    }

    /** Each gateway's part: its weights and its non-zero caps (servers of pools without classes have none). */
    private Map<String, GatewayAllocation> perGateway(List<String> gws, Map<String, Map<String, Double>> weights,
                                                      Map<String, Map<String, Integer>> caps) {
        Map<String, GatewayAllocation> perGateway = new TreeMap<>();
        Map<String, Map<String, Double>> quotas = Map.of();
        if (config.classification().hasQuotas()) {
            Map<String, Map<String, Double>> demand = new TreeMap<>();
            gateways.forEach((g, r) -> demand.put(g, r.stats() == null ? Map.of() : r.stats().quotaDemand()));
            quotas = QuotaSplit.split(config.classification(), gws, demand, refusedFigures);
        }
        for (String g : gws) {
            perGateway.put(g, new GatewayAllocation(weights.get(g), caps.get(g), quotas.getOrDefault(g, Map.of())));
        }
        return perGateway;
    }

    /** The gateways' weights and caps (the quotas' shares move with demand every cycle: not a change worth a line). */
    private static Map<String, GatewayAllocation> withoutQuotas(Map<String, GatewayAllocation> parts) {
        Map<String, GatewayAllocation> out = new TreeMap<>();
        parts.forEach((g, a) -> out.put(g, new GatewayAllocation(a.weights(), a.caps())));
        return out;
    }

    /** Per pool (by name), the capacity signal's line for the decision and the gateways. */
    private List<DecisionMessage.PoolCapacity> capacityLines() {
        List<DecisionMessage.PoolCapacity> lines = new ArrayList<>();
        new TreeMap<>(deficits).values().forEach(r -> lines.add(new DecisionMessage.PoolCapacity(r.pool(), r.haveSlots(), r.neededSlots(),
                r.servers(), r.neededByClass())));
        return lines;
    }

    /** A line per cycle that changes the allocation; the unchanged ones (most, at steady state) only at DEBUG. */
    private void logCycle(boolean changed, List<String> gws, double clusterUtility, double solveMillis, CharSequence pools) {
        if (changed ? LOG.isInfoEnabled() : LOG.isDebugEnabled()) {
            Object named = gws.size() <= 16 ? gws : gws.size() + " (" + gws.subList(0, 16) + " …)";
            String line = String.format("cycle v%d gateways=%s Ω=%s solve=%.2fms%s", version, named, fmt(clusterUtility), solveMillis, pools);
            if (changed) {
                LOG.info(line);
            } else {
                LOG.debug(line);
            }
        }
    }

    /** The allocation message of this version: the gateways' parts, where movable servers serve, the knobs in force. */
    private AllocationMessage allocation(Map<String, GatewayAllocation> perGateway, long nowMillis) {
        Map<String, String> serverPools = new TreeMap<>();
        for (ServerConfig sc : config.servers()) {
            if (sc.movable()) {
                serverPools.put(sc.id(), sc.pool());
            }
        }
        Map<String, Long> queueTimeouts = new TreeMap<>(overrides.queueTimeouts());
        queueTimeouts.keySet().retainAll(config.classes().stream().map(TrafficClassConfig::name).toList());
        return new AllocationMessage(BusMessage.SCHEMA, version, nowMillis, id, perGateway, serverPools, queueTimeouts,
                overrides.statsWindowMillis(), capacityLines());
    }


    /** Flow reports refused for a non-finite or negative figure since start. */
    public long refusedFigures() {
        return refusedFigures.get();
    }

    /** Per pool, the capacity signal as of the last decision: the median reading over the stabilization span. */
    public Map<String, CapacityDeficit.Result> deficits() {
        return Map.copyOf(deficits);
    }

    /**
     * Per flow ("gateway/class"), each forecaster's recent one-cycle relative error and the one in use (the
     * forecaster is picked by its measured error); empty under {@code forecast: none}. Read from any thread.
     */
    public Map<String, String> forecastErrors() {
        Map<String, String> m = new TreeMap<>();
        forecasters.forEach((flow, f) -> m.put(flow, f.chosen() + " " + f.errors()));
        return m;
    }

    int capacityOf(ServerConfig s, long nowNanos) {
        Integer pinned = overrides.capacity(s.id(), nowNanos);
        ConcurrencyLimit auto = limits.get(s.id());
        return pinned != null ? pinned : auto != null ? auto.limit() : s.concurrency();
    }


    /** The automatic N_s of each {@code concurrency: auto} server (read-only). */
    public Map<String, ConcurrencyLimit> concurrencyLimits() {
        return limits.view();
    }

    void expire(long nowNanos) {
        long limit = config.controller().gatewayExpiry() * config.gateway().stats().reportingInterval().toNanos();
        gateways.entrySet().removeIf(e -> {
            boolean gone = nowNanos - e.getValue().heardNanos() > limit;
            if (gone) {
                LOG.warn("gateway {} silent for more than {} reporting intervals; its share goes to the others",
                        e.getKey(), config.controller().gatewayExpiry());
            }
            return gone;
        });
        // a flow is observed once a cycle, at its gateway's last report: forgotten once a whole window has passed unheard
        shares.forgetOlderThan(nowNanos - limit - config.gateway().stats().window().toNanos() - config.controller().cycle().toNanos());
    }

    static String fmt(double v) {
        return Double.isFinite(v) ? String.format("%.3f", v) : String.valueOf(v);
    }
}
