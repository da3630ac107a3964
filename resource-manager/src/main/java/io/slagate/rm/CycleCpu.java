package io.slagate.rm;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The CPU time the calling thread spends, for a control cycle's own cost: on a shared machine the wall clock of a cycle
 * counts the time it waited for a core, its thread's CPU time only the work.
 */
final class CycleCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean SUPPORTED = THREADS.isCurrentThreadCpuTimeSupported();

    private CycleCpu() {
    }

    /** The calling thread's CPU time so far (ns), or −1 where the JVM cannot measure it. */
    static long threadNanos() {
        return SUPPORTED ? THREADS.getCurrentThreadCpuTime() : -1;
    }

    /** The calling thread's CPU time since {@code start} (from {@link #threadNanos}) in ms, or NaN where not measured. */
    static double millisSince(long start) {
        long now = threadNanos();
        return start < 0 || now < 0 ? Double.NaN : (now - start) / 1e6;
    }
}
