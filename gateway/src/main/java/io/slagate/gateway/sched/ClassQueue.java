package io.slagate.gateway.sched;

import java.util.Iterator;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A logical queue of waiting requests (one per class; one per pool in FCFS mode). Arrival threads
 * append, the scheduling loop (one thread at a time) takes, and the timeout sweeper removes expired
 * entries; an entry's state CAS decides which of the last two gets it.
 *
 * <p>With per-customer fairness (a class's {@code fairness: customers}, the default) the queue is a
 * lane per customer, served in turn, one request per turn (a lane that was idle first): a customer sending ten times its share
 * waits in its own lane while the class's other customers keep their turns, and a lane may hold at
 * most {@code customerQueueBound} requests (beyond, that customer's requests are refused with
 * queue-full, not the others'). Without it the queue is one FIFO. A lane lives while it holds
 * requests; an idle one is dropped by the sweeper, so idle customers cost nothing.
 */
final class ClassQueue {
    /** One customer's waiting requests. */
    private static final class Lane {
        final Queue<QueuedRequest> entries;
        final AtomicInteger waiting = new AtomicInteger();
        /** In {@code fresh} or {@code old} (or about to be): set by whoever puts it there, cleared by the poller. */
        final AtomicBoolean scheduled = new AtomicBoolean();

        Lane(boolean byExpiry) {
            entries = byExpiry ? new ExpiryOrderedEntries() : new ConcurrentLinkedQueue<>();
        }
    }

    private static final String ANONYMOUS = "";

    /** Live (still waiting) entries; dead ones may linger until skipped. */
    private final AtomicInteger live = new AtomicInteger();
    final int pool;
    /** True when every entry has the same queue timeout, so deadlines are in FIFO order (per lane). */
    final boolean deadlinesOrdered;
    /** Lanes served earliest expiry first (a class with deadlines): always in deadline order. */
    private final boolean byExpiry;
    /**
     * Set when a class's queue timeout changed (the knob): entries queued under the old timeout may expire after
     * later ones, so the sweep scans every entry until {@link #scanAllUntil} (nanoTime) has passed, or for good when the
     * classes sharing this queue now have different timeouts.
     */
    private volatile boolean scanAll;
    private volatile boolean scanAllForGood;
    private volatile long scanAllUntil;
    private final boolean fair;
    private final int laneBound;
    /** FIFO mode: the one lane. */
    private final Lane fifo;
    /**
     * Fair mode: the lanes by customer, and the turn order of those with waiting requests — lanes that
     * were idle ({@code fresh}) before lanes that stayed backlogged ({@code old}), as FQ-CoDel serves new
     * flows first: a customer that sends a request now and then is served at the next free slot, and one
     * that keeps its lane full takes its turns among the other backlogged ones.
     */
    private final ConcurrentHashMap<String, Lane> lanes = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Lane> fresh = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Lane> old = new ConcurrentLinkedQueue<>();

    ClassQueue(int pool, boolean deadlinesOrdered) {
        this(pool, deadlinesOrdered, false, false, Integer.MAX_VALUE);
    }

    /**
     * @param byExpiry  serve each lane earliest expiry first (a class with deadlines) instead of in arrival order
     * @param fair      one lane per customer, served round-robin
     * @param laneBound the most requests one customer's lane may hold (fair mode)
     */
    ClassQueue(int pool, boolean deadlinesOrdered, boolean byExpiry, boolean fair, int laneBound) {
        this.pool = pool;
        this.deadlinesOrdered = deadlinesOrdered;
        this.byExpiry = byExpiry;
        this.fair = fair;
        this.laneBound = laneBound;
        this.fifo = new Lane(byExpiry);
    }

    /** Appends {@code r}; false (nothing changed) when its customer's lane is full. */
    boolean add(QueuedRequest r) {
        if (!fair) {
            live.incrementAndGet();
            fifo.entries.add(r);
            return true;
        }
        String customer = r.customer() == null ? ANONYMOUS : r.customer();
        Lane lane = lanes.computeIfAbsent(customer, k -> new Lane(byExpiry));
        if (lane.waiting.incrementAndGet() > laneBound) {
            lane.waiting.decrementAndGet();
            return false;
        }
        live.incrementAndGet();
        lane.entries.add(r);
        if (lane.scheduled.compareAndSet(false, true)) {
            fresh.add(lane);
        }
        return true;
    }

    boolean backlogged() {
        return live.get() > 0;
    }

    int size() {
        return Math.max(0, live.get());
    }

    /** Customers with a lane (waiting requests, or idle until the next sweep). */
    int customers() {
        return fair ? lanes.size() : 0;
    }

    /** The next waiting entry (the oldest, or the next customer's oldest), now marked admitted; null if none is waiting. */
    QueuedRequest pollForAdmission() {
        if (!fair) {
            return pollLive(fifo);
        }
        Lane lane;
        while ((lane = fresh.poll()) != null || (lane = old.poll()) != null) {
            QueuedRequest r = pollLive(lane);
            lane.scheduled.set(false);
            // an arrival since the poll either saw scheduled set (and left it to us) or sets it now itself
            if (lane.waiting.get() > 0 && lane.scheduled.compareAndSet(false, true)) {
                old.add(lane); // still backlogged: its next turn comes after every other backlogged customer's
            }
            if (r != null) {
                return r;
            }
        }
        return null;
    }

    private QueuedRequest pollLive(Lane lane) {
        QueuedRequest r;
        while ((r = lane.entries.poll()) != null) {
            if (r.transition(QueuedRequest.ADMITTED)) {
                lane.waiting.decrementAndGet();
                live.decrementAndGet();
                return r;
            }
        }
        return null;
    }

    /**
     * A class of this queue changed its queue timeout at {@code nowNanos}: entries already queued keep their deadlines,
     * so until the longest of the old timeouts has passed, deadlines are not in queue order.
     *
     * @param mixed the classes sharing this queue now have different timeouts
     *              (one writer: the bus listener, under the gateway's lock)
     */
    void timeoutChanged(long nowNanos, long longestOldTimeoutNanos, boolean mixed) {
        scanAllForGood = mixed;
        long until = nowNanos + longestOldTimeoutNanos;
        if (scanAll && scanAllUntil - until > 0) {
            until = scanAllUntil; // entries from before an earlier change may still be waiting
        }
        scanAllUntil = until; // written before the flag that makes readers look at it
        scanAll = true;
    }

    private boolean ordered(long nowNanos) {
        if (byExpiry) {
            return true; // the lanes are sorted by the very deadlines the sweep reads
        }
        if (!deadlinesOrdered || scanAllForGood) {
            return false;
        }
        return !(scanAll && nowNanos - scanAllUntil < 0);
    }

    /** Marks and removes entries whose deadline passed; returns them through {@code sink}. Drops idle lanes. */
    int expire(long nowNanos, Consumer<QueuedRequest> sink) {
        boolean ordered = ordered(nowNanos);
        if (!fair) {
            return expire(fifo, nowNanos, ordered, sink);
        }
        int n = 0;
        for (Iterator<Map.Entry<String, Lane>> it = lanes.entrySet().iterator(); it.hasNext(); ) {
            Lane lane = it.next().getValue();
            n += expire(lane, nowNanos, ordered, sink);
            if (lane.waiting.get() == 0 && !lane.scheduled.get()) {
                // idle: forget it (an arrival racing this still has its entry served: it schedules the lane itself)
                it.remove();
            }
        }
        return n;
    }

    private int expire(Lane lane, long nowNanos, boolean ordered, Consumer<QueuedRequest> sink) {
        int n = 0;
        for (Iterator<QueuedRequest> it = lane.entries.iterator(); it.hasNext(); ) {
            QueuedRequest r = it.next();
            if (!r.isWaiting()) {
                continue;
            }
            if (r.deadlineNanos - nowNanos > 0) {
                if (ordered) {
                    break;
                }
                continue;
            }
            if (r.transition(QueuedRequest.EXPIRED)) {
                lane.waiting.decrementAndGet();
                live.decrementAndGet();
                it.remove();
                sink.accept(r);
                n++;
            }
        }
        return n;
    }
}
