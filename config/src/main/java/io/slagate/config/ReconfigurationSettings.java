package io.slagate.config;

import java.time.Duration;
import java.util.Map;

/**
 * Server-pool reconfiguration (Active Harmony §IV): servers that list several {@code pools} are moved
 * from a pool with capacity to spare to a saturated one.
 *
 * @param every      how often the resource manager considers a move (a multiple of the control cycle is sensible)
 * @param high       a pool whose offered load (Σ λ·S over its slots) is at least this is saturated
 * @param low        a pool may give a server only while its offered load is at most this (and stays below {@code high}
 *                   without the server)
 * @param dwell      a server that moved stays at least this long
 * @param minServers per pool, the fewest servers it keeps (pools not named: 1)
 */
public record ReconfigurationSettings(Duration every, double high, double low, Duration dwell, Map<String, Integer> minServers) {
    public static final ReconfigurationSettings DEFAULTS = new ReconfigurationSettings(Duration.ofSeconds(30), 0.85, 0.5,
            Duration.ofMinutes(2), Map.of());

    public ReconfigurationSettings {
        minServers = Map.copyOf(minServers);
    }

    public int minServers(String pool) {
        return minServers.getOrDefault(pool, 1);
    }
}
