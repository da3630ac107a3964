package io.slagate.bus.message;

/**
 * One class's windowed statistics at one gateway (section III-B), in seconds and requests per
 * second, plus the weight w_{g,c} that was in force, in the gateway's own units.
 */
public record FlowStatsMessage(String className, double arrivalRate, double throughput, double rejectionRate,
                               double meanResponseSeconds, double meanQueueingSeconds, double meanServiceSeconds,
                               int queueLength, int outstanding, double weight) {
}
