package io.slagate.rm;

import io.slagate.bus.message.HeartbeatMessage;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this manager is active or stands by. Several managers may run (one per host, say); each
 * announces itself every heartbeat interval, saying whether it is active, and only the active one
 * publishes allocations. A manager that starts listens for 1.5 to 2 intervals, from when the bus
 * delivers to it (it hears its own join), before it may become active, and never preempts a live
 * active one; see {@link Election} for the rules. A standby keeps deciding (so its state is warm)
 * and takes over at once when the active one leaves, or within {@value #PEER_EXPIRY_BEATS} + 1
 * intervals when it falls silent. The control loop's thread only, but for {@link #active()}.
 */
final class Standing {
    private static final Logger LOG = LoggerFactory.getLogger(Standing.class);
    /** A peer manager is live for this many heartbeat intervals after its last beat. */
    static final int PEER_EXPIRY_BEATS = 3;

    private final String id;
    private final LongSupplier nanoClock;
    /** Runs when this manager has just become active: it decides and publishes at once. */
    private final Runnable becameActive;
    private final Election election;
    private volatile boolean active;
    private long listenNanos;

    Standing(String id, Duration cycle, LongSupplier nanoClock, Runnable becameActive) {
        this.id = id;
        this.nanoClock = nanoClock;
        this.becameActive = becameActive;
        this.election = new Election(id, PEER_EXPIRY_BEATS * heartbeatInterval(cycle).toNanos());
    }

    /**
     * The managers' heartbeat interval: min(Γ, 1 s). Takeover and a new manager's listening are
     * counted in intervals, so a long control cycle does not slow them.
     */
    static Duration heartbeatInterval(Duration cycle) {
        return cycle.compareTo(Duration.ofSeconds(1)) < 0 ? cycle : Duration.ofSeconds(1);
    }

    /**
     * How long a starting manager listens: 1.5 to 2 heartbeat intervals (the jitter keeps managers
     * started together apart), or none when {@code sole}: no other manager can be on this bus (an
     * in-VM broker with no listener).
     */
    static long listenWindow(Duration cycle, boolean sole) {
        long beat = heartbeatInterval(cycle).toNanos();
        return sole ? 0 : beat * 3 / 2 + ThreadLocalRandom.current().nextLong(beat / 2 + 1);
    }

    /** The manager starts: not active before it has listened on the bus for {@code listenNanos}. */
    void start(long listenNanos) {
        this.listenNanos = listenNanos;
        election.awaitBus();
    }

    /** Peers expire after {@value #PEER_EXPIRY_BEATS} intervals of the control cycle {@code cycle} (it may change at run time). */
    void cycleChanged(Duration cycle) {
        election.expireAfter(PEER_EXPIRY_BEATS * heartbeatInterval(cycle).toNanos());
    }

    /**
     * This manager's own join came back: the bus delivers to it now, so the listening starts (once);
     * a peer that beats every interval is heard within it, however long connecting took.
     *
     * @return the window after which to {@link #update} again, or −1 when listening had started already
     */
    long ownJoinHeard() {
        if (!election.awaitingBus()) {
            return -1;
        }
        election.listen(nanoClock.getAsLong(), listenNanos);
        update();
        return listenNanos;
    }

    /** A peer manager's beat, from bus account {@code account} (broker-stamped; null on a bus without accounts). */
    void peerHeard(HeartbeatMessage h, String account) {
        boolean believed = HeartbeatMessage.LEAVE.equals(h.event()) ? election.left(h.componentId(), account)
                : election.heard(h.componentId(), account, HeartbeatMessage.ACTIVE.equals(h.event()), nanoClock.getAsLong());
        if (!believed && impostors.add(h.componentId() + " " + account)) {
            LOG.warn("bus account {} spoke for resource manager {}, which is live under another account; not believed",
                    account, h.componentId());
        }
        update();
    }

    /** Accounts already warned about, per manager id they spoke for (one warning each). */
    private final Set<String> impostors = new HashSet<>();

    /** Re-decides active or standby; a manager that has just become active decides and publishes at once. */
    void update() {
        boolean was = active;
        boolean wasListening = election.listening();
        active = election.update(nanoClock.getAsLong());
        if (active != was || wasListening && !election.listening()) {
            if (active) {
                LOG.info("resource manager {} is now active", id);
                becameActive.run();
            } else {
                LOG.info("resource manager {} stands by: {} is active", id, election.deferringTo());
            }
        }
    }

    boolean active() {
        return active;
    }

    /** Whether active now; a manager driven by hand ({@code started} false) has no heartbeats to decide it by. */
    boolean activeNow(boolean started) {
        if (!started) {
            active = election.update(nanoClock.getAsLong());
        }
        return active;
    }

    /** This manager's heartbeat event: {@code active} while it publishes, else {@code alive}. */
    String beatEvent() {
        return active ? HeartbeatMessage.ACTIVE : HeartbeatMessage.ALIVE;
    }
}
