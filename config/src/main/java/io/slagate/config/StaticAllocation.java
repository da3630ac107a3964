package io.slagate.config;

import java.util.Map;

/**
 * The allocation a gateway uses until a resource manager publishes one: w_{g,c} per class and
 * N_{g,s} per server. Classes without a weight get 1; servers without a cap get their N_s.
 */
public record StaticAllocation(Map<String, Double> weights, Map<String, Integer> caps) {
    public StaticAllocation {
        weights = Map.copyOf(weights);
        caps = Map.copyOf(caps);
    }
}
