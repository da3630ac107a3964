package io.slagate.gateway.stats;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A high quantile of one class's service time over the statistics window, for deadline-aware
 * admission: a request is sent only if this much time is left before its deadline, so the few that
 * still finish late cost little of the servers' time. Recording is wait-free (HdrHistogram's
 * {@link Recorder}, one value per completion); the window is a ring of per-interval histograms, summed
 * when the interval closes. With fewer samples than the quantile resolves, it is the largest seen.
 */
final class ServiceTimeQuantile {
    /** Microseconds up to an hour, one significant digit (10%): a few KB per histogram. */
    private static final long HIGHEST_MICROS = 3_600_000_000L;

    private final double percentile;
    private final Recorder recorder = new Recorder(HIGHEST_MICROS, 1);
    private final Histogram[] intervals;
    private final Histogram sum = new Histogram(HIGHEST_MICROS, 1);
    private Histogram recycled;
    private int next;
    private volatile long quantileNanos;

    /** @param quantile in (0, 1), e.g. 0.999; {@code intervals}: how many reporting intervals the window spans */
    ServiceTimeQuantile(double quantile, int intervals) {
        this.percentile = quantile * 100;
        this.intervals = new Histogram[Math.max(1, intervals)];
    }

    void record(long serviceNanos) {
        recorder.recordValue(Math.max(0, Math.min(HIGHEST_MICROS, serviceNanos / 1000)));
    }

    /** Closes an interval (the reporting timer's thread only). Keeps the last estimate while the window has no sample. */
    void rotate() {
        Histogram h = recorder.getIntervalHistogram(recycled);
        Histogram dropped = intervals[next];
        intervals[next] = h;
        next = (next + 1) % intervals.length;
        recycled = dropped;
        sum.reset();
        for (Histogram i : intervals) {
            if (i != null) {
                sum.add(i);
            }
        }
        if (sum.getTotalCount() > 0) {
            quantileNanos = sum.getValueAtPercentile(percentile) * 1000;
        }
    }

    /** The quantile in nanoseconds (0 before the first completion). */
    long nanos() {
        return quantileNanos;
    }
}
