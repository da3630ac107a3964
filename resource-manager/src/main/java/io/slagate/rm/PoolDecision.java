package io.slagate.rm;

import io.slagate.bus.message.DecisionMessage.FlowDecision;
import java.util.List;

/**
 * One pool's decision for one cycle: each flow's weight and what led to it, the pool's utility (eq. 2, or the minimum
 * over its classes), a line for the log and what the pool lacks for every class to meet its target. Immutable.
 */
record PoolDecision(List<FlowDecision> flows, double objective, String summary, CapacityDeficit.Result deficit) {
    PoolDecision {
        flows = List.copyOf(flows);
    }
}
