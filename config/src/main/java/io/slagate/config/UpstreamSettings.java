package io.slagate.config;

import java.util.Map;

/**
 * How the gateway shares its connections to servers.
 *
 * @param reuse          the sharing of servers in pools not named in {@code perPool}
 * @param perPool        pool → its sharing
 * @param maxConnections connections to one server at most (0: 4 × its concurrency); at the bound an
 *                       idle connection of another group is closed to open one, never lent across groups
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

    /** The bound on one server's connections given its concurrency N_s. */
    public int maxConnections(int concurrency) {
        return maxConnections > 0 ? maxConnections : 4 * Math.max(concurrency, 1);
    }
}
