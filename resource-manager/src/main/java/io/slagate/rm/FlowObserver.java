package io.slagate.rm;

import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.ServerConfig;
import io.slagate.rm.forecast.BestOfForecaster;
import io.slagate.rm.model.FlowObservation;
import io.slagate.config.SlagateConfig;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What each flow (g, c) of a pool looks like this cycle, from the gateways' last reports (eq. 3–4's
 * λ~, t~ and w~): a measurement that is not finite is dropped and the flow keeps its weight, a
 * gateway not yet heard from takes a fair share, and a forecast rate is put in where the controller
 * forecasts. Not thread-safe: the manager's thread.
 */
final class FlowObserver {
    private static final Logger LOG = LoggerFactory.getLogger(ResourceManager.class);
    private final ResourceManager rm;

    FlowObserver(ResourceManager rm) {
        this.rm = rm;
    }

    /** The pool's flows (g, c), gateway-major, as observed this cycle. */
    record Flows(String[] gateway, int[] cls, FlowObservation[] obs, Double[] pinned, Double[] prior, boolean anyTraffic) {
        int size() {
            return gateway.length;
        }
    }


    Flows observeFlows(List<Integer> poolClasses, List<String> gws, long nowNanos) {
        int k = gws.size() * poolClasses.size();
        Flows flows = new Flows(new String[k], new int[k], new FlowObservation[k], new Double[k], new Double[k], false);
        FlowObservation[] obs = flows.obs();
        int f = 0;
        boolean anyTraffic = false;
        for (String g : gws) {
            for (int c : poolClasses) {
                flows.gateway()[f] = g;
                flows.cls()[f] = c;
                obs[f] = observe(g, c, poolClasses);
                if (obs[f] == NON_FINITE) {
                    Double kept = lastWeight(g, c);
                    if (kept != null && rm.overrides.weight(g, rm.config.classes().get(c).name(), nowNanos) == null) {
                        // a broken measurement says nothing: this flow keeps the weight in force, the others share the rest
                        flows.prior()[f] = kept;
                    }
                    obs[f] = FlowObservation.NONE;
                }
                rm.correction.observe(flowKey(g, c), obs[f], rm.model);
                obs[f] = ahead(flowKey(g, c), obs[f], windowSeconds(g));
                anyTraffic |= !obs[f].isEmpty();
                flows.pinned()[f] = rm.overrides.weight(g, rm.config.classes().get(c).name(), nowNanos);
                if (flows.pinned()[f] == null && flows.prior()[f] == null && !reported(g)) {
                    flows.prior()[f] = fairShare(g, c);
                }
                f++;
            }
        }
        return new Flows(flows.gateway(), flows.cls(), obs, flows.pinned(), flows.prior(), anyTraffic);
    }


    /** Most cycles ahead a forecast reaches: beyond, a trend's noise would count for more than the trend. */
    static final double MAX_FORECAST_STEPS = 10;

    /** The statistics window gateway {@code g} last reported (its rates are means over it); NaN when unknown. */
    double windowSeconds(String g) {
        ResourceManager.Report r = rm.gateways.get(g);
        return r == null || r.stats() == null ? Double.NaN : r.stats().windowSeconds();
    }

    /**
     * The observation with the highest arrival rate the flow will have during the next cycle, where
     * {@code controller.forecast} puts a forecast in force: always under {@code trend}, under {@code auto} while the
     * forecaster's recent one-cycle error is below {@value #FORECAST_TRUSTED}. Each flow's forecaster sees each cycle's
     * measured rate once. A windowed rate is the mean over the window, centred half a window back, so the next cycle
     * starts (window / 2) / Γ cycles ahead of it and ends one cycle later (at most {@link #MAX_FORECAST_STEPS}); the
     * allocation decided now holds until then, so a rising rate is provisioned for at the cycle's end (its mean left a
     * rate that crossed a slot's worth within the cycle one slot short until the next decision) and a falling one at
     * its start.
     */
    FlowObservation ahead(String flow, FlowObservation o, double windowSeconds) {
        String mode = rm.config.controller().forecast();
        if ("none".equals(mode) || o.isEmpty()) {
            return o;
        }
        BestOfForecaster f = rm.forecasters.computeIfAbsent(flow, k -> BestOfForecaster.standard());
        String before = f.chosen();
        f.observe(o.arrivalRate());
        if (!before.equals(f.chosen())) {
            LOG.info("flow {}: forecasting by {} now (recent one-cycle errors {})", flow, f.chosen(), f.errors());
        }
        double cycle = rm.config.controller().cycle().toNanos() / 1e9;
        double start = Double.isFinite(windowSeconds) && windowSeconds > 0 && cycle > 0
                ? Math.min(MAX_FORECAST_STEPS - 1, windowSeconds / (2 * cycle)) : 0.5;
        double rate = Math.max(f.ahead(start), f.ahead(start + 1));
        boolean trusted = "trend".equals(mode) || f.error() < ResourceManager.FORECAST_TRUSTED;
        return Double.isFinite(rate) && trusted ? o.withForecast(rate) : o;
    }


