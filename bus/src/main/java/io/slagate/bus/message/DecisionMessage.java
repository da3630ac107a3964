package io.slagate.bus.message;

import java.util.List;

/**
 * What the resource manager saw and decided in one control cycle, for the console and the log:
 * per flow (g,c) the measured λ~, t~, w~, the predicted response time and utility at the new w; for
 * a class with a percentile goal, the predicted response time at that percentile (NaN otherwise).
 */
public record DecisionMessage(int schema, long version, long timestampMillis, String managerId, boolean paused,
                              double clusterUtility, double solveMillis, List<FlowDecision> flows) implements BusMessage {
    public DecisionMessage {
        flows = List.copyOf(flows);
    }

    public record FlowDecision(String gatewayId, String className, double arrivalRate, double observedSeconds,
                               double previousWeight, double weight, double predictedSeconds, double utility,
                               boolean pinned, String model, double modelError, double modelGain,
                               double predictedPercentileSeconds) {
    }
}
