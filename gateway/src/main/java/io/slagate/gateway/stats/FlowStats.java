package io.slagate.gateway.stats;

/**
 * One class's statistics at one gateway, averaged over the sliding window (section III-B): what the
 * gateway publishes every reporting interval and what the resource manager's model reads (λ~, t~).
 * Times are in seconds, rates in requests per second.
 */
public record FlowStats(String className, double arrivalRate, double throughput, double rejectionRate,
                        double meanResponseSeconds, double meanQueueingSeconds, double meanServiceSeconds,
                        int queueLength, int outstanding, double windowSeconds) {
}
