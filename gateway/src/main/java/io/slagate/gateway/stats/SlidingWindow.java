package io.slagate.gateway.stats;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts and time sums of one class over a sliding window of reporting intervals. Writers add to
 * the current interval's bucket without locks (LongAdder); {@link #rotate} (one timer thread)
 * closes the current interval. The summary covers the last {@code intervals} closed intervals.
 */
final class SlidingWindow {
    private static final class Bucket {
        final LongAdder arrivals = new LongAdder();
        final LongAdder completions = new LongAdder();
        final LongAdder rejections = new LongAdder();
        final LongAdder failures = new LongAdder();
        final LongAdder responseNanos = new LongAdder();
        final LongAdder queueingNanos = new LongAdder();
        final LongAdder serviceNanos = new LongAdder();
        final LongAdder withinGoal = new LongAdder();

        void reset() {
            withinGoal.reset();
            arrivals.reset();
            completions.reset();
            rejections.reset();
            failures.reset();
            responseNanos.reset();
            queueingNanos.reset();
            serviceNanos.reset();
        }
    }

    private final Bucket[] buckets;
    private volatile int current;
    private int closed;
    /** How many closed intervals the summary spans: at most the intervals allocated (the window knob). */
    private volatile int span;

    SlidingWindow(int intervals) {
        buckets = new Bucket[intervals + 1];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new Bucket();
        }
        span = intervals;
    }

    /** From the next summary on, the window spans the last {@code intervals} closed ones (1 to those allocated). */
    void span(int intervals) {
        span = Math.max(1, Math.min(buckets.length - 1, intervals));
    }

    void arrived() {
        buckets[current].arrivals.increment();
    }

    void rejected() {
        buckets[current].rejections.increment();
    }

    /** A request refused or failed by the gateway or its servers, not by the client (also counted as rejected). */
    void failed() {
        Bucket b = buckets[current];
        b.rejections.increment();
        b.failures.increment();
    }

    void completed(long queueingNanos, long serviceNanos, long responseNanos, boolean withinGoal) {
        Bucket b = buckets[current];
        if (withinGoal) {
            b.withinGoal.increment();
        }
        b.completions.increment();
        b.queueingNanos.add(queueingNanos);
        b.serviceNanos.add(serviceNanos);
        b.responseNanos.add(responseNanos);
    }

    /** A server's answer: only its count and service time (a server's window has no queueing or goal of its own). */
    void served(long serviceNanos) {
        Bucket b = buckets[current];
        b.completions.increment();
        b.serviceNanos.add(serviceNanos);
    }

    /** Closes the current interval; the oldest bucket is cleared and becomes the current one. */
    synchronized void rotate() {
        int next = (current + 1) % buckets.length;
        buckets[next].reset();
        current = next;
        if (closed < buckets.length - 1) {
            closed++;
        }
    }

    /**
     * The window's figures; {@code percentileSeconds} is the measured percentile of the class's goal
     * (NaN without one), passed through; a class without a goal ({@code hasGoal} false) has no attainment.
     */
    synchronized FlowStats summary(String className, double intervalSeconds, int queueLength, int outstanding,
                                   double percentileSeconds, boolean hasGoal) {
        long arrivals = 0;
        long completions = 0;
        long rejections = 0;
        long failures = 0;
        long resp = 0;
        long queue = 0;
        long service = 0;
        long within = 0;
        int cur = current;
        int spanned = Math.min(closed, span);
        for (int k = 1; k <= spanned; k++) {
            Bucket b = buckets[(cur - k + buckets.length) % buckets.length];
            arrivals += b.arrivals.sum();
            completions += b.completions.sum();
            rejections += b.rejections.sum();
            failures += b.failures.sum();
            resp += b.responseNanos.sum();
            queue += b.queueingNanos.sum();
            service += b.serviceNanos.sum();
            within += b.withinGoal.sum();
        }
        double window = Math.max(1, spanned) * intervalSeconds;
        double n = Math.max(1, completions);
        return new FlowStats(className, arrivals / window, completions / window, rejections / window,
                resp / n / 1e9, queue / n / 1e9, service / n / 1e9, queueLength, outstanding, window,
                completions == 0 || !hasGoal ? Double.NaN : (double) within / completions, percentileSeconds,
                failures / window, spanned == 0 ? null : last(buckets[(cur - 1 + buckets.length) % buckets.length], intervalSeconds));
    }

    private static FlowStats.Interval last(Bucket b, double intervalSeconds) {
        long completions = b.completions.sum();
        double n = Math.max(1, completions);
        return new FlowStats.Interval(intervalSeconds, b.arrivals.sum(), completions, b.rejections.sum(),
                b.responseNanos.sum() / n / 1e9, b.queueingNanos.sum() / n / 1e9, b.serviceNanos.sum() / n / 1e9);
    }
}
