package io.slagate.bench;

import java.util.ArrayDeque;

/**
 * The spikes' two class queues under weighted round robin 8:2, as the gateway's benchmark configuration has them: a
 * class serves up to its weight in a row while it has requests, then the turn passes. One event loop's, unsynchronized.
 */
final class WrrQueues<T> {
    private final ArrayDeque<T>[] queues;
    private final int[] weights = {8, 2};
    private int current;
    private int credit = weights[0];

    @SuppressWarnings("unchecked")
    WrrQueues() {
        this.queues = new ArrayDeque[] {new ArrayDeque<T>(), new ArrayDeque<T>()};
    }

    /** Queues {@code x} in class {@code cls} (0: premium, 1: basic). */
    void offer(int cls, T x) {
        queues[cls].add(x);
    }

    /** The next request by weighted round robin over the non-empty queues, or null when both are empty. */
    T next() {
        for (int tries = 0; tries < 2 * queues.length; tries++) {
            if (credit > 0 && !queues[current].isEmpty()) {
                credit--;
                return queues[current].poll();
            }
            current = (current + 1) % queues.length;
            credit = weights[current];
        }
        return null;
    }
}