    /** Whether gateway {@code g} has sent statistics yet. */
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
        double[] all = classTotals(name); // {Σ w, n} over every live gateway in the allocation in force
        double sum = all[0];
        int n = (int) all[1];
        GatewayAllocation own = rm.gateways.containsKey(g) ? rm.last.gateways().get(g) : null;
        Double mine = own == null ? null : own.weights().get(name);
        if (mine != null && Double.isFinite(mine)) {
            sum -= mine;
            n--;
        }
        if (n == 0) {
            return null;
        }
        // the others give up a share to make room: of the pool's total, this gateway takes 1 / (n + 1)
        double res = rm.config.controller().resolution();
        return Math.max(rm.config.controller().minWeight(), Math.round(sum / (n + 1) / res) * res);
    }

    private AllocationMessage totalsOf;
    private final Map<String, double[]> totals = new HashMap<>();

    /**
     * Per class, the weights of the allocation in force summed over the gateways the manager counts, and how many:
     * summed once per allocation, not once per new gateway's flow (hundreds join at once).
     */
    private double[] classTotals(String name) {
        if (totalsOf != rm.last) {
            totals.clear();
            totalsOf = rm.last;
        }
        return totals.computeIfAbsent(name, k -> {
            double sum = 0;
            int n = 0;
            for (Map.Entry<String, GatewayAllocation> e : rm.last.gateways().entrySet()) {
                Double w = e.getValue().weights().get(k);
                if (rm.gateways.containsKey(e.getKey()) && w != null && Double.isFinite(w)) {
                    sum += w;
                    n++;
                }
            }
            return new double[] {sum, n};
        });
    }

    /** The flow's key ("gateway/class"), built once per flow rather than at every ask (several per flow per cycle). */
    String flowKey(String gateway, int classIndex) {
        ConfigIndex ix = index();
        if (ix.keys.size() > 4 * rm.config.controller().maxGateways()) {
            ix.keys.clear(); // gateways long gone: pods' names change with every restart
        }
        String[] k = ix.keys.computeIfAbsent(gateway, g -> new String[rm.config.classes().size()]);
        if (k[classIndex] == null) {
            k[classIndex] = gateway + "/" + rm.config.classes().get(classIndex).name();
        }
        return k[classIndex];
    }

    /**
     * λ~, t~ and w~ of flow (g,c) from g's last report; w~ in server slots: the class's weight as a
     * fraction of the pool's weights at g, times the slots g had in the pool, averaged over the report's
     * window as its t~ is ({@link ShareHistory}).
     */
    FlowObservation observe(String g, int c, List<Integer> poolClasses) {
        ResourceManager.Report r = rm.gateways.get(g);
        if (r == null || r.stats() == null) {
            return FlowObservation.NONE;
        }
        GatewayView gv = view(r, poolClasses, rm.config.classes().get(c).pool());
        String name = rm.config.classes().get(c).name();
        FlowStatsMessage mine = gv.flows.get(name);
        double poolWeight = gv.poolWeight;
        int slots = gv.slots;
        if (mine == null || !(poolWeight > 0)) {
            return FlowObservation.NONE;
        }
        // the share the window's t~ was measured under: its time-mean, not the share in force now
        double w = rm.shares.meanOver(flowKey(g, c), r.heardNanos(), slots * mine.weight() / poolWeight, r.stats().windowSeconds());
        double[] measured = {mine.arrivalRate(), mine.meanResponseSeconds(), mine.throughput(), mine.meanServiceSeconds(), w};
        for (double v : measured) {
            if (!Double.isFinite(v) || v < 0) {
                long n = rm.refusedFigures.incrementAndGet();
                if (rm.badObservationWarnings.allow()) {
                    LOG.warn("gateway {} reported a non-finite or negative measurement for class {} ({}); dropped: the flow keeps"
                            + " the weight in force ({} refused so far)", g, name, Arrays.toString(measured), n);
                }
                return NON_FINITE;
            }
        }
        return new FlowObservation(mine.arrivalRate(), mine.meanResponseSeconds(), w, mine.throughput(), mine.meanServiceSeconds(),
                mine.percentileSeconds());
    }

    /** One gateway's report read for one pool: its flows by class name, the pool's weights there, its slots in rotation. */
    private static final class GatewayView {
        final Map<String, FlowStatsMessage> flows = new HashMap<>();
        double poolWeight;
        int slots;
    }

    private ResourceManager.Report viewed;
    private List<Integer> viewedPool;
    private GatewayView view;

    /** The report read once for all of the pool's classes (observeFlows asks class after class of one gateway). */
    private GatewayView view(ResourceManager.Report r, List<Integer> poolClasses, String pool) {
        if (r == viewed && poolClasses == viewedPool) {
            return view;
        }
        GatewayView v = new GatewayView();
        Map<String, Integer> classIndex = index().classIndex;
        for (FlowStatsMessage fs : r.stats().flows()) {
            Integer ci = classIndex.get(fs.className());
            if (ci != null && poolClasses.contains(ci)) {
                v.poolWeight += fs.weight();
            }
            v.flows.put(fs.className(), fs); // a class named twice: the last, as read in order
        }
        Map<String, String> poolOf = index().poolOf;
        for (ServerStatusMessage ss : r.stats().servers()) {
            if (pool.equals(poolOf.get(ss.serverId())) && ss.inRotation()) {
                v.slots += ss.cap();
            }
        }
        viewed = r;
        viewedPool = poolClasses;
        view = v;
        return v;
    }

    /** What the configuration in force says, indexed once: each server's pool and each class's index by name; the flow keys. */
    private static final class ConfigIndex {
        final SlagateConfig config;
        final Map<String, String> poolOf = new HashMap<>();
        final Map<String, Integer> classIndex = new HashMap<>();
        final Map<String, String[]> keys = new HashMap<>();

        ConfigIndex(SlagateConfig config) {
            this.config = config;
            for (ServerConfig sc : config.servers()) {
                poolOf.put(sc.id(), sc.pool());
            }
            for (int i = 0; i < config.classes().size(); i++) {
                classIndex.put(config.classes().get(i).name(), i);
            }
        }
    }

    private ConfigIndex index;

    private ConfigIndex index() {
        if (index == null || index.config != rm.config) {
            index = new ConfigIndex(rm.config);
        }
        return index;
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
}
