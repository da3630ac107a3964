package io.slagate.rm;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Which of several resource managers publishes allocations. Each announces itself every heartbeat
 * interval, saying whether it is active. The rules, in order:
 * <ol>
 *   <li>a manager that has just started listens first, from when the bus delivers to it (it hears its
 *       own join), and is never active before that: it must learn whether another manager is
 *       already active before it may publish;</li>
 *   <li>a live active peer is never preempted: while one is heard, a manager stands by, whatever
 *       the ids (a manager that starts does not take over from a stable one);</li>
 *   <li>two managers that both claim to be active (both started alone, or the bus healed after a
 *       split) settle it by id: the larger steps down on hearing the smaller;</li>
 *   <li>with no live active peer, an active manager stays so, and otherwise the smallest id among
 *       the live managers becomes active.</li>
 * </ol>
 * A peer counts as live until it leaves, or {@code expiry} passes without a beat from it. While it is
 * live, its id belongs to the bus account it was heard from (broker-stamped): another manager account
 * cannot speak for it, neither to make the others stand by nor to make it leave. Not thread-safe: the
 * control loop's thread only.
 */
final class Election {
    private record Peer(long heardNanos, boolean active, String account) {}

    private final String self;
    private long expiryNanos;
    private final Map<String, Peer> peers = new HashMap<>();
    private long listenUntil = Long.MIN_VALUE;
    private boolean listening;
    private boolean awaitingBus;
    private boolean active;

    /** @param expiryNanos how long a peer stays live after its last beat */
    Election(String self, long expiryNanos) {
        this.self = self;
        this.expiryNanos = expiryNanos;
    }

    void expireAfter(long nanos) {
        expiryNanos = nanos;
    }

    /** Not active until {@link #listen} has run its course: a manager that is not on the bus yet hears nobody. */
    void awaitBus() {
        listening = true;
        awaitingBus = true;
        active = false;
    }

    /** Starts listening at {@code now} for {@code listenNanos} (on the bus at last): no decision to be active before it ends. */
    void listen(long now, long listenNanos) {
        listening = true;
        awaitingBus = false;
        listenUntil = now + listenNanos;
        active = false;
    }

    void heard(String peer, boolean claimsActive, long now) {
        heard(peer, null, claimsActive, now);
    }

    /** A beat of {@code peer} from bus account {@code account}; false (not believed) when a live peer of that id has another account. */
    boolean heard(String peer, String account, boolean claimsActive, long now) {
        Peer p = peers.get(peer);
        if (p != null && now - p.heardNanos() <= expiryNanos && !Objects.equals(p.account(), account)) {
            return false;
        }
        peers.put(peer, new Peer(now, claimsActive, account));
        return true;
    }

    void left(String peer) {
        left(peer, null);
    }

    /** {@code peer} leaves, if {@code account} is the one it was heard from; false otherwise. */
    boolean left(String peer, String account) {
        Peer p = peers.get(peer);
        if (p != null && !Objects.equals(p.account(), account)) {
            return false;
        }
        peers.remove(peer);
        return true;
    }

    /** Re-decides at {@code now}; returns whether this manager is active. */
    boolean update(long now) {
        peers.values().removeIf(p -> now - p.heardNanos() > expiryNanos);
        if (listening && (awaitingBus || now - listenUntil < 0)) {
            return active = false;
        }
        listening = false;
        String activePeer = activePeer();
        if (activePeer != null) {
            // a stable active is kept; of two actives, the smaller id stays
            active = active && self.compareTo(activePeer) < 0;
        } else {
            // an active manager stays so; otherwise the smallest live id takes the place
            active = active || peers.keySet().stream().noneMatch(p -> p.compareTo(self) < 0);
        }
        return active;
    }

    boolean active() {
        return active;
    }

    boolean awaitingBus() {
        return awaitingBus;
    }

    boolean listening() {
        return listening;
    }

    /** The live peer claiming to be active with the smallest id, or null. */
    String activePeer() {
        return peers.entrySet().stream().filter(e -> e.getValue().active()).map(Map.Entry::getKey)
                .min(String::compareTo).orElse(null);
    }

    /** Who this manager defers to, for the log: the active peer, or the smallest live id below its own. */
    String deferringTo() {
        String a = activePeer();
        return a != null ? a : peers.keySet().stream().filter(p -> p.compareTo(self) < 0).min(String::compareTo).orElse(null);
    }
}
