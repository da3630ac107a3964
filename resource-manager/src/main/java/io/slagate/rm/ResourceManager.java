package io.slagate.rm;

import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.DecisionMessage.FlowDecision;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.rm.limit.ConcurrencyLimit;
import io.slagate.rm.model.ModelCorrection;
import io.slagate.rm.optimize.Damper;
import io.slagate.rm.reconfigure.PoolReconfiguration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * the minimum becomes the equal split ⌊N/K⌋.
 *
 * <p>A cycle is a flow of values: the gateways' last reports ({@link LastReports}) are read into an immutable
 * {@link CycleInput}; each pool's flows are observed from it ({@link FlowObserver}) into a {@link PoolProblem}, solved
 * into a {@link PoolDecision} ({@link PoolSolver}), and the decisions make the allocation. What lives across cycles
 * (the model's correction, the damping memory, the share history, the forecasters, the automatic limits, the capacity
 * signal) is each its own object, handed to the step that uses it. Not thread-safe: call from one thread (the control
 * loop).
 */

public final class ResourceManager {
    private static final Logger LOG = LoggerFactory.getLogger(ResourceManager.class);

    private final String id;
    private final ControlSetup setup;
    private final Overrides overrides;
    private final LastReports reports = new LastReports();
    /** The model's own measured error and gain per flow; carried across reconfigurations. */
    private final ModelCorrection correction;
    /** Flow reports refused for a non-finite or negative figure (the flow kept its weight). */
    private final AtomicLong refusedFigures = new AtomicLong();
    private final Forecasts forecasts;
    /** Each flow's shares over its statistics window, which its measurements are paired with. */
    private final ShareHistory shares;
    /** The automatic N_s of each {@code concurrency: auto} server. */
    private final AutoLimits limits;
    /** Units per flow of the last decision, per pool, with the flow list they belong to (for damping). */
    private final Damper damper = new Damper();
    /** Each flow's recent reporting intervals, to tell a change from the window's inertia. */
    private final ChangePoints changes = new ChangePoints();
    private final CapacitySignal capacitySignal;
    private final FlowObserver observer;
    private final PoolSolver solver;
    private final ErrorBudgets budgets = new ErrorBudgets();
    private BudgetSource budgetSource = BudgetSource.NONE;
    /** Per pool, what the last decision found it lacks for every class to meet its target (read from any thread). */
    private final Map<String, CapacityDeficit.Result> deficits = new ConcurrentHashMap<>();
    private long version;
    private AllocationMessage last;

    /** One cycle's outcome: the allocation to publish (null when paused or nobody to serve) and what led to it. */
    public record Decision(AllocationMessage allocation, DecisionMessage decision) {
    }

    public ResourceManager(String id, SlagateConfig config, Overrides overrides, long initialVersion) {
        this(id, config, overrides, initialVersion, new ModelCorrection(config.controller().correctionBound()));
    }

    private ResourceManager(String id, SlagateConfig config, Overrides overrides, long initialVersion, ModelCorrection correction) {
        this.id = id;
        this.setup = new ControlSetup(config);
        this.overrides = overrides;
        this.version = initialVersion;
        this.correction = correction;
        correction.onBlownPrediction(new BlownPredictions(setup.model.name()));
        Duration window = config.gateway().stats().window();
        forecasts = new Forecasts(config.controller());
        shares = new ShareHistory(window.toNanos() / 1e9);
        limits = new AutoLimits(setup);
        capacitySignal = new CapacitySignal(config.controller().capacityStabilization(window).toNanos());
        FlowKeys keys = new FlowKeys(config);
        observer = new FlowObserver(setup, overrides, correction, shares, forecasts, keys, refusedFigures);
        solver = new PoolSolver(setup, correction, damper, keys, budgets);
    }

    /** Where the classes' error budgets stand ({@code controller.errorBudget}); {@link BudgetSource#NONE} until set. */
    public void budgetSource(BudgetSource source) {
        this.budgetSource = source;
    }

    /** The model correction, learned per flow across cycles. */
    ModelCorrection correction() {
        return correction;
    }

    /** The flows the model correction keeps a gain, an error or a pending decision for. */
    Set<String> flowsLearned() {
        return correction.flowsKept();
    }

    /** Corrected predictions so far that came out non-positive or non-finite ({@link ModelCorrection#outOfRange}). */
    public long predictionsOutOfRange() {
        return correction.outOfRange();
    }

    /** Control cycles one statistics window spans (at least 1). */
    public int windowCycles() {
        return setup.windowCycles;
    }

