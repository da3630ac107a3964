package io.slagate.experiment.twin;

import java.util.Arrays;

/**
 * The answers clients got, per class: when each came and how long it took, and the faults. Kept as primitive
 * arrays (a run makes hundreds of thousands) and summed over any span of virtual time afterwards.
 */
public final class Completions {
    /** Per class over a span: answers, their mean and 95th percentile response time (seconds), faults. */
    public record Span(long answered, double meanSeconds, double p95Seconds, long faulted) {
    }

    private final long[][] at;
    private final double[][] seconds;
    private final int[] count;
    private final long[][] faultAt;
    private final int[] faults;

    public Completions(int classes) {
        at = new long[classes][1024];
        seconds = new double[classes][1024];
        count = new int[classes];
        faultAt = new long[classes][16];
        faults = new int[classes];
    }

    void answered(int c, long nowNanos, long responseNanos) {
        if (count[c] == at[c].length) {
            at[c] = Arrays.copyOf(at[c], count[c] * 2);
            seconds[c] = Arrays.copyOf(seconds[c], count[c] * 2);
        }
        at[c][count[c]] = nowNanos;
        seconds[c][count[c]++] = responseNanos / 1e9;
    }

    void faulted(int c, long nowNanos) {
        if (faults[c] == faultAt[c].length) {
            faultAt[c] = Arrays.copyOf(faultAt[c], faults[c] * 2);
        }
        faultAt[c][faults[c]++] = nowNanos;
    }

    public int classes() {
        return count.length;
    }

    /** Class {@code c}'s answers that came within [fromNanos, toNanos). */
    public Span span(int c, long fromNanos, long toNanos) {
        int lo = lowerBound(at[c], count[c], fromNanos), hi = lowerBound(at[c], count[c], toNanos);
        long f = lowerBound(faultAt[c], faults[c], toNanos) - lowerBound(faultAt[c], faults[c], fromNanos);
        if (hi <= lo) {
            return new Span(0, Double.NaN, Double.NaN, f);
        }
        double sum = 0;
        for (int i = lo; i < hi; i++) {
            sum += seconds[c][i];
        }
        double[] sorted = Arrays.copyOfRange(seconds[c], lo, hi);
        Arrays.sort(sorted);
        double p95 = sorted[Math.min(sorted.length - 1, (int) Math.ceil(0.95 * sorted.length) - 1)];
        return new Span(hi - lo, sum / (hi - lo), p95, f);
    }

    /** How many of class {@code c}'s answers within [fromNanos, toNanos) took at most {@code limitSeconds}. */
    public long within(int c, long fromNanos, long toNanos, double limitSeconds) {
        int lo = lowerBound(at[c], count[c], fromNanos), hi = lowerBound(at[c], count[c], toNanos);
        long n = 0;
        for (int i = lo; i < hi; i++) {
            if (seconds[c][i] <= limitSeconds) {
                n++;
            }
        }
        return n;
    }

    /** Times are recorded in order, so a span is found by binary search. */
    private static int lowerBound(long[] a, int n, long key) {
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
