package io.slagate.rm;

import io.slagate.rm.model.FlowObservation;
import java.util.List;

/**
 * A pool's flows (g, c) as observed this cycle, gateway-major, and whether any of them has traffic. Immutable.
 */
record PoolFlows(List<Flow> all, boolean anyTraffic) {
    PoolFlows {
        all = List.copyOf(all);
    }

    /**
     * One flow: its gateway, its class's index, its key, what was observed of it (eq. 3–4's λ~, t~, w~, with any
     * forecast in force), the operator's pin and, when it should not be optimized this cycle, the weight it keeps.
     *
     * @param pinned the weight the operator pinned it to, or null
     * @param prior  the weight it keeps without optimization (a broken measurement's, a new gateway's fair share, or the
     *               weight in force while its window has not run wholly under it), or null
     */
    record Flow(String gateway, int cls, String key, FlowObservation obs, Double pinned, Double prior) {
        /** The weight decided without the optimizer (a pin first), or null when the flow is free. */
        Double fixed() {
            return pinned != null ? pinned : prior;
        }

        boolean idle() {
            return obs.isEmpty();
        }
    }

    int size() {
        return all.size();
    }

    Flow get(int i) {
        return all.get(i);
    }
}
