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

    /** @param intervals how many reporting intervals the window spans; {@code digits}: significant digits kept */
    WindowedHistogram(int intervals, int digits) {
        this.recorder = new Recorder(HIGHEST_MICROS, digits);
        this.intervals = new Histogram[Math.max(1, intervals)];
        this.sum = new Histogram(HIGHEST_MICROS, digits);
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
        for (Histogram i : intervals) {
            if (i != null) {
                sum.add(i);
            }
        }
        return sum;
    }
}
