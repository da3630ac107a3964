package io.slagate.gateway.sched;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * Each class's queue timeout in force: the configured one, or the one the manager sets (the
 * queueTimeout knob). A request is given its deadline when it is queued; replaced whole, read
 * lock-free on every arrival.
 */
public final class QueueTimeouts {
    private final int classCount;
    private final long[] configured;
    private final int[] classQueue;
    private final ClassQueue[] queues;
    private final LongSupplier clock;
    private volatile long[] inForce;

    QueueTimeouts(long[] configured, int[] classQueue, ClassQueue[] queues, LongSupplier clock) {
        this.clock = clock;
        this.classCount = configured.length;
        this.configured = configured;
        this.classQueue = classQueue;
        this.queues = queues;
        this.inForce = configured.clone();
    }

    /** Class {@code c}'s queue timeout in force, nanoseconds. */
    public long nanos(int c) {
        return inForce[c];
    }

    /**
     * The queue timeouts from now on (the queueTimeout knob, set by the manager): {@code nanos[c]} for class c, or
     * its configured timeout where {@code nanos[c]} ≤ 0. Requests already waiting keep the deadline they were given;
     * the sweep scans a changed class's whole queue until the longest old timeout has passed from now (the clock read
     * once the new ones are in force), since deadlines are then out of queue order. Called by one thread (the bus
     * listener, under the gateway's lock).
     *
     * @return the timeouts in force before, per class
     */
    public long[] set(long[] nanos) {
        if (nanos.length != classCount) {
            throw new IllegalArgumentException("one timeout per class: " + nanos.length + " for " + classCount);
        }
        long[] before = inForce;
        long[] next = new long[classCount];
        for (int c = 0; c < classCount; c++) {
            next[c] = nanos[c] > 0 ? nanos[c] : configured[c];
        }
        if (Arrays.equals(before, next)) {
            return before;
        }
        inForce = next;
        long now = clock.getAsLong();
        for (int q = 0; q < queues.length; q++) {
            long longestOld = -1;
            long first = -1;
            boolean mixed = false;
            for (int c = 0; c < classCount; c++) {
                if (classQueue[c] != q) {
                    continue;
                }
                if (before[c] != next[c]) {
                    longestOld = Math.max(longestOld, before[c]);
                }
                mixed |= first >= 0 && first != next[c];
                first = next[c];
            }
            if (longestOld >= 0) {
                queues[q].timeoutChanged(now, longestOld, mixed);
            }
        }
        return before;
    }
}
