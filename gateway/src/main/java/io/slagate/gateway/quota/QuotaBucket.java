package io.slagate.gateway.quota;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One customer's token bucket at this gateway, as a generic cell rate algorithm: the state is one
 * number, the theoretical arrival time of the next request at the steady pace, moved by one CAS per
 * admitted request; no lock, no timer. A request is admitted when that time is at most
 * {@code (burst − 1)} intervals ahead of now, so an idle bucket admits {@code burst} requests at once.
 * A bucket whose time has passed holds nothing a fresh one would not, so it can be dropped at any time.
 */
final class QuotaBucket {
    private final AtomicLong tat;
    private volatile long intervalNanos;
    private volatile long toleranceNanos;
    /** Requests offered this reporting interval (admitted or not): the demand the manager splits by. */
    final LongAdder offered = new LongAdder();
    final LongAdder refused = new LongAdder();
    final LongAdder offeredTotal = new LongAdder();
    final LongAdder refusedTotal = new LongAdder();

    /** The quota's own counters (every customer of a grade counts on its grade's): admitted, refused. */
    private final LongAdder[] byQuota;

    QuotaBucket(double ratePerSecond, int burst, long nowNanos, LongAdder[] byQuota) {
        this.byQuota = byQuota;
        tat = new AtomicLong(nowNanos);
        setRate(ratePerSecond, burst);
    }

    /** The pace and burst of this gateway's share (the pace in requests per second, above 0). */
    void setRate(double ratePerSecond, int burst) {
        long interval = (long) Math.max(1, Math.min(1e9 * 3600, 1e9 / ratePerSecond));
        intervalNanos = interval;
        toleranceNanos = interval * (Math.max(1, burst) - 1L);
    }

    /** 0 when the request is admitted (and charged), else how long until one would be, in nanoseconds. */
    long tryAcquire(long nowNanos) {
        offered.increment();
        offeredTotal.increment();
        while (true) {
            long t = tat.get();
            long base = Math.max(t, nowNanos);
            long ahead = base - nowNanos;
            long tolerance = toleranceNanos;
            if (ahead > tolerance) {
                refused.increment();
                refusedTotal.increment();
                byQuota[1].increment();
                return ahead - tolerance;
            }
            if (tat.compareAndSet(t, base + intervalNanos)) {
                byQuota[0].increment();
                return 0;
            }
        }
    }

    /** Whether the bucket is full again (nothing to remember). */
    boolean idle(long nowNanos) {
        return tat.get() <= nowNanos && offered.sum() == 0;
    }
}
