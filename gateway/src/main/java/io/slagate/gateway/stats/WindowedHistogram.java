package io.slagate.gateway.stats;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A histogram of durations over the statistics window: recording is wait-free (HdrHistogram's
 * {@link Recorder}, one value per completion, in microseconds), and the window is a ring of
 * per-interval histograms, summed when an interval closes ({@link #rotate}, the reporting timer's
 * thread only).
 */
final class WindowedHistogram {
    /** Microseconds up to an hour. */
    static final long HIGHEST_MICROS = 3_600_000_000L;

    private final Recorder recorder;
    private final Histogram[] intervals;
    private final Histogram sum;
    private Histogram recycled;
    private int next;
    /** How many of the latest intervals the sum spans (the window knob): at most those allocated. */
    private volatile int span;

    /** @param intervals how many reporting intervals the window spans; {@code digits}: significant digits kept */
    WindowedHistogram(int intervals, int digits) {
        this.recorder = new Recorder(HIGHEST_MICROS, digits);
        this.intervals = new Histogram[Math.max(1, intervals)];
        this.sum = new Histogram(HIGHEST_MICROS, digits);
        this.span = this.intervals.length;
    }

    /** From the next rotation on, the sum spans the latest {@code n} intervals (1 to those allocated). */
    void span(int n) {
        span = Math.max(1, Math.min(intervals.length, n));
    }

    void record(long nanos) {
        recorder.recordValue(Math.max(0, Math.min(HIGHEST_MICROS, nanos / 1000)));
    }

    /** Closes an interval and returns the window's sum (owned by this object: read it before the next rotation). */
    Histogram rotate() {
        Histogram h = recorder.getIntervalHistogram(recycled);
        Histogram dropped = intervals[next];
        intervals[next] = h;
        next = (next + 1) % intervals.length;
        recycled = dropped;
        sum.reset();
        int spanned = span;
        for (int k = 1; k <= spanned; k++) {
            Histogram i = intervals[(next - k + intervals.length) % intervals.length];
            if (i != null) {
                sum.add(i);
            }
        }
        return sum;
    }
}
