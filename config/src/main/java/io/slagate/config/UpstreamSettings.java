package io.slagate.config;

import java.util.Map;

/**
 * How the gateway shares its connections to servers.
 *
 * @param reuse          the sharing of servers in pools not named in {@code perPool}
 * @param perPool        pool → its sharing
 * @param maxConnections connections to one server at most, across every event loop (0: the server's cap N_{g,s} in
 *                       force plus {@link #idleSlack} idle ones); at the bound an idle connection of another loop or
 *                       group is closed to open one, never lent across groups
 */
public record UpstreamSettings(UpstreamReuse reuse, Map<String, UpstreamReuse> perPool, int maxConnections) {
    public static final UpstreamSettings DEFAULT = new UpstreamSettings(UpstreamReuse.SHARED, Map.of(), 0);

    public UpstreamSettings {
        perPool = Map.copyOf(perPool);
    }

    /** The sharing of a server configured in {@code pool}. */
    public UpstreamReuse reuse(String pool) {
        return perPool.getOrDefault(pool, reuse);
    }

    /**
     * The bound on one server's connections while its cap here is {@code cap} (N_{g,s}): the configured one, else the
     * cap plus {@link #idleSlack}.
     */
    public int maxConnections(int cap, int loops) {
        return maxConnections > 0 ? maxConnections : Math.max(cap, 0) + idleSlack(loops);
    }

    /**
     * Idle connections kept beyond the busy ones by default: one per event loop (a loop whose requests come back finds
     * one warm), at least 2, so that busy connections finishing on one loop do not force a connect on another.
     */
    public static int idleSlack(int loops) {
        return Math.max(2, loops);
    }

    /** Whether {@code maxConnections} was configured (else it follows the cap). */
    public boolean fixedBound() {
        return maxConnections > 0;
    }
}
