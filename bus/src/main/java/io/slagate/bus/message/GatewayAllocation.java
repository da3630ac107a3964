package io.slagate.bus.message;

import java.util.Map;

/** The part of an allocation for one gateway g: w_{g,c} per class name and N_{g,s} per server id. */
public record GatewayAllocation(Map<String, Double> weights, Map<String, Integer> caps) {
    public GatewayAllocation {
        weights = Map.copyOf(weights);
        caps = Map.copyOf(caps);
    }
}
