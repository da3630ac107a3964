package io.slagate.util;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The last {@code capacity} things that happened (events, log lines, audit entries), for a status
 * page: adding one past the capacity drops the oldest. Thread-safe; meant for events, not for a
 * request's path.
 */
public final class Recent<T> {
    private final int capacity;
    private final ArrayDeque<T> items = new ArrayDeque<>();

    public Recent(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, not " + capacity);
        }
        this.capacity = capacity;
    }

    public synchronized void add(T item) {
        items.addLast(item);
        if (items.size() > capacity) {
            items.removeFirst();
        }
    }

    /** Everything kept, oldest first. */
    public synchronized List<T> oldestFirst() {
        return List.copyOf(items);
    }

    /** At most {@code max} of the newest, newest first. */
    public synchronized List<T> newestFirst(int max) {
        List<T> out = new ArrayList<>(Math.min(max, items.size()));
        for (Iterator<T> it = items.descendingIterator(); it.hasNext() && out.size() < max; ) {
            out.add(it.next());
        }
        return out;
    }
}
