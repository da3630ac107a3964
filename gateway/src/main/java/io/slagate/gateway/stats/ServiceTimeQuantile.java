package io.slagate.gateway.stats;

import org.HdrHistogram.Histogram;

/**
 * How much time a request must have left for deadline-aware admission to send it, from one class's
 * service times over the statistics window: the service time s beyond which lies at most a share ε of
 * the servers' work (Σ_{x>s} x / Σ x ≤ ε) — a quantile weighted by work, since what the deadline goal
 * bounds is the servers' time spent on late answers, and long services weigh more than their number.
 * A request admitted with s left finishes late only when its service runs past s, so at most ε of the
 * work on such requests is late. With too few samples to resolve ε it is the largest seen.
 * The window is a {@link WindowedHistogram} with one significant digit (10%): a few KB per class.
 */
final class ServiceTimeQuantile {
    private final double tailShare;
    private final WindowedHistogram window;
    private Histogram sum;
    private volatile long quantileNanos;

    /** @param tailShare ε in (0, 1), e.g. 0.005; {@code intervals}: how many reporting intervals the window spans */
    ServiceTimeQuantile(double tailShare, int intervals) {
        this.tailShare = tailShare;
        this.window = new WindowedHistogram(intervals, 1);
    }

    /** The window spans the latest {@code intervals} from the next rotation on. */
    void span(int intervals) {
        window.span(intervals);
    }

    void record(long serviceNanos) {
        window.record(serviceNanos);
    }

    /** Closes an interval (the reporting timer's thread only). Keeps the last estimate while the window has no sample. */
    void rotate() {
        sum = window.rotate();
        if (sum.getTotalCount() > 0) {
            quantileNanos = workQuantile() * 1000;
        }
    }

    /**
     * The smallest recorded value s (µs) with the work above it at most ε of all the work; where the
     * samples cannot resolve ε (the largest alone is more), the tail beyond the 90th percentile is
     * extrapolated as exponential (its mean excess measured) and s solved on it: the larger answer wins.
     */
    private long workQuantile() {
        double total = 0;
        for (org.HdrHistogram.HistogramIterationValue v : sum.recordedValues()) {
            total += (double) sum.medianEquivalentValue(v.getValueIteratedTo()) * v.getCountAtValueIteratedTo();
        }
        long empirical = sum.getMaxValue();
        double below = 0; // work of the values up to and including the current one
        for (org.HdrHistogram.HistogramIterationValue v : sum.recordedValues()) {
            below += (double) sum.medianEquivalentValue(v.getValueIteratedTo()) * v.getCountAtValueIteratedTo();
            if (total - below <= tailShare * total) {
                empirical = sum.highestEquivalentValue(v.getValueIteratedTo());
                break;
            }
        }
        return Math.max(empirical, extrapolated(total));
    }

    /** The exponential-tail answer, or 0 with fewer than {@value #TAIL_SAMPLES} samples above the 90th percentile. */
    private long extrapolated(double totalWork) {
        double u = sum.getValueAtPercentile(90);
        long n = sum.getTotalCount();
        long above = 0;
        double excess = 0;
        for (org.HdrHistogram.HistogramIterationValue v : sum.recordedValues()) {
            double x = sum.medianEquivalentValue(v.getValueIteratedTo());
            if (x > u) {
                above += v.getCountAtValueIteratedTo();
                excess += (x - u) * v.getCountAtValueIteratedTo();
            }
        }
        if (above < TAIL_SAMPLES || excess <= 0) {
            return 0;
        }
        double m = excess / above; // mean excess over u
        double share = (double) above / n;
        // work beyond s (≥ u) as a share of all work: share · (s + m) · e^{−(s−u)/m} / mean; it falls with s: bisect
        double mean = totalWork / n;
        double lo = u;
        double hi = u + 60 * m;
        for (int i = 0; i < 60; i++) {
            double s = (lo + hi) / 2;
            double tail = share * (s + m) * Math.exp(-(s - u) / m) / mean;
            if (tail > tailShare) {
                lo = s;
            } else {
                hi = s;
            }
        }
        return (long) Math.ceil(hi);
    }

    private static final int TAIL_SAMPLES = 20;

    /** The quantile in nanoseconds (0 before the first completion). */
    long nanos() {
        return quantileNanos;
    }
}
