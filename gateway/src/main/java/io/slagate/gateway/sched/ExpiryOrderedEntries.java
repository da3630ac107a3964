package io.slagate.gateway.sched;

import java.util.AbstractQueue;
import java.util.Comparator;
import java.util.Iterator;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A lane's waiting requests in the order their waits end, the earliest first (ties in arrival order):
 * for a class with deadlines, the request whose latest admission comes first is served first
 * (earliest deadline first), so a short deadline is not spent behind long ones that can still wait.
 * Lock-free like the FIFO lanes; an entry's {@link QueuedRequest#deadlineNanos} is its key and is set
 * before it is added and never changed while it waits.
 */
final class ExpiryOrderedEntries extends AbstractQueue<QueuedRequest> {
    private static final Comparator<QueuedRequest> EXPIRY_THEN_ARRIVAL = (a, b) -> {
        int byExpiry = Long.compare(a.deadlineNanos - b.deadlineNanos, 0); // nanoTime order: compare the difference
        return byExpiry != 0 ? byExpiry : Long.compare(a.sequence, b.sequence);
    };

    private final ConcurrentSkipListSet<QueuedRequest> entries = new ConcurrentSkipListSet<>(EXPIRY_THEN_ARRIVAL);
    private final AtomicLong arrivals = new AtomicLong();

    @Override
    public boolean offer(QueuedRequest r) {
        r.sequence = arrivals.incrementAndGet();
        return entries.add(r);
    }

    @Override
    public QueuedRequest poll() {
        return entries.pollFirst();
    }

    @Override
    public QueuedRequest peek() {
        Iterator<QueuedRequest> it = entries.iterator(); // first() throws when another thread empties it meanwhile
        return it.hasNext() ? it.next() : null;
    }

    /** Earliest expiry first; weakly consistent, and its {@code remove} removes from the lane. */
    @Override
    public Iterator<QueuedRequest> iterator() {
        return entries.iterator();
    }

    @Override
    public int size() {
        return entries.size();
    }
}
