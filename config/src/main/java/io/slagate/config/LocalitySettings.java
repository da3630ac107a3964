package io.slagate.config;

import java.time.Duration;
import java.util.Map;

/**
 * How pools with {@code loadBalancing: locality} or {@code lard} learn and keep their request-type mapping
 *.
 *
 * @param pools            pool name → its policy, for pools that do not use the gateway's {@code loadBalancing}
 * @param epsilon          bounded loads: no server above (1 + epsilon) × the pool's mean load (outstanding per slot)
 * @param key              a request header whose value is part of the request type (with service and operation), or null;
 *                         a request without it is dispatched least-loaded
 * @param workingSetHeader a response header in which a backend may declare the data blocks a request touched
 *                         (comma-separated integers); null to learn from response times only
 * @param remapInterval    how often the groups and their servers are recomputed from what was observed
 */
public record LocalitySettings(Map<String, LoadBalancing> pools, double epsilon, String key, String workingSetHeader,
                               Duration remapInterval) {
    public static final String DEFAULT_WORKING_SET_HEADER = "X-Slagate-Working-Set";
    public static final LocalitySettings DEFAULTS = new LocalitySettings(Map.of(), 0.25, null, DEFAULT_WORKING_SET_HEADER,
            Duration.ofSeconds(5));

    public LocalitySettings {
        pools = Map.copyOf(pools);
    }

    /** The policy of {@code pool}: its own, or the gateway's {@code fallback}. */
    public LoadBalancing policy(String pool, LoadBalancing fallback) {
        return pools.getOrDefault(pool, fallback);
    }
}
