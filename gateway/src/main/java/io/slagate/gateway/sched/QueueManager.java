package io.slagate.gateway.sched;

import io.slagate.config.SchedulerMode;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.locality.LocalityLearner;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's queue manager (section III-A): per-class FIFO queues of suspended requests and the
 * scheduler that admits them under the caps N_{g,s} (and so N_g = Σ_s N_{g,s}) of the current
 * {@link Allocation}, choosing the class by weighted round-robin (or FCFS, or static priority).
 *
 * <p>No thread waits per request and no lock is taken. Scheduling runs in a serialized loop: any
 * thread that changes the state (an arrival, a completion, a new allocation) bumps {@code wip}; the
 * thread that moved it from 0 runs passes until no change is left unprocessed, so exactly one thread
 * at a time makes admission decisions and the others return at once. Caps are reserved with a CAS
 * on the server's counter, so they hold exactly even against a retry that reserves a slot from
 * outside the loop.
 *
 * <p>Under overload a class's queue grows to its bound, after which its arrivals are rejected
 * ({@link Rejection#QUEUE_FULL}), and a request that waits longer than its class's queue timeout is
 * expired by {@link #expireOverdue}; both become 503-type faults upstream. Other classes keep their
 * shares.
 */
public final class QueueManager {
    private static final Logger LOG = LoggerFactory.getLogger(QueueManager.class);

    private final int classCount;
    private final int[] classQueue;
    /** Per class, the index of its pool. */
    private final int[] classPool;
    private final int[] queueBound;
    private final QueueTimeouts timeouts;
    private final ClassQueue[] queues;
    private final int[][] poolQueues;
    private final ServerSlots[] servers;
    private final int[][] poolServers;
    private final ClassSelector selector;
    /** Which pool each server serves now, and the moves on probation ({@link PoolAssignment}). */
    private final PoolAssignment assignment;

    /** The server each admitted request goes to, by its pool's policy. */
    private final ServerPicker picker;
    private final LocalCaps localCaps;
    private final SurgeShares surge;
    private final LongSupplier nanoClock;
    private final boolean perClassQueues;

    private final AtomicIntegerArray waiting;
    private final AtomicIntegerArray executing;
    private final AtomicInteger wip = new AtomicInteger();
    private volatile Allocation allocation;
    /** Per server, the last cap above 0 an allocation gave it (guarded by this): its share before an outage. */
    private final int[] lastPositiveCap;
    private volatile Runnable rotationListener = () -> { };
    private final String[] serverKeys;
    /** The scheduler of the configuration that replaced this one, woken by every slot freed here; or null. */
    private volatile Runnable slotFreed;

    // Touched only inside the serialized scheduling loop.
    private final boolean[][] scratchBacklogged;
    private final int[][] scratchExecuting;

    private QueueManager(SlagateConfig config, SchedulerMode mode, Allocation initial, LongSupplier nanoClock,
                         Map<String, AtomicInteger> inherited) {
        this.nanoClock = nanoClock;
        QueueLayout layout = new QueueLayout(config, mode, inherited);
        classCount = layout.classCount;
        servers = layout.servers;
        serverKeys = layout.serverKeys;
        poolServers = layout.poolServers;
        assignment = new PoolAssignment(servers, layout.servingPool, layout.poolNames, poolServers, this::poolsMoved);
        picker = new ServerPicker(this, config, servers, layout.poolNames, poolServers, assignment);
        perClassQueues = mode != SchedulerMode.FCFS;
        localCaps = new LocalCaps(servers.length);
        surge = new SurgeShares(classCount, perClassQueues);
        classQueue = layout.classQueue;
        classPool = layout.classPool;
        queueBound = layout.queueBound;
        queues = layout.queues;
        poolQueues = layout.poolQueues;
        timeouts = new QueueTimeouts(layout.configuredTimeoutNanos, classQueue, queues);
        int pools = layout.pools();
        selector = switch (mode) {
            case WRR -> new WeightedRoundRobinSelector(classCount);
            case PRIORITY -> new PrioritySelector();
            case FCFS -> ClassSelector.FIRST_BACKLOGGED;
        };
        waiting = new AtomicIntegerArray(classCount);
        executing = new AtomicIntegerArray(classCount);
        scratchBacklogged = new boolean[pools][];
        scratchExecuting = new int[pools][];
        for (int p = 0; p < pools; p++) {
            scratchBacklogged[p] = new boolean[poolQueues[p].length];
            scratchExecuting[p] = new int[poolQueues[p].length];
        }
        checkShape(initial);
        this.allocation = initial;
        lastPositiveCap = initial.caps();
    }

    /** Movable servers changed pools: the locality mappings follow, and waiting requests may go to them. */
    private void poolsMoved() {
        picker.remapAll();
        wake();
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

    /** Whether server {@code s} serves pool {@code p} now. */
    private boolean serves(int s, int p) {
        return assignment.serves(s, p);
    }

    /** The pools movable servers serve now, by server id and pool name (from the allocation); see {@link PoolAssignment#assign}. */
    public void assignPools(Map<String, String> serverPools) {
        assignment.assign(serverPools);
    }

    /** Server {@code s} answered a request of class {@code c} with {@code status}; see {@link PoolAssignment#answered}. */
    public void answered(int s, int c, int status) {
        assignment.answered(s, classPool[c], status);
    }

    /** The pool server {@code s} refused to serve, while the manager has not reverted the move (else null). */
    public String refusedPool(int s) {
        return assignment.refusedPool(s);
    }

    /** The pool server {@code s} serves now. */
    public String servingPool(int s) {
        return assignment.servingPool(s);
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
        if (waiting.incrementAndGet(c) > queueBound[c]) {
            waiting.decrementAndGet(c);
            return Rejection.QUEUE_FULL;
        }
        r.expiresAt(r.enqueuedNanos() + timeouts.nanos(c));
        if (!queues[classQueue[c]].add(r)) {
            waiting.decrementAndGet(c);
            return Rejection.QUEUE_FULL; // its customer's lane is full; the class's other customers still queue
        }
        schedule();
        return null;
    }

    /** Frees the slot a request held on {@code server} and schedules the next one. */
    public void release(ServerSlots server, int classIndex) {
        server.release();
        executing.decrementAndGet(classIndex);
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
        Allocation a = allocation;
        int pool = assignment.pool(failed.index());
        for (int s : poolServers[pool]) {
            ServerSlots other = servers[s];
            boolean alreadyTried = s < 64 && (tried & (1L << s)) != 0;
            if (other != failed && serves(s, pool) && !alreadyTried && other.inRotation() && other.tryAcquire(cap(a, s))) {
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
                waiting.decrementAndGet(r.classIndex());
                try {
                    r.onExpired();
                } catch (RuntimeException e) {
                    LOG.error("expiring a request of class {} failed", r.classIndex(), e);
                }
            });
        }
        return n;
    }

    /**
     * The queue timeouts from now on (the queueTimeout knob, set by the manager); see {@link QueueTimeouts#set}.
     *
     * @return the timeouts in force before, per class (for the caller's log of what changed)
     */
    public long[] setQueueTimeouts(long[] nanos) {
        return timeouts.set(nanos, nanoClock);
    }

    /** Class {@code c}'s queue timeout in force, nanoseconds. */
    public long queueTimeoutNanos(int c) {
        return timeouts.nanos(c);
    }

    /** Swaps in a new allocation; never blocks, never drops a request. */
    public void setAllocation(Allocation next) {
        checkShape(next);
        synchronized (lastPositiveCap) {
            for (int s = 0; s < lastPositiveCap.length; s++) {
                if (next.caps()[s] > 0) {
                    lastPositiveCap[s] = next.caps()[s];
                }
            }
            allocation = next;
        }
        schedule();
    }

    /** Runs after a server leaves or rejoins the rotation (the gateway reports at once, so the controller knows). */
    public void onRotationChange(Runnable listener) {
        rotationListener = listener;
    }

    public Allocation allocation() {
        return allocation;
    }

    /** Takes a server out of rotation (its slots are not offered) or brings it back. */
    public void setInRotation(int serverIndex, boolean inRotation) {
        servers[serverIndex].setInRotation(inRotation);
        picker.remap(servers[serverIndex].pool()); // its groups go to the servers left (or it takes one back) at once
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
        synchronized (lastPositiveCap) {
            Allocation a = allocation;
            if (a.caps()[s] == 0 && lastPositiveCap[s] > 0) {
                int[] caps = a.caps();
                caps[s] = lastPositiveCap[s];
                allocation = new Allocation(a.version(), a.weights(), caps);
                LOG.info("server {} back in rotation: its cap is {} again (its share before the outage) until the next allocation",
                        servers[s].id(), caps[s]);
            }
        }
    }

    /** The learner of the class's pool when that pool dispatches by request type, else null. */
    public LocalityLearner learner(int classIndex) {
        return picker.learner(queues[classQueue[classIndex]].pool);
    }

    /** Recomputes every locality pool's mapping from what was observed since the last time (the gateway's timer). */
    public void remapLocality() {
        picker.remapAll();
    }

    /** Under locality dispatch, the request types mapped to server {@code s} and their share of its pool's requests; else null. */
    public String localityGroupOf(int s) {
        return picker.localityGroupOf(s);
    }

    /** Per pool dispatching by request type: its policy and mapping, for {@code /stats}. */
    public List<Map<String, Object>> localityStats() {
        return picker.localityStats();
    }

    /** Whether the class's pool has at least one server in rotation. */
    public boolean poolAvailable(int classIndex) {
        int p = queues[classQueue[classIndex]].pool;
        for (int s : poolServers[p]) {
            if (serves(s, p) && servers[s].inRotation()) {
                return true;
            }
        }
        return false;
    }

    /** N_{g,s} in force: the allocation's, or less while a local limit holds the server. */
    int cap(Allocation a, int s) {
        return localCaps.cap(a, s);
    }

    /** The cap in force for server {@code s} here (the allocation's, or a local limit's below it). */
    public int effectiveCap(int s) {
        return cap(allocation, s);
    }

    /** Holds server {@code s} to {@code cap} slots here (below the allocation's), or lifts that with −1; wakes the queues when raised. */
    public void limitLocally(int s, int cap) {
        if (localCaps.limit(s, cap)) {
            wake(); // slots given back: waiting requests may go now
        }
    }

    /** Customers with a lane in the class's queue (those waiting, and idle ones until the next sweep). */
    int customers(int classIndex) {
        return queues[classIndex].customers();
    }

    public int waiting(int classIndex) {
        return waiting.get(classIndex);
    }

    public int executing(int classIndex) {
        return executing.get(classIndex);
    }

    public int executingTotal() {
        int n = 0;
        for (int c = 0; c < classCount; c++) {
            n += executing.get(c);
        }
        return n;
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
        if (wip.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            try {
                schedulePass();
            } catch (RuntimeException e) {
                LOG.error("scheduling pass failed; continuing", e);
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    private void schedulePass() {
        Allocation a = allocation;
        for (int p = 0; p < poolQueues.length; p++) {
            int[] qs = poolQueues[p];
            boolean[] backlogged = scratchBacklogged[p];
            int[] exec = scratchExecuting[p];
            while (true) {
                ServerSlots server = picker.pick(p, a);
                if (server == null) {
                    break;
                }
                boolean any = false;
                for (int i = 0; i < qs.length; i++) {
                    backlogged[i] = queues[qs[i]].backlogged();
                    any |= backlogged[i];
                    exec[i] = perClassQueues ? executing.get(qs[i]) : 0;
                }
                if (!any) {
                    break;
                }
                int capacity = capacity(p, a);
                int i = selector.select(qs, backlogged, exec, a, capacity);
                while (i >= 0 && surge.overShare(qs, i, exec, a, capacity)) {
                    backlogged[i] = false; // a surging class at its share: the slot waits for another class
                    i = selector.select(qs, backlogged, exec, a, capacity);
                }
                if (i < 0) {
                    break;
                }
                if (!server.tryAcquire(a.cap(server.index()))) {
                    continue; // a retry took the slot since pickServer looked; pick again
                }
                QueuedRequest r = queues[qs[i]].pollForAdmission();
                if (r == null) {
                    server.release(); // the sweeper expired it meanwhile
                    continue;
                }
                if (r.requestType() >= 0 && picker.byRequestType(p)) {
                    server = picker.byRequestType(p, r.requestType(), server, a);
                }
                waiting.decrementAndGet(r.classIndex());
                executing.incrementAndGet(r.classIndex());
                try {
                    r.onAdmitted(server);
                } catch (RuntimeException e) {
                    LOG.error("admitting a request of class {} failed", r.classIndex(), e);
                }
            }
        }
    }

    /**
     * While {@code on}, class {@code c} (a surging one) gets no more concurrent slots than its share of the allocation
     * in force, even when the other classes leave theirs idle (see {@link SurgeShares}).
     */
    public void protectAgainst(int c, boolean on) {
        surge.protect(c, on);
        if (!on) {
            wake(); // slots it may take again
        }
    }

    private int capacity(int pool, Allocation a) {
        int n = 0;
        for (int s : poolServers[pool]) {
            if (serves(s, pool) && servers[s].inRotation()) {
                n += cap(a, s);
            }
        }
        return n;
    }

    private void checkShape(Allocation a) {
        if (a.classCount() != classCount || a.serverCount() != servers.length) {
            throw new IllegalArgumentException("allocation for " + a.classCount() + " classes and " + a.serverCount()
                    + " servers, but the gateway has " + classCount + " and " + servers.length);
        }
    }
}
