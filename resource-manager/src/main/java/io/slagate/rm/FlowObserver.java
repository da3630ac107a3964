package io.slagate.rm;

import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.rm.model.ErlangCModel;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.model.ModelCorrection;
import io.slagate.util.LogLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What each flow (g, c) of a pool looks like this cycle, from the cycle's input (eq. 3–4's λ~, t~ and w~): a
 * measurement that is not finite is dropped and the flow keeps its weight, as does a flow with arrivals and no answer
 * yet; a gateway not yet heard from takes a fair share, and a forecast rate is put in where the controller forecasts.
 * Feeds the model correction each flow's measurement. Not thread-safe: the control loop's thread.
 */
final class FlowObserver {
    private static final Logger LOG = LoggerFactory.getLogger(FlowObserver.class);
    private final ControlSetup setup;
    private final Overrides overrides;
    private final ModelCorrection correction;
    private final ShareHistory shares;
    private final Forecasts forecasts;
    private final FlowKeys keys;
    private final AtomicLong refusedFigures;
    private final LogLimiter warnings = new LogLimiter(Duration.ofSeconds(10));
    private final UnansweredHold unanswered = new UnansweredHold();

    /**
     * @param refusedFigures counts the flow reports refused for a non-finite or negative figure
     */
    FlowObserver(ControlSetup setup, Overrides overrides, ModelCorrection correction, ShareHistory shares, Forecasts forecasts,
                 FlowKeys keys, AtomicLong refusedFigures) {
        this.setup = setup;
        this.overrides = overrides;
        this.correction = correction;
        this.shares = shares;
        this.forecasts = forecasts;
        this.keys = keys;
        this.refusedFigures = refusedFigures;
    }

    /** The pool's flows (g, c), gateway-major, as observed in {@code in}. */
    PoolFlows observe(CycleInput in, String pool, List<Integer> poolClasses) {
        List<PoolFlows.Flow> flows = new ArrayList<>(in.reports().size() * poolClasses.size());
        boolean anyTraffic = false;
        boolean[] inPool = new boolean[setup.classCount()];
        for (int c : poolClasses) {
            inPool[c] = true;
        }
        for (String g : in.reports().keySet()) {
            StatsMessage stats = in.stats(g);
            GatewayView view = stats == null ? null : GatewayView.of(stats, setup, pool, inPool);
            Observed[] seen = new Observed[poolClasses.size()];
            String[] flowKeys = new String[seen.length];
            boolean newLoad = false; // a flow of this gateway's pool woke or changed: none of its flows waits for its window
            for (int x = 0; x < seen.length; x++) {
                int c = poolClasses.get(x);
                flowKeys[x] = keys.of(g, c);
                seen[x] = view == null ? Observed.NONE : observe(in, g, c, flowKeys[x], view);
                newLoad |= seen[x] != null && seen[x].newLoad();
            }
            for (int x = 0; x < seen.length; x++) {
                int c = poolClasses.get(x);
                String key = flowKeys[x];
                String name = setup.cls(c).name();
                Double pinned = overrides.weight(g, name, in.nowNanos());
                Double prior = null;
                FlowObservation o = seen[x] == null ? FlowObservation.NONE : seen[x].decideOn();
                if (seen[x] == null) { // a broken measurement says nothing: the flow keeps the weight in force, the others share the rest
                    prior = pinned == null ? in.weightInForce(g, name) : null;
                } else if (seen[x].moveUnmeasured() && !newLoad && pinned == null) {
                    prior = in.weightInForce(g, name);
                } else if (seen[x].unanswered() && pinned == null) {
                    prior = unansweredWeight(in, g, name, seen[x]);
                }
                correction.observe(key, seen[x] == null ? FlowObservation.NONE : seen[x].measured(), setup.model);
                o = forecasts.ahead(key, o, in.windowSeconds(g));
                anyTraffic |= !o.isEmpty();
                if (pinned == null && prior == null && stats == null) {
                    prior = fairShare(in, g, name);
                }
                flows.add(new PoolFlows.Flow(g, c, key, o, pinned, prior));
            }
        }
        return new PoolFlows(flows, anyTraffic);
    }

