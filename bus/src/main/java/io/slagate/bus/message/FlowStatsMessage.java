package io.slagate.bus.message;


/**
 * One class's windowed statistics at one gateway (section III-B), in seconds and requests per
 * second, plus the weight w_{g,c} that was in force, in the gateway's own units; the share of answered
 * requests within the class's goal threshold (attainment) and the response time measured at its goal
 * percentile (NaN where there is none: no answers, or no percentile goal). {@code failureRate}: of the rejections,
 * those the gateway or its servers caused (shed, queue full, server failures), not the client; a sender that does not
 * report it sends 0.
 */
public record FlowStatsMessage(String className, double arrivalRate, double throughput, double rejectionRate,
                               double meanResponseSeconds, double meanQueueingSeconds, double meanServiceSeconds,
                               int queueLength, int outstanding, double weight, double attainment,
                               double percentileSeconds, double failureRate) {
    /** Without failures told apart from rejections. */
    public FlowStatsMessage(String className, double arrivalRate, double throughput, double rejectionRate,
                            double meanResponseSeconds, double meanQueueingSeconds, double meanServiceSeconds,
                            int queueLength, int outstanding, double weight, double attainment, double percentileSeconds) {
        this(className, arrivalRate, throughput, rejectionRate, meanResponseSeconds, meanQueueingSeconds, meanServiceSeconds,
                queueLength, outstanding, weight, attainment, percentileSeconds, 0);
    }

    /** Without attainment and percentile (a sender that measures neither). */
    public FlowStatsMessage(String className, double arrivalRate, double throughput, double rejectionRate,
                            double meanResponseSeconds, double meanQueueingSeconds, double meanServiceSeconds,
                            int queueLength, int outstanding, double weight) {
        this(className, arrivalRate, throughput, rejectionRate, meanResponseSeconds, meanQueueingSeconds,
                meanServiceSeconds, queueLength, outstanding, weight, Double.NaN, Double.NaN);
    }
}
