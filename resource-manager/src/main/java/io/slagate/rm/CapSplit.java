package io.slagate.rm;

import io.slagate.bus.message.DecisionMessage.FlowDecision;
import io.slagate.config.ServerConfig;
import io.slagate.rm.optimize.CapPartition;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Eq. 5–6: each server's N_s split among the gateways in proportion to their weights for the pool's classes. */
final class CapSplit {
    private CapSplit() {
    }

    /**
     * Per gateway, its N_{g,s} of each of the pool's servers it has slots on (a server not named has none).
     *
     * @param capacity each server's N_s this cycle, in the order of {@code servers}
     * @param flows    the pool's decision, its flows' weights
     */
    static Map<String, Map<String, Integer>> of(List<String> gateways, List<ServerConfig> servers, int[] capacity,
                                                List<FlowDecision> flows) {
        Map<String, Double> byGateway = new HashMap<>();
        flows.forEach(f -> byGateway.merge(f.gatewayId(), f.weight(), Double::sum));
        double[] share = new double[gateways.size()];
        for (int gi = 0; gi < gateways.size(); gi++) {
            share[gi] = byGateway.getOrDefault(gateways.get(gi), 0.0);
        }
        int[][] split = CapPartition.splitServers(capacity, share);
        Map<String, Map<String, Integer>> out = new HashMap<>();
        for (int gi = 0; gi < gateways.size(); gi++) {
            Map<String, Integer> mine = new LinkedHashMap<>();
            for (int s = 0; s < servers.size(); s++) {
                if (split[s][gi] > 0) {
                    mine.put(servers.get(s).id(), split[s][gi]);
                }
            }
            out.put(gateways.get(gi), mine);
        }
        return out;
    }
}