    /**
     * A flow as its report measured it (what the model correction is judged on), as it is decided on ({@link #arriving}
     * after a change, else the same); whether its last move is not yet measured: its weight at the gateway moved within
     * the window its figures span, so the window ran partly under the weight before, and a decision from it would answer
     * the move before the last (a swing around the optimum, each step decided on a window that had not seen the step
     * before it), and such a flow keeps its weight until its window has run wholly under it; and whether it shows a new
     * load (its figures are the intervals since a change, {@link ChangePoints}, or it was idle within the window), which
     * is acted on as it is seen, at every flow of its gateway's pool; whether it keeps its weight for want of answers
     * ({@link UnansweredHold}); and the share in slots its gateway runs it at, with the gateway's slots in the pool.
     */
    private record Observed(FlowObservation measured, FlowObservation decideOn, boolean moveUnmeasured, boolean newLoad,
                            boolean unanswered, double reportedShare, int slots) {
        static final Observed NONE = new Observed(FlowObservation.NONE, FlowObservation.NONE, false, false, false, 0, 0);
    }

    /**
     * λ~, t~ and w~ of flow (g,c) from g's report; w~ in server slots: the class's weight as a fraction of the pool's
     * weights at g, times the slots g had in the pool, averaged over the report's window as its t~ is
     * ({@link ShareHistory}). Null when a figure is not finite or negative (the report is refused for this flow).
     */
    private Observed observe(CycleInput in, String g, int c, String key, GatewayView view) {
        String name = setup.cls(c).name();
        FlowStatsMessage mine = view.flows.get(name);
        if (mine == null || !(view.poolWeight > 0)) {
            return Observed.NONE;
        }
        GatewayReport r = in.reports().get(g);
        // the share the window's t~ was measured under: its time-mean, not the share in force now
        ShareHistory.WindowShare window = shares.meanOver(key, r.heardNanos(), view.slots * mine.weight() / view.poolWeight,
                mine.weight(), !(mine.arrivalRate() > 0), r.windowSeconds(name));
        double w = window.mean();
        double[] measured = {mine.arrivalRate(), mine.meanResponseSeconds(), mine.throughput(), mine.meanServiceSeconds(), w};
        for (double v : measured) {
            if (!Double.isFinite(v) || v < 0) {
                long n = refusedFigures.incrementAndGet();
                if (warnings.allow()) {
                    LOG.warn("gateway {} reported a non-finite or negative measurement for class {} ({}); dropped: the flow keeps"
                            + " the weight in force ({} refused so far)", g, name, Arrays.toString(measured), n);
                }
                return null;
            }
        }
        FlowObservation o = new FlowObservation(mine.arrivalRate(), mine.meanResponseSeconds(), w, mine.throughput(),
                mine.meanServiceSeconds(), mine.percentileSeconds());
        boolean sinceChange = r.spans().containsKey(name);
        FlowObservation decideOn = sinceChange ? arriving(o, view.slots, r.fell().contains(name)) : o;
        boolean hold = unanswered.holds(key, decideOn, r.heardNanos(), r.windowSeconds(name));
        return new Observed(o, decideOn, window.weightMoved() && !o.isEmpty(), window.woke() || sinceChange, hold,
                view.slots * mine.weight() / view.poolWeight, view.slots);
    }

    /**
     * A flow estimated from the intervals since its change whose arrivals outran its answers there, as the load now
     * arriving would be served at its measured share: its answers since the change are those of the requests sent before
     * (a closed population that grew: its new clients each sent at once, and the answers are still the few clients' of
     * before, fast), so its response time says nothing of the new load, and its throughput, the old load's work, would
     * make the bounded overload figure ({@code ModelCorrection.saturated}) say that no share helps it. Where the arriving
     * work λ~·S~ fits within the gateway's slots of the pool, some share serves it: the flow is read as served at λ~, its
     * response time the measured one stretched by the arriving work's slots over its share, λ~·S~/w~, where that is more.
     * Where it does not fit (a flood), no share serves it, and the flow stays read as overloaded, which wins it no slots.
     * A flow whose arrivals fell at its change ({@code fell}) and whose answers outran them since is the opposite case, a
     * population that shrank: {@link #drained}. (Answers outrunning arrivals that did not fall are a queue the flow's own
     * larger share clears, which its measured times describe.)
     */
    static FlowObservation arriving(FlowObservation o, int slots, boolean fell) {
        if (o.isEmpty() || !o.hasServiceTime()) {
            return o;
        }
        if (o.draining() && fell) {
            return drained(o);
        }
        if (!o.overloaded()) {
            return o;
        }
        double work = o.arrivalRate() * o.serviceSeconds();
        if (!(work <= slots)) {
            return o;
        }
        return new FlowObservation(o.arrivalRate(), o.responseSeconds() * Math.max(1, work / o.weight()), o.weight(),
                o.arrivalRate(), o.serviceSeconds(), o.percentileSeconds());
    }

    private static final ErlangCModel OPEN = new ErlangCModel();

