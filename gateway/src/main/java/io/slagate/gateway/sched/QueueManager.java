package io.slagate.gateway.sched;

import io.slagate.config.SchedulerMode;
import io.slagate.config.SlagateConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's queue manager (section III-A): per-class FIFO queues of suspended requests and the
 * scheduler that admits them under the caps N_{g,s} (and so N_g = Σ_s N_{g,s}) of the current
 * {@link Allocation}, choosing the class by weighted round-robin (or FCFS, or static priority).
 *
 * <p>No thread waits per request and no lock is taken. Scheduling runs in a serialized loop
 * ({@link Admission}): exactly one thread at a time makes admission decisions, and a thread that
 * changes the state while another runs it returns at once. Caps are reserved with a CAS
 * on the server's counter, so they hold exactly even against a retry that reserves a slot from
 * outside the loop.
 *
 * <p>Under overload a class's queue grows to its bound, after which its arrivals are rejected
 * ({@link Rejection#QUEUE_FULL}), and a request that waits longer than its class's queue timeout is
 * expired by {@link #expireOverdue}; both become 503-type faults upstream. Other classes keep their
 * shares.
 *
 * <p>What it admits under is in its {@link #caps() cap table}, which servers serve which pool in its
 * {@link #pools() pool topology}, its per-class counts in {@link #counts()}; this class holds the
 * queues and what happens to a request in them.
 */
public final class QueueManager {
    private static final Logger LOG = LoggerFactory.getLogger(QueueManager.class);

    private final int classCount;
    private final int[] classQueue;
    /** Per class, the pool of its queue. */
    private final int[] classPool;
    private final int[] queueBound;
    private final QueueTimeouts timeouts;
    private final ClassQueue[] queues;
    private final ServerSlots[] servers;
    private final CapTable caps;
    private final PoolTopology pools;
    private final LongSupplier nanoClock;
    private final Admission admission;
    private final ClassCounts counts;
    private volatile Runnable rotationListener = () -> { };
    private final String[] serverKeys;
    /** The scheduler of the configuration that replaced this one, woken by every slot freed here; or null. */
    private volatile Runnable slotFreed;

    private QueueManager(SlagateConfig config, SchedulerMode mode, Allocation initial, LongSupplier nanoClock,
                         Map<String, AtomicInteger> inherited) {
        this.nanoClock = nanoClock;
        QueueLayout layout = new QueueLayout(config, mode, inherited);
        classCount = layout.classCount;
        servers = layout.servers;
        serverKeys = layout.serverKeys;
        classQueue = layout.classQueue;
        classPool = layout.classPool;
        queueBound = layout.queueBound;
        queues = layout.queues;
        timeouts = new QueueTimeouts(layout.configuredTimeoutNanos, classQueue, queues, nanoClock);
        caps = new CapTable(initial, classCount, servers.length);
        int[] queuePool = new int[classCount];
        for (int c = 0; c < classCount; c++) {
            queuePool[c] = queues[classQueue[c]].pool;
        }
        pools = new PoolTopology(layout, config, queuePool, caps, this::wake);
        counts = new ClassCounts(classCount);
        admission = new Admission(layout, mode, queues, counts, caps, pools);
    }

    public static QueueManager create(SlagateConfig config, Allocation initial, LongSupplier nanoClock) {
        return new QueueManager(config, config.gateway().scheduler(), initial, nanoClock, Map.of());
    }

    /**
     * A queue manager for a configuration that replaces {@code previous}'s at run time: a server
     * both have (same id and URL) shares its outstanding count, so that N_{g,s} bounds the requests
     * of both while the previous one finishes. {@link #succeededBy} links them once it takes over.
     */
    public static QueueManager succeeding(QueueManager previous, SlagateConfig config, Allocation initial, LongSupplier nanoClock) {
        Map<String, AtomicInteger> counters = new HashMap<>();
        for (int i = 0; i < previous.servers.length; i++) {
            counters.put(previous.serverKeys[i], previous.servers[i].counter());
        }
        return new QueueManager(config, config.gateway().scheduler(), initial, nanoClock, counters);
    }

    /**
     * {@code next} has taken over: every slot this one frees from now on also wakes {@code next}'s
     * scheduler (and, through it, any that replaced {@code next} in turn), since they share the servers.
     */
    public void succeededBy(QueueManager next) {
        slotFreed = next::wake;
    }

    /** Server {@code s} answered a request of class {@code c} with {@code status}; see {@link PoolAssignment#answered}. */
    public void answered(int s, int c, int status) {
        pools.answered(s, classPool[c], status);
    }

    /** The caps in force here: the allocation's, local limits below them. */
    public CapTable caps() {
        return caps;
    }

    /** Which servers serve which pool now, and how each pool picks among them. */
    public PoolTopology pools() {
        return pools;
    }

    /** Per class, the requests waiting and executing. */
    public ClassCounts counts() {
        return counts;
    }

    /** Each class's queue timeout in force (the manager's queueTimeout knob sets them). */
    public QueueTimeouts timeouts() {
        return timeouts;
    }

    private void wake() {
        schedule();
        Runnable successor = slotFreed;
        if (successor != null) {
            successor.run();
        }
    }

    /**
     * Queues {@code r} and runs the scheduler; the request may be admitted before this returns.
     *
     * @return null when queued (or admitted), else why it was refused — the caller answers it
     */
    public Rejection offer(QueuedRequest r) {
        int c = r.classIndex();
        if (counts.waiting.incrementAndGet(c) > queueBound[c]) {
            counts.waiting.decrementAndGet(c);
            return Rejection.QUEUE_FULL;
        }
        r.expiresAt(r.enqueuedNanos() + timeouts.nanos(c));
        if (!queues[classQueue[c]].add(r)) {
            counts.waiting.decrementAndGet(c);
            return Rejection.QUEUE_FULL; // its customer's lane is full; the class's other customers still queue
        }
        schedule();
        return null;
    }

    /** Frees the slot a request held on {@code server} and schedules the next one. */
    public void release(ServerSlots server, int classIndex) {
        server.release();
        counts.executing.decrementAndGet(classIndex);
        wake();
    }

    /**
     * Moves a request that could not be sent to {@code failed} to another server of the same pool
     * with a free slot, keeping its class slot. Used only for requests the failed server never
     * received, so a retry cannot execute anything twice.
     *
     * @param tried bit i set: server i (i &lt; 64) was already tried for this request and is skipped
     * @return the new server, or null when no untried server has a free slot (the caller then releases)
     */
    public ServerSlots reassign(ServerSlots failed, long tried) {
        Allocation a = caps.allocation();
        int pool = pools.pool(failed.index());
        for (int s : pools.serversOf(pool)) {
            ServerSlots other = servers[s];
            boolean alreadyTried = s < 64 && (tried & (1L << s)) != 0;
            if (other != failed && pools.serves(s, pool) && !alreadyTried && other.inRotation() && other.tryAcquire(caps.cap(a, s))) {
                failed.release();
                wake();
                return other;
            }
        }
        return null;
    }

    /** Expires requests that waited past their class's queue timeout; returns how many. */
    public int expireOverdue() {
        long now = nanoClock.getAsLong();
        int n = 0;
        for (ClassQueue q : queues) {
            n += q.expire(now, r -> {
                counts.waiting.decrementAndGet(r.classIndex());
                try {
                    r.onExpired();
                } catch (RuntimeException e) {
                    LOG.error("expiring a request of class {} failed", r.classIndex(), e);
                }
            });
        }
        return n;
    }

    /** Swaps in a new allocation; never blocks, never drops a request. */
    public void setAllocation(Allocation next) {
        caps.set(next);
        schedule();
    }

    /** Runs after a server leaves or rejoins the rotation (the gateway reports at once, so the controller knows). */
    public void onRotationChange(Runnable listener) {
        rotationListener = listener;
    }

    /** Takes a server out of rotation (its slots are not offered) or brings it back. */
    public void setInRotation(int serverIndex, boolean inRotation) {
        servers[serverIndex].setInRotation(inRotation);
        pools.rotationChanged(serverIndex); // at once
        if (inRotation) {
            restoreCap(serverIndex);
            schedule();
        }
        rotationListener.run();
    }

    /**
     * A server back in rotation whose cap in force is 0 (the controller zeroed it while the server was
     * down) gets this gateway's share from before the outage at once, until the next allocation: the
     * server answers now, and its requests should not queue for a control cycle. Every gateway restores
     * its own part of the same split, so Σ_g N_{g,s} stays N_s unless gateways joined or left meanwhile.
     */
    private void restoreCap(int s) {
        int cap = caps.restore(s);
        if (cap > 0) {
            LOG.info("server {} back in rotation: its cap is {} again (its share before the outage) until the next allocation",
                    servers[s].id(), cap);
        }
    }

    /** Holds server {@code s} to {@code cap} slots here (below the allocation's), or lifts that with −1; wakes the queues when raised. */
    public void limitLocally(int s, int cap) {
        if (caps.limit(s, cap)) {
            wake(); // slots given back: waiting requests may go now
        }
    }

    /** Customers with a lane in the class's queue (those waiting, and idle ones until the next sweep). */
    int customers(int classIndex) {
        return queues[classIndex].customers();
    }

    public ServerSlots server(int index) {
        return servers[index];
    }

    public int serverCount() {
        return servers.length;
    }

    public int classCount() {
        return classCount;
    }

    private void schedule() {
        admission.run();
    }

    /**
     * While {@code on}, class {@code c} (a surging one) gets no more concurrent slots than its share of the allocation
     * in force, even when the other classes leave theirs idle (see {@link SurgeShares}).
     */
    public void protectAgainst(int c, boolean on) {
        admission.protect(c, on);
        if (!on) {
            wake(); // slots it may take again
        }
    }
}
