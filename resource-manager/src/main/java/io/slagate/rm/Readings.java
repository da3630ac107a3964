package io.slagate.rm;

import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.ServerConfig;
import io.slagate.config.TrafficClassConfig;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the gateways' reports measure, taken over every gateway: each class's measured utility, each pool's offered
 * load, and the servers reported refusing a pool.
 */
final class Readings {
    private final ControlSetup setup;
    private final List<StatsMessage> stats;

    /** @param stats the reports of the gateways that have reported */
    Readings(ControlSetup setup, List<StatsMessage> stats) {
        this.setup = setup;
        this.stats = stats;
    }

    /**
     * The measured utility of the named classes: per class, {@link #utility(int)}; combined by the configured function
     * (min or sum). NaN while none of them has answers (the objective, one side of the split).
     */
    double utility(Collection<String> classNames) {
        double combined = Double.NaN;
        for (String name : classNames) {
            int c = setup.classIndex(name);
            double v = c < 0 ? Double.NaN : utility(c);
            if (Double.isFinite(v)) {
                combined = Double.isNaN(combined) ? v : setup.combine(combined, v);
            }
        }
        return combined;
    }

    /**
     * Class {@code c}'s measured utility: eq. 7 on each gateway's window (mean or goal percentile), weighted by its
     * answers, with each failure the gateway or a server caused counted as {@link ClassGoals#failedUtility} (a client's
     * own faults are not counted); NaN without answers or failures.
     */
    double utility(int c) {
        TrafficClassConfig tc = setup.cls(c);
        ClassGoals goals = setup.goals(c);
        double failed = goals.failedUtility(tc.queueTimeout().toNanos() / 1e9);
        double u = 0;
        double counted = 0;
        for (StatsMessage s : stats) {
            for (FlowStatsMessage f : s.flows()) {
                if (!f.className().equals(tc.name())) {
                    continue;
                }
                if (f.throughput() > 0) {
                    double m = goals.measuredUtility(f.meanResponseSeconds(), f.percentileSeconds());
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

    /** Per pool, its offered load Σ λ·S over every gateway's flows of its classes (the busy slots it needs at the rates measured). */
    Map<String, Double> offeredLoad() {
        Map<String, Double> out = new LinkedHashMap<>();
        for (ServerConfig sc : setup.config.servers()) {
            out.putIfAbsent(sc.pool(), 0.0);
        }
        for (StatsMessage s : stats) {
            for (FlowStatsMessage f : s.flows()) {
                int c = setup.classIndex(f.className());
                double load = f.arrivalRate() * f.meanServiceSeconds();
                if (c >= 0 && Double.isFinite(load) && load > 0) {
                    out.merge(setup.cls(c).pool(), load, Double::sum);
                }
            }
        }
        return out;
    }

    /** Servers some gateway reported refusing the pool they were moved to, with that pool. */
    Map<String, String> refusedPools() {
        Map<String, String> out = new TreeMap<>();
        for (StatsMessage s : stats) {
            for (ServerStatusMessage ss : s.servers()) {
                if (ss.refusedPool() != null) {
                    out.put(ss.serverId(), ss.refusedPool());
                }
            }
        }
        return out;
    }
}
