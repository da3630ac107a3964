package io.slagate.gateway.stats;


/**
 * One class's statistics at one gateway, averaged over the sliding window (section III-B): what the
 * gateway publishes every reporting interval and what the resource manager's model reads (λ~, t~).
 * Times are in seconds, rates in requests per second. {@code attainment} is the share of the window's
 * answered requests that met the class's goal threshold ({@link io.slagate.config.TrafficClassConfig#goalSeconds},
 * NaN when none was answered); {@code percentileSeconds} the measured response time at the class's
 * goal percentile (NaN for a class without a percentile goal, or without answers). {@code failureRate} is the part of
 * {@code rejectionRate} the gateway or its servers caused (shed, queue full, server failed or timed out), not the
 * client (malformed, too large, gone): what a configuration is charged for (the objective). {@code last}: the last closed
 * interval alone (null before one closed), so that a change shows before the window has filled with it.
 */
public record FlowStats(String className, double arrivalRate, double throughput, double rejectionRate,
                        double meanResponseSeconds, double meanQueueingSeconds, double meanServiceSeconds,
                        int queueLength, int outstanding, double windowSeconds, double attainment,
                        double percentileSeconds, double failureRate, Interval last) {
    /** One reporting interval's counts, and the mean times of what completed in it, in seconds. */
    public record Interval(double seconds, long arrivals, long completions, long rejections, double meanResponseSeconds,
                           double meanQueueingSeconds, double meanServiceSeconds) {
    }
}
