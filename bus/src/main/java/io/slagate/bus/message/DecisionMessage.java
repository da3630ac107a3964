package io.slagate.bus.message;

import java.util.List;

/**
 * What the resource manager saw and decided in one control cycle, for the console and the log:
 * per flow (g,c) the measured λ~, t~, w~, the predicted response time and utility at the new w; for
 * a class with a percentile goal, the predicted response time at that percentile (NaN otherwise); and the
 * N_s of each {@code concurrency: auto} server; per flow, the arrival rate it predicted for when a forecast
 * was in force (NaN otherwise).
 */
public record DecisionMessage(int schema, long version, long timestampMillis, String managerId, boolean paused,
                              double clusterUtility, double solveMillis, List<FlowDecision> flows,
                              List<ServerDecision> servers) implements BusMessage {
    public DecisionMessage {
        flows = List.copyOf(flows);
        servers = servers == null ? List.of() : List.copyOf(servers);
    }

    public DecisionMessage(int schema, long version, long timestampMillis, String managerId, boolean paused,
                           double clusterUtility, double solveMillis, List<FlowDecision> flows) {
        this(schema, version, timestampMillis, managerId, paused, clusterUtility, solveMillis, flows, List.of());
    }

    /** A {@code concurrency: auto} server: the N_s the manager holds, its knee estimate (NaN until measured) and why. */
    public record ServerDecision(String serverId, int concurrency, double knee, String reason) {
    }

    public record FlowDecision(String gatewayId, String className, double arrivalRate, double observedSeconds,
                               double previousWeight, double weight, double predictedSeconds, double utility,
                               boolean pinned, String model, double modelError, double modelGain,
                               double predictedPercentileSeconds, double forecastRate) {
        /** Without a forecast in force. */
        public FlowDecision(String gatewayId, String className, double arrivalRate, double observedSeconds,
                            double previousWeight, double weight, double predictedSeconds, double utility,
                            boolean pinned, String model, double modelError, double modelGain,
                            double predictedPercentileSeconds) {
            this(gatewayId, className, arrivalRate, observedSeconds, previousWeight, weight, predictedSeconds, utility, pinned, model,
                    modelError, modelGain, predictedPercentileSeconds, Double.NaN);
        }
    }
}
