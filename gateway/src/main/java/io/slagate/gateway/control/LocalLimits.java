package io.slagate.gateway.control;

import io.slagate.config.SlagateConfig;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.stats.GatewayMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fast inner loop under the resource manager, ticked every {@value #TICK_MILLIS} ms on the
 * gateway's timer: each server's answers since the last tick against its window's normal
 * ({@link LocalLimit}, one per server). A new configuration's servers start afresh.
 */
public final class LocalLimits {
    private static final Logger LOG = LoggerFactory.getLogger(LocalLimits.class);
    public static final long TICK_MILLIS = 100;
    /** A reduced cap holds at most this long while the server stays slow: the manager has decided by then. */
    public static final long HOLD_MILLIS = 10_000;

    private volatile LocalLimit[] limits;
    /** The queues the limits were built for: a new configuration's are new queues. */
    private volatile QueueManager limitsOf;

    public void tick(SlagateConfig config, GatewayMetrics metrics, QueueManager queues) {
        if (limitsOf != queues) {
            LocalLimit[] fresh = new LocalLimit[config.servers().size()];
            for (int i = 0; i < fresh.length; i++) {
                fresh[i] = new LocalLimit((int) (HOLD_MILLIS / TICK_MILLIS), TICK_MILLIS / 1000.0);
            }
            limits = fresh;
            limitsOf = queues;
        }
        LocalLimit[] l = limits;
        for (int s = 0; s < l.length; s++) {
            double[] tick = metrics.servers().tick(s);
            int granted = queues.caps().allocation().cap(s);
            boolean before = l[s].limiting();
            int cap = l[s].tick((int) tick[0], tick[1], metrics.servers().window(s)[1], granted);
            queues.limitLocally(s, l[s].limiting() ? cap : -1);
            if (l[s].limiting() != before) {
                String id = config.servers().get(s).id();
                if (before) {
                    LOG.info("server {}: local limit lifted ({})", id, l[s].reason());
                } else {
                    LOG.warn("server {}: local limit, {} until it recovers (the resource manager is told in the next report)", id,
                            l[s].reason());
                }
            }
        }
    }
}
