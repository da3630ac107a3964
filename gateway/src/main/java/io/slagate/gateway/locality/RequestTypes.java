package io.slagate.gateway.locality;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Request types (service, operation and, when configured, a key header's value) as small integers.
 * Bounded: clients choose these strings, so after {@link #MAX} distinct types a new one gets −1
 * (dispatched least-outstanding) and costs no memory.
 */
public final class RequestTypes {
    public static final int MAX = 256;

    private final ConcurrentHashMap<String, Integer> index = new ConcurrentHashMap<>();
    private final AtomicReferenceArray<String> names = new AtomicReferenceArray<>(MAX);
    private final AtomicInteger count = new AtomicInteger();

    /** The type's index, registering it if there is room; −1 when {@link #MAX} types are known already. */
    public int indexOf(String key) {
        Integer i = index.get(key);
        if (i != null) {
            return i;
        }
        if (count.get() >= MAX) {
            return -1;
        }
        Integer added = index.computeIfAbsent(key, k -> {
            int n = count.getAndIncrement();
            if (n >= MAX) {
                return null; // full: nothing is stored for it
            }
            names.set(n, k);
            return n;
        });
        return added == null ? -1 : added;
    }

    /** The type's index if it is known, else −1 (nothing is registered). */
    public int find(String key) {
        Integer i = index.get(key);
        return i == null ? -1 : i;
    }

    /** Types known so far (their indices are 0 .. size − 1). */
    public int size() {
        return Math.min(count.get(), MAX);
    }

    /** The type's key, or null while it is being registered. */
    public String name(int type) {
        return names.get(type);
    }
}
