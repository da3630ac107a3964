package io.slagate.config;

import java.time.Duration;

/**
 * A percentile goal as operators write SLAs: {@code p95: 300ms} — 95% of the class's requests answered
 * within 300 ms. {@code percentile} is in (0, 100).
 */
public record PercentileGoal(double percentile, Duration target) {
    public PercentileGoal {
        if (!(percentile > 0 && percentile < 100)) {
            throw new IllegalArgumentException("a percentile must be in (0, 100), not " + percentile);
        }
    }

    /** The percentile as a probability, e.g. 0.95. */
    public double fraction() {
        return percentile / 100;
    }

    public double targetSeconds() {
        return target.toNanos() / 1e9;
    }

    /** The configuration key it was written with: p95, p99.9. */
    public String key() {
        return "p" + (percentile == Math.rint(percentile) ? String.valueOf((long) percentile) : String.valueOf(percentile));
    }
}
