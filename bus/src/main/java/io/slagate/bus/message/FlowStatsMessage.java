package io.slagate.bus.message;


/**
 * One class's windowed statistics at one gateway (section III-B), in seconds and requests per
 * second, plus the weight w_{g,c} that was in force, in the gateway's own units; the share of answered
 * requests within the class's goal threshold (attainment) and the response time measured at its goal
 * percentile (NaN where there is none: no answers, or no percentile goal). {@code failureRate}: of the rejections,
 * those the gateway or its servers caused (shed, queue full, server failures), not the client; a sender that does not
 * report it sends 0. {@code lastInterval}: the same class's figures over the last reporting interval alone, beside the
 * window's, so that the manager can tell a change from the window's inertia (null from a sender that does not report it).
 */
public record FlowStatsMessage(String className, double arrivalRate, double throughput, double rejectionRate,
                               double meanResponseSeconds, double meanQueueingSeconds, double meanServiceSeconds,
                               int queueLength, int outstanding, double weight, double attainment,
                               double percentileSeconds, double failureRate, Interval lastInterval) {
    /**
     * One reporting interval's counts and mean times (seconds): what arrived, completed and was rejected in it, and the
     * mean response, queueing and service time of what completed.
     */
    public record Interval(double seconds, long arrivals, long completions, long rejections, double meanResponseSeconds,
                           double meanQueueingSeconds, double meanServiceSeconds) {
        /** Whether every figure is one a gateway could have measured: a positive span, counts and times not negative. */
        public boolean plausible() {
            return seconds > 0 && Double.isFinite(seconds) && arrivals >= 0 && completions >= 0 && rejections >= 0
                    && meanResponseSeconds >= 0 && Double.isFinite(meanResponseSeconds) && meanQueueingSeconds >= 0
                    && Double.isFinite(meanQueueingSeconds) && meanServiceSeconds >= 0 && Double.isFinite(meanServiceSeconds);
        }
    }

    /** Without the last interval's figures. */
    public FlowStatsMessage(String className, double arrivalRate, double throughput, double rejectionRate,
                            double meanResponseSeconds, double meanQueueingSeconds, double meanServiceSeconds,
                            int queueLength, int outstanding, double weight, double attainment,
                            double percentileSeconds, double failureRate) {
        this(className, arrivalRate, throughput, rejectionRate, meanResponseSeconds, meanQueueingSeconds, meanServiceSeconds,
                queueLength, outstanding, weight, attainment, percentileSeconds, failureRate, null);
    }

    /** The same flow with the window's rates and times replaced (the manager's estimate since a change). */
    public FlowStatsMessage withFigures(double arrivalRate, double throughput, double rejectionRate, double meanResponseSeconds,
                                        double meanQueueingSeconds, double meanServiceSeconds) {
        return new FlowStatsMessage(className, arrivalRate, throughput, rejectionRate, meanResponseSeconds, meanQueueingSeconds,
                meanServiceSeconds, queueLength, outstanding, weight, attainment, percentileSeconds, failureRate, lastInterval);
    }
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
