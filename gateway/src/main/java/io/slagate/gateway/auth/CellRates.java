package io.slagate.gateway.auth;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A generic cell rate per key ({@code burst} at once, then {@code rate} a second), taken before the work it pays
 * for: a take that would pass the burst is refused and charges nothing, so a key's debt never grows past
 * {@code burst} however often it knocks. A take can be given back (the work turned out not to count). Lock-free:
 * each cell is one theoretical arrival time in an {@link AtomicLong}.
 *
 * <p>Bounded: at {@code maxKeys} an arbitrary cell is forgotten to make room. Forgetting forgives a debt; it never
 * makes one key pay for another's, so no flood of keys can make an innocent client share an attacker's cell.
 */
final class CellRates {
    private final long intervalNanos;
    /** How far ahead of now a cell's arrival time may stand after a take: {@code burst} intervals. */
    private final long limitNanos;
    private final int maxKeys;
    private final ConcurrentHashMap<String, AtomicLong> cells = new ConcurrentHashMap<>();

    CellRates(double ratePerSecond, int burst, int maxKeys) {
        this.intervalNanos = Math.max(1, (long) (1e9 / ratePerSecond));
        this.limitNanos = intervalNanos * burst;
        this.maxKeys = maxKeys;
    }

    /** Takes one for {@code key} now: false (and nothing charged) when its burst is spent. */
    boolean take(String key, long now) {
        AtomicLong cell = cells.get(key);
        if (cell == null) {
            if (cells.size() >= maxKeys) {
                forgetOne();
            }
            cell = cells.computeIfAbsent(key, k -> new AtomicLong(now));
        }
        while (true) {
            long t = cell.get();
            long next = Math.max(t - now, 0) + now + intervalNanos; // an arrival time in the past is now
            if (next - now > limitNanos) {
                return false;
            }
            if (cell.compareAndSet(t, next)) {
                return true;
            }
        }
    }

    /** Whether a take for {@code key} would succeed now (nothing charged). */
    boolean allows(String key, long now) {
        AtomicLong cell = cells.get(key);
        return cell == null || Math.max(cell.get() - now, 0) + intervalNanos <= limitNanos;
    }

    /** Gives back one take of {@code key}: what it paid for did not count. */
    void giveBack(String key) {
        AtomicLong cell = cells.get(key);
        if (cell != null) {
            cell.addAndGet(-intervalNanos);
        }
    }

    /** Forgets the cells with nothing owed (they are as good as new); run now and then, off the request path. */
    void sweep(long now) {
        cells.values().removeIf(t -> t.get() - now <= 0);
    }

    private void forgetOne() {
        Iterator<String> it = cells.keySet().iterator();
        if (it.hasNext()) {
            cells.remove(it.next());
        }
    }

    int size() {
        return cells.size();
    }
}
