package io.slagate.rm;

import java.util.HashMap;
import java.util.Map;

/**
 * Per flow, the shares (in server slots) its gateway's reports said were in force, so that a windowed
 * measurement t~ is paired with the share it was measured under: the time-mean over the same window, not the
 * share in force at the report. A statistics window spans several control cycles (30 s over 5 s by
 * default); paired with the share in force, a window measured mostly under a larger share would make a cut
 * look free, and the next cycle would cut again, one slot a cycle, until the window caught up with a class
 * already past its target.
 *
 * <p>The share a report names is taken to have held since the report before it (shares change only at
 * allocations, which the next report shows); before the oldest report kept, the oldest one's share.
 * Not thread-safe: the manager's thread.
 */
final class ShareHistory {
    /** One flow's reports, oldest first, in a ring of primitives: read for every flow every cycle, so no object per report. */
    private static final class Samples {
        long[] at = new long[8];
        double[] share = new double[8];
        double[] weight = new double[8];
        boolean[] idle = new boolean[8];
        int head;
        int size;

        Samples copy() {
            Samples c = new Samples();
            c.at = at.clone();
            c.share = share.clone();
            c.weight = weight.clone();
            c.idle = idle.clone();
            c.head = head;
            c.size = size;
            return c;
        }

        private int index(int i) {
            return (head + i) & (at.length - 1);
        }

        long atNanos(int i) {
            return at[index(i)];
        }

        double share(int i) {
            return share[index(i)];
        }

        double weight(int i) {
            return weight[index(i)];
        }

        boolean idle(int i) {
            return idle[index(i)];
        }

        void addLast(long atNanos, double s, double w, boolean noTraffic) {
            if (size == at.length) {
                long[] a = new long[2 * size];
                double[] v = new double[2 * size];
                double[] x = new double[2 * size];
                boolean[] n = new boolean[2 * size];
                for (int i = 0; i < size; i++) {
                    a[i] = atNanos(i);
                    v[i] = share(i);
                    x[i] = weight(i);
                    n[i] = idle(i);
                }
                at = a;
                share = v;
                weight = x;
                idle = n;
                head = 0;
            }
            int i = index(size++);
            at[i] = atNanos;
            share[i] = s;
            weight[i] = w;
            idle[i] = noTraffic;
        }

        void removeFirst() {
            head = index(1);
            size--;
        }
    }

    private final Map<String, Samples> byFlow = new HashMap<>();
    /** The longest window a report may claim (the configured one: a gateway can only shorten it), which bounds what is kept. */
    private final double longestWindowSeconds;

    ShareHistory(double longestWindowSeconds) {
        this.longestWindowSeconds = longestWindowSeconds;
    }

    /**
     * The time-mean share over a window, whether the class's weight at the gateway moved within it (a window that
     * measured the flow partly under an earlier weight), and whether the flow had no traffic at a report within it (it
     * woke: its figures are of a new load).
     */
    record WindowShare(double mean, boolean weightMoved, boolean woke) {
    }

    /** {@link #meanOver(String, long, double, double, boolean, double)} for a busy flow whose weight is its share. */
    double meanOver(String flow, long atNanos, double share, double windowSeconds) {
        return meanOver(flow, atNanos, share, share, false, windowSeconds).mean();
    }

    /**
     * Records that {@code flow}'s report heard at {@code atNanos} named {@code share} at weight {@code weight}, and
     * whether the flow had no traffic then (a report read again adds nothing), and answers the time-mean share over the
     * {@code windowSeconds} before it (at most the longest window); the share itself where the window is not a positive
     * finite span, or where the share is not a finite non-negative number (not kept), and then no move.
     */
    WindowShare meanOver(String flow, long atNanos, double share, double weight, boolean noTraffic, double windowSeconds) {
        if (!(share >= 0) || !Double.isFinite(share)) {
            return new WindowShare(share, false, false); // a broken report: the caller drops it, and the window keeps what it had
        }
        Samples h = byFlow.get(flow);
        if (h == null) {
            h = new Samples();
            byFlow.put(flow, h);
        }
        if (h.size == 0 || atNanos > h.atNanos(h.size - 1)) {
            h.addLast(atNanos, share, weight, noTraffic);
        } else if (atNanos < h.atNanos(h.size - 1)) {
            return new WindowShare(share, false, false); // an older report than one already seen (a manager's state handed over)
        }
        if (!(windowSeconds > 0) || !Double.isFinite(windowSeconds)) {
            return new WindowShare(h.share(h.size - 1), false, false);
        }
        long from = atNanos - (long) (Math.min(windowSeconds, longestWindowSeconds) * 1e9);
        while (h.size > 1 && h.atNanos(0) <= from) {
            h.removeFirst(); // the next one's share covers the span from the window's start
        }
        double sum = 0;
        long covered = from;
        double newest = h.weight(h.size - 1);
        boolean busyNow = !h.idle(h.size - 1);
        boolean moved = false;
        boolean woke = false;
        for (int i = 0; i < h.size; i++) {
            long t = h.atNanos(i);
            if (t > covered) {
                sum += h.share(i) * (t - covered);
                covered = t;
            }
            moved |= Math.abs(h.weight(i) - newest) > 1e-9 * Math.max(1, Math.abs(newest)); // decimal text on the bus
            woke |= busyNow && h.idle(i); // idle earlier in the window, busy now
        }
        double span = atNanos - from;
        return new WindowShare(span > 0 ? sum / span : h.share(h.size - 1), moved, woke);
    }

    /** How many reports of {@code flow} are kept (for tests). */
    int size(String flow) {
        Samples h = byFlow.get(flow);
        return h == null ? 0 : h.size;
    }

    /** Forgets the flows whose newest report is older than {@code beforeNanos} (their gateway is gone). */
    void forgetOlderThan(long beforeNanos) {
        byFlow.values().removeIf(h -> h.atNanos(h.size - 1) < beforeNanos);
    }

    /** Carries another manager's history over (a configuration changed: the flows and their windows go on). */
    void keep(ShareHistory other) {
        other.byFlow.forEach((k, v) -> byFlow.put(k, v.copy()));
    }
}