    /**
     * A flow estimated from the intervals since its change whose answers outran its arrivals there: a population that
     * shrank, whose answers are the backlog its clients of before left queued, as slow as that queue was. They say
     * nothing of the load now arriving, and read as they are they would make the flow look short of slots it no longer
     * needs. It is read as served at its arrival rate, its response time what open arrivals at that rate would wait at
     * its measured share (Erlang C: no queueing assumed away), never more than was measured nor less than its service.
     */
    static FlowObservation drained(FlowObservation o) {
        FlowObservation served = new FlowObservation(o.arrivalRate(), o.responseSeconds(), o.weight(), o.arrivalRate(),
                o.serviceSeconds(), Double.NaN);
        double r = Math.min(o.responseSeconds(), Math.max(o.serviceSeconds(), OPEN.predictSeconds(served, o.weight())));
        return new FlowObservation(o.arrivalRate(), r, o.weight(), o.arrivalRate(), o.serviceSeconds(), Double.NaN);
    }

    /** One gateway's report read once for one pool: its flows by class name, the pool's weights there, its slots in rotation. */
    private record GatewayView(Map<String, FlowStatsMessage> flows, double poolWeight, int slots) {
        /** @param inPool per class index, whether the class is the pool's */
        static GatewayView of(StatsMessage stats, ControlSetup setup, String pool, boolean[] inPool) {
            Map<String, FlowStatsMessage> flows = new HashMap<>();
            double poolWeight = 0;
            for (FlowStatsMessage fs : stats.flows()) {
                int ci = setup.classIndex(fs.className());
                if (ci >= 0 && inPool[ci]) {
                    poolWeight += fs.weight();
                }
                flows.put(fs.className(), fs); // a class named twice: the last, as read in order
            }
            int slots = 0;
            for (ServerStatusMessage ss : stats.servers()) {
                if (pool.equals(setup.poolOf(ss.serverId())) && ss.inRotation()) {
                    slots += ss.cap();
                }
            }
            return new GatewayView(flows, poolWeight, slots);
        }
    }

    /**
     * A flow with arrivals and no answer ({@link UnansweredHold}) says nothing of the share it needs: it keeps the weight
     * in force, or, before the manager's first allocation for its gateway, the share in slots its gateway runs it at;
     * within the minimum weight and the gateway's slots either way. Optimized on its zero response time it would be
     * given the minimum while its first requests wait.
     */
    private Double unansweredWeight(CycleInput in, String g, String name, Observed seen) {
        Double w = in.weightInForce(g, name);
        double keep = w != null ? w : seen.reportedShare();
        return Math.max(setup.config.controller().minWeight(), Math.min(keep, seen.slots()));
    }

    /** A gateway that left: what was kept of its flows goes with it. */
    void forget(String flowKey) {
        unanswered.forget(flowKey);
    }

    /**
     * A gateway that joined and has not reported yet starts at a fair share: each class at the mean weight the other
     * gateways hold for it in the allocation in force (behind one balancer its clients are as many as theirs), instead
     * of the minimum an idle flow gets, from which it would creep up over cycles while its clients wait. Null (optimize
     * it as usual) when no other gateway has one.
     */
    private Double fairShare(CycleInput in, String g, String name) {
        if (in.inForce() == null) {
            return null;
        }
        double[] all = classTotals(in, name); // {Σ w, n} over every live gateway in the allocation in force
        double sum = all[0];
        int n = (int) all[1];
        Double mine = in.weightInForce(g, name);
        if (mine != null) {
            sum -= mine;
            n--;
        }
        if (n == 0) {
            return null;
        }
        // the others give up a share to make room: of the pool's total, this gateway takes 1 / (n + 1)
        double res = setup.resolution();
        return Math.max(setup.config.controller().minWeight(), Math.round(sum / (n + 1) / res) * res);
    }

    private AllocationMessage totalsOf;
    private final Map<String, double[]> totals = new HashMap<>();

    /**
     * Per class, the weights of the allocation in force summed over the gateways of the cycle, and how many: summed once
     * per allocation, not once per new gateway's flow (hundreds join at once).
     */
    private double[] classTotals(CycleInput in, String name) {
        if (totalsOf != in.inForce()) {
            totals.clear();
            totalsOf = in.inForce();
        }
        return totals.computeIfAbsent(name, k -> {
            double sum = 0;
            int n = 0;
            for (Map.Entry<String, GatewayAllocation> e : in.inForce().gateways().entrySet()) {
                Double w = e.getValue().weights().get(k);
                if (in.knows(e.getKey()) && w != null && Double.isFinite(w)) {
                    sum += w;
                    n++;
                }
            }
            return new double[] {sum, n};
        });
    }
}
