package io.slagate.gateway.agent;

import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.stats.GatewayMetrics;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one gateway takes from a manager's allocation: the weights and caps of its own share, the queue
 * timeouts and the statistics window. A name this gateway does not have is ignored and logged, never
 * guessed at. The gateway's agent applies it; so does the twin, which runs the scheduler in virtual time.
 */
public final class AllocationShare {
    private static final Logger LOG = LoggerFactory.getLogger(AllocationShare.class);
    /** A class the allocation gives no share (or a non-positive one) still gets this: the WRR needs positive weights. */
    static final double WEIGHT_FLOOR = 1e-3;

    private AllocationShare() {
    }

    /**
     * The allocation {@code mine} (this gateway's part of {@code a}) makes of {@code current}: the weights of the
     * classes it names, floored; the caps of the servers it names, and none on a server it does not name.
     */
    public static Allocation of(AllocationMessage a, GatewayAllocation mine, SlagateConfig config, Allocation current) {
        double[] w = current.weights();
        int[] n = new int[config.servers().size()];
        for (Map.Entry<String, Double> e : mine.weights().entrySet()) {
            int c = config.classIndex(e.getKey());
            if (c < 0) {
                LOG.warn("allocation v{} names class {} which this gateway does not have; ignored", a.version(), e.getKey());
                continue;
            }
            double v = e.getValue() == null ? 0 : e.getValue();
            w[c] = Double.isFinite(v) && v > WEIGHT_FLOOR ? v : WEIGHT_FLOOR;
        }
        for (Map.Entry<String, Integer> e : mine.caps().entrySet()) {
            int s = serverIndex(config, e.getKey());
            if (s < 0) {
                LOG.warn("allocation v{} names server {} which this gateway does not have; ignored", a.version(), e.getKey());
                continue;
            }
            n[s] = Math.max(0, e.getValue() == null ? 0 : e.getValue());
        }
        return new Allocation(a.version(), w, n);
    }

    /**
     * The manager's queue timeouts (the knob) per class index, 0 where the configured one applies: a class this
     * gateway does not have, or a value outside what a class's queueTimeout may be (1 ms to 1 h), is ignored and logged.
     */
    public static long[] queueTimeouts(AllocationMessage a, SlagateConfig config) {
        long[] nanos = new long[config.classes().size()];
        for (Map.Entry<String, Long> e : a.queueTimeoutMillis().entrySet()) {
            int c = config.classIndex(e.getKey());
            Long ms = e.getValue();
            if (c < 0) {
                LOG.warn("allocation v{} sets the queue timeout of class {} which this gateway does not have; ignored", a.version(),
                        e.getKey());
            } else if (ms == null || ms < ConfigLoader.MIN_QUEUE_TIMEOUT.toMillis() || ms > ConfigLoader.MAX_TIMEOUT.toMillis()) {
                LOG.warn("allocation v{} sets the queue timeout of class {} to {} ms, outside what a class's queueTimeout may be"
                        + " ({} to {}); the configured one stays", a.version(), e.getKey(), ms, ConfigLoader.MIN_QUEUE_TIMEOUT,
                        ConfigLoader.MAX_TIMEOUT);
            } else {
                nanos[c] = ms * 1_000_000L;
            }
        }
        return nanos;
    }

    /**
     * The manager's statistics window (the window knob), in whole reporting intervals of {@code m}: none set (0 or
     * less) brings back the configured window; a longer one than configured is cut to it (the gateway holds no more)
     * and logged.
     */
    public static int windowIntervals(AllocationMessage a, GatewayMetrics m) {
        long ms = a.statsWindowMillis();
        if (ms <= 0) {
            return m.configuredWindowIntervals();
        }
        int intervals = (int) Math.max(1, Math.round(ms / 1000.0 / m.intervalSeconds()));
        if (intervals > m.configuredWindowIntervals()) {
            LOG.warn("allocation v{} sets the statistics window to {} ms, longer than the configured one; the configured one applies",
                    a.version(), ms);
        }
        return intervals;
    }

    private static int serverIndex(SlagateConfig config, String serverId) {
        for (int s = 0; s < config.servers().size(); s++) {
            if (config.servers().get(s).id().equals(serverId)) {
                return s;
            }
        }
        return -1;
    }
}