    /**
     * A manager for a new configuration that continues this one: same version sequence, the gateways' last reports,
     * what was learned across cycles and the last allocation (for late joiners).
     */
    public ResourceManager reconfigured(SlagateConfig next) {
        boolean sameBound = next.controller().correctionBound() == setup.config.controller().correctionBound();
        ModelCorrection nextCorrection = sameBound ? correction : new ModelCorrection(next.controller().correctionBound());
        nextCorrection.countFrom(correction);
        ResourceManager r = new ResourceManager(id, next, overrides, version, nextCorrection);
        r.reports.keep(reports);
        r.damper.rememberFrom(damper);
        r.changes.keep(changes);
        r.forecasts.keep(forecasts);
        r.shares.keep(shares);
        r.limits.keep(limits); // same bounds: keep what was learned
        r.capacitySignal.keep(capacitySignal);
        r.refusedFigures.set(refusedFigures.get());
        r.last = last;
        r.budgetSource = budgetSource;
        return r;
    }

    /**
     * Keeps a gateway's report, with each flow that changed within its window estimated from the intervals since the
     * change ({@link ChangePoints}); a class whose flow changed at this report has its pools' damping and its flows' model
     * correction restarted.
     *
     * @return the classes whose flows changed at this report (empty for none): each is a reason to decide now
     */
    public Set<String> onStats(StatsMessage stats, long nowNanos) {
        ChangePoints.Seen seen = changes.observe(stats);
        reports.report(seen.stats(), nowNanos, seen.spans(), seen.fell());
        for (String c : seen.changed()) {
            setup.poolsOfClass(c).forEach(damper::restart);
            correction.restart(FlowKeys.named(stats.gatewayId(), c));
            correction.restart(FlowKeys.named(FlowKeys.WHOLE_CLASS, c));
        }
        return seen.changed();
    }

    /** A gateway left in order: its share is redistributed at the next step. */
    public void onLeave(String gatewayId) {
        reports.leave(gatewayId);
        forget(gatewayId);
    }

    /** What was learned per flow of a gateway that left or fell silent: gone with it (thousands come and go in a day). */
    private void forget(String gatewayId) {
        changes.forget(gatewayId);
        for (TrafficClassConfig tc : setup.config.classes()) {
            String flow = FlowKeys.named(gatewayId, tc.name());
            correction.forget(flow);
            forecasts.forget(flow);
            observer.forget(flow);
        }
    }

    /** A gateway joined: known from now on, with no measurements until its first report. */
    public void onJoin(String gatewayId, long nowNanos) {
        reports.join(gatewayId, nowNanos);
    }

    public List<String> liveGateways() {
        return reports.gateways();
    }

    /** The last allocation decided, for a gateway that joins late; null before the first. */
    public AllocationMessage lastAllocation() {
        return last;
    }

    public long version() {
        return version;
    }

    /** What the gateways' reports measure now. */
    private Readings readings() {
        return new Readings(setup, reports.stats());
    }

    /**
     * The measured utility of the named classes now: per class, eq. 7 on the window's mean (or goal percentile),
     * weighted by answers over the gateways; combined by the configured function (min or sum). NaN while none of them
     * has answers (the objective, one side of the split).
     */
    public double measuredUtility(Collection<String> classNames) {
        return readings().utility(classNames);
    }

    /** Per pool, its offered load Σ λ·S over every gateway's flows of its classes, for pool reconfiguration. */
    public Map<String, Double> offeredLoad() {
        return readings().offeredLoad();
    }

    /** Servers some gateway reported refusing the pool they were moved to, with that pool. */
    public Map<String, String> refusedPools() {
        return readings().refusedPools();
    }

