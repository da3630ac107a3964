package io.slagate.rm;

import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.config.ServerConfig;
import io.slagate.bus.message.StatsMessage;
import io.slagate.rm.limit.ConcurrencyLimit;
import io.slagate.rm.limit.KneeLimit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The automatic N_s of each {@code concurrency: auto} server, found at the knee of its throughput
 * ({@link KneeLimit}) from what the gateways report each cycle. The manager's thread only.
 */
final class AutoLimits {
    private static final Logger LOG = LoggerFactory.getLogger(AutoLimits.class);

    private final ControlSetup setup;
    private final Map<String, ConcurrencyLimit> limits = new LinkedHashMap<>();

    /**
     * Each limit settles for a window and three cycles after a change: a window reflects a new N_s once the allocation
     * reached the gateways, the window filled with answers under it, and its report arrived.
     */
    AutoLimits(ControlSetup setup) {
        this.setup = setup;
        int windowCycles = setup.windowCycles;
        int settle = windowCycles + 3;
        for (ServerConfig sc : setup.config.servers()) {
            if (sc.auto() != null) {
                limits.put(sc.id(), new KneeLimit(sc.auto().min(), sc.auto().max(), sc.auto().start(), settle, windowCycles));
            }
        }
    }

    /** Keeps what {@code before} learned about each server whose bounds are the same in both configurations. */
    void keep(AutoLimits before) {
        for (ServerConfig sc : setup.config.servers()) {
            ServerConfig was = before.setup.config.servers().stream().filter(x -> x.id().equals(sc.id())).findFirst().orElse(null);
            if (sc.auto() != null && was != null && sc.auto().equals(was.auto()) && before.limits.containsKey(sc.id())) {
                limits.put(sc.id(), before.limits.get(sc.id()));
            }
        }
    }

    /** Server {@code id}'s automatic limit, or null when its N_s is configured. */
    ConcurrencyLimit get(String id) {
        return limits.get(id);
    }

    Map<String, ConcurrencyLimit> view() {
        return Collections.unmodifiableMap(limits);
    }

    /** Each automatic server's N_s, knee and reason, for the decision message. */
    List<DecisionMessage.ServerDecision> decisions() {
        List<DecisionMessage.ServerDecision> out = new ArrayList<>();
        limits.forEach((server, l) -> out.add(new DecisionMessage.ServerDecision(server, l.limit(), l.knee(), l.reason())));
        return out;
    }

    /**
     * Feeds each automatic N_s the gateways' view of its server: answers per second summed, their mean
     * service time (weighted by answers), the requests executing, and the requests of its pool waiting.
     */
    void update(CycleInput in) {
        Readings readings = new Readings(setup, in.allStats());
        for (Map.Entry<String, ConcurrencyLimit> e : limits.entrySet()) {
            ServerConfig sc = setup.config.servers().stream().filter(x -> x.id().equals(e.getKey())).findFirst().orElseThrow();
            List<Integer> poolClasses = setup.classesOfPool().getOrDefault(sc.pool(), List.of());
            double x = 0;
            double work = 0;
            int inUse = 0;
            int waiting = 0;
            boolean missed = false;
            for (StatsMessage stats : in.allStats()) {
                for (ServerStatusMessage ss : stats.servers()) {
                    if (ss.serverId().equals(sc.id()) && ss.throughput() > 0 && Double.isFinite(ss.throughput())
                            && ss.meanServiceSeconds() > 0 && Double.isFinite(ss.meanServiceSeconds())) {
                        x += ss.throughput();
                        work += ss.throughput() * ss.meanServiceSeconds();
                    }
                    if (ss.serverId().equals(sc.id())) {
                        inUse += Math.max(0, ss.outstanding());
                    }
                }
                for (FlowStatsMessage fs : stats.flows()) {
                    int ci = setup.classIndex(fs.className());
                    if (poolClasses.contains(ci)) {
                        waiting += Math.max(0, fs.queueLength());
                        missed |= fs.throughput() > 0 && setup.goals(ci).missedBy(fs.meanResponseSeconds(), fs.percentileSeconds());
                    }
                }
            }
            ConcurrencyLimit limit = e.getValue();
            int before = limit.limit();
            double[] utilities = poolClasses.stream().mapToDouble(readings::utility).toArray();
            double answers = x * setup.config.gateway().stats().window().toNanos() / 1e9;
            int after = limit.update(new ConcurrencyLimit.Sample(x, x > 0 ? work / x : Double.NaN, inUse, waiting, missed, utilities,
                    answers));
            if (after != before) {
                LOG.info("server {}: N_s {} → {}: {}", sc.id(), before, after, limit.reason());
            }
        }
    }
}
