package io.slagate.gateway.sched;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A logical FIFO queue of waiting requests (one per class; one per pool in FCFS mode). Arrival
 * threads append, the scheduling loop takes from the head, and the timeout sweeper removes expired
 * entries; an entry's state CAS decides which of the last two gets it.
 */
final class ClassQueue {
    private final ConcurrentLinkedQueue<QueuedRequest> entries = new ConcurrentLinkedQueue<>();
    /** Live (still waiting) entries; dead ones may linger in {@code entries} until skipped. */
    private final AtomicInteger live = new AtomicInteger();
    final int pool;
    /** True when every entry has the same queue timeout, so deadlines are in FIFO order. */
    final boolean deadlinesOrdered;

    ClassQueue(int pool, boolean deadlinesOrdered) {
        this.pool = pool;
        this.deadlinesOrdered = deadlinesOrdered;
    }

    void add(QueuedRequest r) {
        live.incrementAndGet();
        entries.add(r);
    }

    boolean backlogged() {
        return live.get() > 0;
    }

    int size() {
        return Math.max(0, live.get());
    }

    /** The oldest waiting entry, now marked admitted; null if none is waiting. */
    QueuedRequest pollForAdmission() {
        QueuedRequest r;
        while ((r = entries.poll()) != null) {
            if (r.transition(QueuedRequest.ADMITTED)) {
                live.decrementAndGet();
                return r;
            }
        }
        return null;
    }

    /** Marks and removes entries whose deadline passed; returns them through {@code sink}. */
    int expire(long nowNanos, java.util.function.Consumer<QueuedRequest> sink) {
        int n = 0;
        for (Iterator<QueuedRequest> it = entries.iterator(); it.hasNext(); ) {
            QueuedRequest r = it.next();
            if (!r.isWaiting()) {
                continue;
            }
            if (r.deadlineNanos - nowNanos > 0) {
                if (deadlinesOrdered) {
                    break;
                }
                continue;
            }
            if (r.transition(QueuedRequest.EXPIRED)) {
                live.decrementAndGet();
                it.remove();
                sink.accept(r);
                n++;
            }
        }
        return n;
    }
}
