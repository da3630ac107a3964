package io.slagate.bus.message;

import java.util.Map;

/**
 * The part of an allocation for one gateway g: w_{g,c} per class name, N_{g,s} per server id (a server not named:
 * 0, so that a gateway of hundreds holding slots on a few servers is sent those only), and its share of each
 * subscription quota (requests per second, by bucket key) the manager split.
 */
public record GatewayAllocation(Map<String, Double> weights, Map<String, Integer> caps, Map<String, Double> quotas) {
    public GatewayAllocation {
        weights = Map.copyOf(weights);
        caps = Map.copyOf(caps);
        quotas = quotas == null ? Map.of() : Map.copyOf(quotas);
    }

    public GatewayAllocation(Map<String, Double> weights, Map<String, Integer> caps) {
        this(weights, caps, Map.of());
    }
}
