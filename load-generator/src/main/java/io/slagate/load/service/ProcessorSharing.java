package io.slagate.load.service;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A server whose requests share {@code processors} processors equally (egalitarian processor sharing, the
 * model of a CPU-bound server): with n requests executing, each progresses at min(1, processors / n) of its
 * demand per unit of time, so a server past its processors answers every request later, the more so the more
 * it holds. Emulated with sleeps of a slice each, crediting each slice at the rate its end sees, so the emulation
 * itself costs no CPU: the machine that runs the experiment is not the resource being shared.
 */
final class ProcessorSharing {
    private final AtomicInteger executing = new AtomicInteger();
    private final long sliceNanos;

    ProcessorSharing(long sliceNanos) {
        if (sliceNanos <= 0) {
            throw new IllegalArgumentException("slice must be positive: " + sliceNanos);
        }
        this.sliceNanos = sliceNanos;
    }

    /** Each request's share of a processor with {@code n} executing on {@code processors}. */
    static double rate(int processors, int n) {
        return n <= processors ? 1 : processors / (double) n;
    }

    /** Spends a demand of {@code demandNanos} processor-time on a server of {@code processors}, sharing with the others. */
    void perform(long demandNanos, int processors) {
        executing.incrementAndGet();
        try {
            double done = 0;
            long last = System.nanoTime();
            while (done < demandNanos) {
                double r = rate(processors, executing.get());
                LockSupport.parkNanos(Math.max(1, Math.min(sliceNanos, (long) ((demandNanos - done) / r))));
                long now = System.nanoTime();
                done += (now - last) * rate(processors, executing.get());
                last = now;
            }
        } finally {
            executing.decrementAndGet();
        }
    }

    int executing() {
        return executing.get();
    }
}
