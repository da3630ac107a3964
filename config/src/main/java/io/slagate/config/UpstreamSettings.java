package io.slagate.config;

import java.util.Map;

/**
 * How the gateway shares its connections to servers.
 *
 * @param reuse          the sharing of servers in pools not named in {@code perPool}
 * @param perPool        pool → its sharing
 * @param maxConnections connections to one server at most, across every event loop (0: the server's cap N_{g,s} in
 *                       force plus {@link #idleSlack}: 2·N_{g,s} + 2 with several loops); at the bound an idle connection of
 *                       another loop or group is closed to open one, never lent across them
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
        return maxConnections > 0 ? maxConnections : Math.max(cap, 0) + idleSlack(cap, loops);
    }

    /**
     * Connections kept beyond the busy ones by default: 2 on one event loop (the one a quiet check holds, and one
     * idle); with more loops the cap again and those 2, so that the bound is 2·N_{g,s} + 2 however many loops there are
     * (a pool per loop could hold L·N_{g,s}). Which loops the admitted requests come from shifts from one moment to the
     * next, and a loop that lacks a connection while the bound is reached closes another loop's idle one and opens its
     * own: with two loops that is what 2·N_{g,s} + 2 leaves no room for (N_{g,s} + N_{g,s}/2 opened a connection for
     * one request in eight or ten, N_{g,s} + 2 for one in four); with more loops the bound trades the server's
     * connections for that churn.
     */
    public static int idleSlack(int cap, int loops) {
        return loops <= 1 ? 2 : Math.max(0, cap) + 2;
    }
}
