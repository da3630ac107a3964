package io.slagate.rm;

import io.slagate.rm.model.FlowObservation;
import java.util.HashMap;
import java.util.Map;

/**
 * Per flow, whether it keeps its weight for want of answers: it has arrivals and none answered within its window (its
 * first requests still queued, a server that stopped answering, every request refused), so its response time is
 * unknown, not zero, and optimized on a zero it would be given the minimum. It keeps its weight for at most one window
 * from the first report that showed it so; after that it is decided on what it reads, as any flow: a gateway cannot pin
 * a weight by reporting arrivals without answers. The manager's thread only.
 */
final class UnansweredHold {
    private final Map<String, Long> since = new HashMap<>();

    /** Whether flow {@code key}, observed as {@code o} at {@code atNanos} over a window of {@code windowSeconds}, keeps its weight. */
    boolean holds(String key, FlowObservation o, long atNanos, double windowSeconds) {
        if (!o.unanswered()) {
            since.remove(key);
            return false;
        }
        long first = since.computeIfAbsent(key, k -> atNanos);
        return atNanos - first <= windowSeconds * 1e9;
    }

    void forget(String key) {
        since.remove(key);
    }
}
