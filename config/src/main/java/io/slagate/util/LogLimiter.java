package io.slagate.util;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Lets a repeated message be logged at most once per period, so that a peer sending garbage every
 * millisecond cannot flood the log; what is not logged is still counted by the caller. Thread-safe
 * without a lock: of the threads that ask at the same moment, one is let through.
 */
public final class LogLimiter {
    private final long periodNanos;
    private final LongSupplier nanoClock;
    private final AtomicLong last;

    /** At most once per {@code period}, the first time at once. */
    public LogLimiter(Duration period) {
        this(period, System::nanoTime);
    }

    public LogLimiter(Duration period, LongSupplier nanoClock) {
        this.periodNanos = period.toNanos();
        this.nanoClock = nanoClock;
        this.last = new AtomicLong(nanoClock.getAsLong() - periodNanos);
    }

    /** Whether to log now: true at most once per period. */
    public boolean allow() {
        long now = nanoClock.getAsLong();
        long before = last.get();
        return now - before >= periodNanos && last.compareAndSet(before, now);
    }
}
