package io.slagate.config;

import java.time.Duration;

/**
 * A traffic class c: its goals — a mean response-time target tau ({@code target}), a percentile goal
 * ({@code p95: 300ms}), or both, each null when absent but not both — its utility function, and how
 * much it may wait at a gateway (queue bound and queue timeout), and the server pool that serves it;
 * how its queue treats the class's customers (a lane each, served in turn, at most
 * {@code customerQueueBound} waiting per customer; or one FIFO); its deadline, past which no answer is
 * useful (null: none); its {@code importance} (when not every goal can be met, a higher level's are
 * met first); whether it is the {@code discretionary} class, which has no goal and gets what the
 * classes with goals leave; and its service-level {@code objective} as contracts judge it (null: none stated).
 */
public record TrafficClassConfig(String name, Duration target, UtilityConfig utility,
                                 int queueBound, Duration queueTimeout, String pool,
                                 boolean fairByCustomer, int customerQueueBound, Duration deadline,
                                 PercentileGoal percentileGoal, int importance, boolean discretionary, SlaObjective objective) {
    public TrafficClassConfig {
        if (discretionary && (target != null || percentileGoal != null)) {
            throw new IllegalArgumentException("the discretionary class " + name + " has no goal");
        }
        if (!discretionary && target == null && percentileGoal == null) {
            throw new IllegalArgumentException("class " + name + " needs a mean target, a percentile goal or both");
        }
    }

    public TrafficClassConfig(String name, Duration target, UtilityConfig utility, int queueBound, Duration queueTimeout, String pool) {
        this(name, target, utility, queueBound, queueTimeout, pool, true, queueBound, null, null, 0, false, null);
    }

    /** Whether the class has a goal (mean, percentile or both): every class but the discretionary one. */
    public boolean hasGoal() {
        return !discretionary;
    }

    /** The mean target tau in seconds, NaN when the class has only a percentile goal. */
    public double targetSeconds() {
        return target == null ? Double.NaN : target.toNanos() / 1e9;
    }

    /**
     * The class's headline threshold in seconds: its percentile goal's, else its mean target (NaN for
     * the discretionary class). A request answered within it counts toward the class's attainment.
     */
    public double goalSeconds() {
        return percentileGoal != null ? percentileGoal.targetSeconds() : targetSeconds();
    }

    /** The goal as an operator reads it: "mean ≤ 2s", "p95 ≤ 300ms", "mean ≤ 1s, p99 ≤ 3s", "discretionary". */
    public String goalText() {
        if (discretionary) {
            return "discretionary";
        }
        String mean = target == null ? null : "mean ≤ " + ConfigNode.human(target);
        String pct = percentileGoal == null ? null : percentileGoal.key() + " ≤ " + ConfigNode.human(percentileGoal.target());
        return mean == null ? pct : pct == null ? mean : mean + ", " + pct;
    }
}