    /** Every server as pool reconfiguration sees it: its pool now, its slots, requests out on it, its mean service time. */
    public List<PoolReconfiguration.Server> serverStates(long nowNanos) {
        List<PoolReconfiguration.Server> out = new ArrayList<>();
        GatewayReports servers = reports.servers();
        for (ServerConfig sc : setup.config.servers()) {
            GatewayReports.Server r = servers.server(sc.id());
            out.add(new PoolReconfiguration.Server(sc.id(), sc.pool(), sc.pools(), servers.up(sc.id()) ? capacityOf(sc, nowNanos) : 0,
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
        long started = System.nanoTime();
        if (overrides.paused()) {
            return new Decision(null, new DecisionMessage(BusMessage.SCHEMA, version, System.currentTimeMillis(), id, true,
                    Double.NaN, 0, List.of()));
        }
        CycleInput in = reports.input(nowNanos, last);
        if (in.reports().isEmpty()) {
            return new Decision(null, null);
        }
        budgets.update(setup, budgetSource);
        List<String> gws = in.gateways();
        Map<String, Map<String, Double>> weights = new TreeMap<>();
        Map<String, Map<String, Integer>> caps = new TreeMap<>();
        for (String g : gws) {
            weights.put(g, new LinkedHashMap<>());
            caps.put(g, new LinkedHashMap<>());
        }
        List<FlowDecision> flowDecisions = new ArrayList<>();
        double clusterUtility = setup.combineStart();
        StringBuilder logLine = new StringBuilder();
        limits.update(in);
        for (Map.Entry<String, List<Integer>> pool : setup.classesOfPool().entrySet()) {
            List<ServerConfig> servers = setup.serversOf(pool.getKey());
            int[] capacity = capacities(servers, in);
            int n = Arrays.stream(capacity).sum();
            PoolFlows flows = observer.observe(in, pool.getKey(), pool.getValue());
            PoolDecision d = solver.solve(PoolProblem.of(pool.getKey(), pool.getValue(), flows, n, setup));
            deficits.put(pool.getKey(), capacitySignal.observe(d.deficit(), nowNanos));
            d.flows().forEach(f -> weights.get(f.gatewayId()).put(f.className(), f.weight()));
            flowDecisions.addAll(d.flows());
            clusterUtility = setup.combine(clusterUtility, d.objective());
            CapSplit.of(gws, servers, capacity, d.flows()).forEach((g, mine) -> caps.get(g).putAll(mine));
            logLine.append(" pool ").append(pool.getKey()).append(": N=").append(n).append(' ').append(d.summary());
        }
        version++;
        Map<String, GatewayAllocation> perGateway = perGateway(in, weights, caps);
        long now = System.currentTimeMillis();
        boolean changed = last == null || !withoutQuotas(last.gateways()).equals(withoutQuotas(perGateway));
        last = allocation(perGateway, now);
        double solveMillis = (System.nanoTime() - started) / 1e6;
        logLine.append(budgets.describe(setup));
        logCycle(changed, gws, clusterUtility, solveMillis, logLine);
        return new Decision(last, new DecisionMessage(BusMessage.SCHEMA, version, now, id, false, clusterUtility, solveMillis,
                DecisionDigest.of(flowDecisions), limits.decisions(), List.of(), last.capacity()));
    }

    /** Each server's N_s this cycle: its capacity while a gateway sees it up, or what a gateway's fast local limit holds it to. */
    private int[] capacities(List<ServerConfig> servers, CycleInput in) {
        int[] capacity = new int[servers.size()];
        GatewayReports reported = in.servers();
        for (int s = 0; s < servers.size(); s++) {
            GatewayReports.Server r = reported.server(servers.get(s).id());
            capacity[s] = reported.up(servers.get(s).id()) ? capacityOf(servers.get(s), in.nowNanos()) : 0;
            int limited = r.locallyLimitedCapacity();
            if (limited >= 0 && limited < capacity[s]) {
                capacity[s] = limited; // a gateway's fast local limit holds it: its current capacity
            }
        }
        return capacity;
    }

    /** Each gateway's part: its weights and its non-zero caps (servers of pools without classes have none), and its quotas. */
    private Map<String, GatewayAllocation> perGateway(CycleInput in, Map<String, Map<String, Double>> weights,
                                                      Map<String, Map<String, Integer>> caps) {
        Map<String, GatewayAllocation> perGateway = new TreeMap<>();
        Map<String, Map<String, Double>> quotas = Map.of();
        List<String> gws = in.gateways();
        if (setup.config.classification().hasQuotas()) {
            Map<String, Map<String, Double>> demand = new TreeMap<>();
            in.reports().forEach((g, r) -> demand.put(g, r.reported() ? r.stats().quotaDemand() : Map.of()));
            quotas = QuotaSplit.split(setup.config.classification(), gws, demand, refusedFigures);
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
            String line = String.format("cycle v%d gateways=%s Ω=%s solve=%.2fms%s", version, named, PoolSolver.fmt(clusterUtility), solveMillis, pools);
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
        for (ServerConfig sc : setup.config.servers()) {
            if (sc.movable()) {
                serverPools.put(sc.id(), sc.pool());
            }
        }
        Map<String, Long> queueTimeouts = new TreeMap<>(overrides.queueTimeouts());
        queueTimeouts.keySet().retainAll(setup.config.classes().stream().map(TrafficClassConfig::name).toList());
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
        return forecasts.errors();
    }

    private int capacityOf(ServerConfig s, long nowNanos) {
        Integer pinned = overrides.capacity(s.id(), nowNanos);
        ConcurrencyLimit auto = limits.get(s.id());
        return pinned != null ? pinned : auto != null ? auto.limit() : s.concurrency();
    }


    /** The automatic N_s of each {@code concurrency: auto} server (read-only). */
    public Map<String, ConcurrencyLimit> concurrencyLimits() {
        return limits.view();
    }

    private void expire(long nowNanos) {
        long limit = setup.config.controller().gatewayExpiry() * setup.config.gateway().stats().reportingInterval().toNanos();
        for (String g : reports.expire(nowNanos, limit)) {
            forget(g);
            LOG.warn("gateway {} silent for more than {} reporting intervals; its share goes to the others", g,
                    setup.config.controller().gatewayExpiry());
        }
        // a flow is observed once a cycle, at its gateway's last report: forgotten once a whole window has passed unheard
        shares.forgetOlderThan(nowNanos - limit - setup.config.gateway().stats().window().toNanos()
                - setup.config.controller().cycle().toNanos());
    }
}
