package io.slagate.bus.message;

/**
 * One class's windowed statistics at one gateway (section III-B), in seconds and requests per
 * second, plus the weight w_{g,c} that was in force, in the gateway's own units; the share of answered
 * requests within the class's goal threshold (attainment) and the response time measured at its goal
 * percentile (NaN where there is none: no answers, or no percentile goal).
 */
public record FlowStatsMessage(String className, double arrivalRate, double throughput, double rejectionRate,
                               double meanResponseSeconds, double meanQueueingSeconds, double meanServiceSeconds,
                               int queueLength, int outstanding, double weight, double attainment,
                               double percentileSeconds) {
    /** Without attainment and percentile (a sender that measures neither). */
    public FlowStatsMessage(String className, double arrivalRate, double throughput, double rejectionRate,
                            double meanResponseSeconds, double meanQueueingSeconds, double meanServiceSeconds,
                            int queueLength, int outstanding, double weight) {
        this(className, arrivalRate, throughput, rejectionRate, meanResponseSeconds, meanQueueingSeconds,
                meanServiceSeconds, queueLength, outstanding, weight, Double.NaN, Double.NaN);
    }
}
