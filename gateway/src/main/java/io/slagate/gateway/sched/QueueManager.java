package io.slagate.gateway.sched;

import io.slagate.config.LoadBalancing;
import io.slagate.config.SchedulerMode;
import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.gateway.locality.LardChooser;
import io.slagate.gateway.locality.LocalityChooser;
import io.slagate.gateway.locality.LocalityLearner;
import io.slagate.gateway.locality.LocalityMap;
import io.slagate.gateway.locality.ServerChooser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.LongSupplier;

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
    private final long[] configuredTimeoutNanos;
    /** The queue timeout in force per class: the configured one, or the manager's (the knob). Replaced whole. */
    private volatile long[] queueTimeoutNanos;
    private final ClassQueue[] queues;
    private final int[][] poolQueues;
    private final ServerSlots[] servers;
    private final int[][] poolServers;
    private final ClassSelector selector;
    /** Which pool each server serves now, and the moves on probation ({@link PoolAssignment}). */
    private final PoolAssignment assignment;

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

    /** Per pool: its load-balancing policy, and for the policies by request type its learner and chooser (else null). */
    private final LoadBalancing[] poolPolicy;
    private final LocalityLearner[] poolLearner;
    private final ServerChooser[] poolChooser;
    private final String[] poolNames;
    private final ServerChooser.ServerLoad serverLoad = new ServerChooser.ServerLoad() {
        @Override
        public boolean available(int s) {
            return servers[s].inRotation() && servers[s].outstanding() < QueueManager.this.cap(allocation, s);
        }

        @Override
        public boolean inRotation(int s) {
            return servers[s].inRotation();
        }

        @Override
        public int outstanding(int s) {
            return servers[s].outstanding();
        }

        @Override
        public int cap(int s) {
            return QueueManager.this.cap(allocation, s);
        }
    };
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
    private final int[] roundRobinCursor;
    private final boolean[][] scratchBacklogged;
    private final int[][] scratchExecuting;

    private QueueManager(SlagateConfig config, SchedulerMode mode, Allocation initial, LongSupplier nanoClock,
                         Map<String, AtomicInteger> inherited) {
        this.nanoClock = nanoClock;
        List<TrafficClassConfig> classes = config.classes();
        this.classCount = classes.size();
        Map<String, Integer> poolIndex = new LinkedHashMap<>();
        for (ServerConfig s : config.servers()) {
            poolIndex.putIfAbsent(s.pool(), poolIndex.size());
        }
        int pools = poolIndex.size();

        servers = new ServerSlots[config.servers().size()];
        serverKeys = config.servers().stream().map(QueueManager::serverKey).toArray(String[]::new);
        List<List<Integer>> serversOfPool = lists(pools);
        for (int i = 0; i < servers.length; i++) {
            ServerConfig s = config.servers().get(i);
            int p = poolIndex.get(s.pool());
            servers[i] = new ServerSlots(i, s.id(), p, inherited.getOrDefault(serverKey(s), new AtomicInteger()));
            serversOfPool.get(p).add(i);
        }
        int[] servingPool = new int[servers.length];
        for (int i = 0; i < servers.length; i++) {
            ServerConfig s = config.servers().get(i);
            servingPool[i] = poolIndex.get(s.pool());
            for (String other : s.pools()) { // a movable server is a candidate in every pool it may serve
                Integer q = poolIndex.get(other);
                if (q != null && q != servingPool[i]) {
                    serversOfPool.get(q).add(i);
                }
            }
        }
        poolServers = toArrays(serversOfPool);
        poolNames = poolIndex.keySet().toArray(String[]::new);
        assignment = new PoolAssignment(servers, servingPool, poolNames, poolServers, () -> {
            remapLocality();
            wake();
        });
        poolPolicy = new LoadBalancing[pools];
        poolLearner = new LocalityLearner[pools];
        poolChooser = new ServerChooser[pools];
        String[] ids = config.servers().stream().map(ServerConfig::id).toArray(String[]::new);
        for (int p = 0; p < pools; p++) {
            poolPolicy[p] = config.gateway().loadBalancing(poolNames[p]);
            if (poolPolicy[p].byRequestType()) {
                poolLearner[p] = new LocalityLearner(poolNames[p], poolServers[p], ids,
                        config.gateway().locality().epsilon());
                poolChooser[p] = poolPolicy[p] == LoadBalancing.LOCALITY
                        ? new LocalityChooser(poolLearner[p])
                        : new LardChooser(poolLearner[p], ids);
            }
        }

        perClassQueues = mode != SchedulerMode.FCFS;
        classQueue = new int[classCount];
        classPool = new int[classCount];
        queueBound = new int[classCount];
        configuredTimeoutNanos = new long[classCount];
        List<ClassQueue> qs = new ArrayList<>();
        List<List<Integer>> queuesOfPool = lists(pools);
        Map<Integer, Integer> sharedQueueOfPool = new LinkedHashMap<>();
        for (int c = 0; c < classCount; c++) {
            TrafficClassConfig tc = classes.get(c);
            int p = poolIndex.get(tc.pool());
            classPool[c] = p;
            queueBound[c] = tc.queueBound();
            configuredTimeoutNanos[c] = tc.queueTimeout().toNanos();
            if (perClassQueues) {
                classQueue[c] = qs.size();
                qs.add(new ClassQueue(p, tc.deadline() == null, tc.fairByCustomer(), tc.customerQueueBound()));
                queuesOfPool.get(p).add(classQueue[c]);
            } else {
                Integer q = sharedQueueOfPool.get(p);
                if (q == null) {
                    q = qs.size();
                    qs.add(new ClassQueue(p, sameTimeout(classes, tc.pool())));
                    sharedQueueOfPool.put(p, q);
                    queuesOfPool.get(p).add(q);
                }
                classQueue[c] = q;
            }
        }
        queues = qs.toArray(ClassQueue[]::new);
        queueTimeoutNanos = configuredTimeoutNanos.clone();
        poolQueues = toArrays(queuesOfPool);
        selector = switch (mode) {
            case WRR -> new WeightedRoundRobinSelector(classCount);
            case PRIORITY -> new PrioritySelector();
            case FCFS -> ClassSelector.FIRST_BACKLOGGED;
        };
        waiting = new AtomicIntegerArray(classCount);
        executing = new AtomicIntegerArray(classCount);
        roundRobinCursor = new int[pools];
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

    public static QueueManager create(SlagateConfig config, Allocation initial, LongSupplier nanoClock) {
        return new QueueManager(config, config.gateway().scheduler(), initial, nanoClock, Map.of());
    }

    /**
     * A queue manager for a configuration that replaces {@code previous}'s at run time: a server
     * both have (same id and URL) shares its outstanding count, so that N_{g,s} bounds the requests
     * of both while the previous one finishes. {@link #succeededBy} links them once it takes over.
     */
    public static QueueManager succeeding(QueueManager previous, SlagateConfig config, Allocation initial, LongSupplier nanoClock) {
        Map<String, AtomicInteger> counters = new java.util.HashMap<>();
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

    private void wake() {
        schedule();
        Runnable successor = slotFreed;
        if (successor != null) {
            successor.run();
        }
    }

    private static String serverKey(ServerConfig s) {
        return s.id() + " " + s.url();
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
        r.expiresAt(r.enqueuedNanos() + queueTimeoutNanos[c]);
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
     * The queue timeouts from now on (the queueTimeout knob, set by the manager): {@code nanos[c]} for class c, or
     * its configured timeout where {@code nanos[c]} ≤ 0. Requests already waiting keep the deadline they were given;
     * the sweep scans a changed class's whole queue until the longest old timeout has passed, since deadlines are then
     * out of queue order. Called by one thread (the bus listener, under the gateway's lock).
     *
     * @return the timeouts in force before, per class (for the caller's log of what changed)
     */
    public long[] setQueueTimeouts(long[] nanos) {
        if (nanos.length != classCount) {
            throw new IllegalArgumentException("one timeout per class: " + nanos.length + " for " + classCount);
        }
        long[] before = queueTimeoutNanos;
        long[] next = new long[classCount];
        for (int c = 0; c < classCount; c++) {
            next[c] = nanos[c] > 0 ? nanos[c] : configuredTimeoutNanos[c];
        }
        if (java.util.Arrays.equals(before, next)) {
            return before;
        }
        queueTimeoutNanos = next;
        long now = nanoClock.getAsLong();
        for (int q = 0; q < queues.length; q++) {
            long longestOld = -1;
            long first = -1;
            boolean mixed = false;
            for (int c = 0; c < classCount; c++) {
                if (classQueue[c] != q) {
                    continue;
                }
                if (before[c] != next[c]) {
                    longestOld = Math.max(longestOld, before[c]);
                }
                mixed |= first >= 0 && first != next[c];
                first = next[c];
            }
            if (longestOld >= 0) {
                queues[q].timeoutChanged(now, longestOld, mixed);
            }
        }
        return before;
    }

    /** Class {@code c}'s queue timeout in force, nanoseconds. */
    public long queueTimeoutNanos(int c) {
        return queueTimeoutNanos[c];
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
        LocalityLearner learner = poolLearner[servers[serverIndex].pool()];
        if (learner != null) {
            remap(learner); // its groups go to the servers left (or it takes one back) at once, not at the next interval
        }
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
        return poolLearner[queues[classQueue[classIndex]].pool];
    }

    /** Recomputes every locality pool's mapping from what was observed since the last time (the gateway's timer). */
    public void remapLocality() {
        for (LocalityLearner l : poolLearner) {
            if (l != null) {
                remap(l);
            }
        }
    }

    private void remap(LocalityLearner l) {
        try {
            l.remap(s -> servers[s].inRotation(), s -> Math.max(1, cap(allocation, s)));
        } catch (RuntimeException e) {
            LOG.error("locality remap failed; the previous mapping stays", e);
        }
    }

    /** Under locality dispatch, the request types mapped to server {@code s} and their share of its pool's requests; else null. */
    public String localityGroupOf(int s) {
        int p = servers[s].pool();
        if (poolPolicy[p] != LoadBalancing.LOCALITY) {
            return null;
        }
        for (LocalityMap.Group g : poolLearner[p].map().groups()) {
            if (servers[s].id().equals(g.server())) {
                return String.join(", ", g.types()) + String.format(java.util.Locale.ROOT, " (%.0f%% of the pool's requests)",
                        100 * g.loadShare());
            }
        }
        return "no group (spill only)";
    }

    /** Per pool dispatching by request type: its policy and mapping, for {@code /stats}. */
    public List<Map<String, Object>> localityStats() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (int p = 0; p < poolLearner.length; p++) {
            if (poolLearner[p] != null) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("policy", poolPolicy[p].configName());
                m.putAll(poolLearner[p].describe());
                if (poolPolicy[p] != LoadBalancing.LOCALITY) {
                    m.remove("groups");
                }
                out.add(m);
            }
        }
        return out;
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

    /** Per server, the cap a local limit holds it to (Integer.MAX_VALUE: none); replaced whole, read on admission. */
    private volatile int[] localCaps;

    /** N_{g,s} in force: the allocation's, or less while a local limit holds the server. */
    private int cap(Allocation a, int s) {
        int[] local = localCaps;
        return local == null ? a.cap(s) : Math.min(a.cap(s), local[s]);
    }

    /** The cap in force for server {@code s} here (the allocation's, or a local limit's below it). */
    public int effectiveCap(int s) {
        return cap(allocation, s);
    }

    /** Holds server {@code s} to {@code cap} slots here (below the allocation's), or lifts that with −1; wakes the queues when raised. */
    public void limitLocally(int s, int cap) {
        int[] before = localCaps;
        int old = before == null ? Integer.MAX_VALUE : before[s];
        int value = cap < 0 ? Integer.MAX_VALUE : cap;
        if (old == value) {
            return;
        }
        int[] next = before == null ? filled(servers.length) : before.clone();
        next[s] = value;
        localCaps = next;
        if (value > old) {
            wake(); // slots given back: waiting requests may go now
        }
    }

    private static int[] filled(int n) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, Integer.MAX_VALUE);
        return a;
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
                ServerSlots server = pickServer(p, a);
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
                while (i >= 0 && overShare(qs, i, exec, a, capacity)) {
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
                if (poolChooser[p] != null && r.requestType() >= 0) {
                    server = byRequestType(p, r.requestType(), server, a);
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

    /** Per class, whether a flash crowd's protection caps it at its share; replaced whole. */
    private volatile boolean[] surging;

    /**
     * While {@code on}, class {@code c} (a surging one) gets no more concurrent slots than its share of the allocation
     * in force, ⌈N · w_c / Σw⌉ over its pool, even when the other classes leave theirs idle: their guaranteed slots are
     * not lent to the crowd, so their next requests find a slot at once. Not in FCFS mode (one queue per pool).
     */
    public void protectAgainst(int c, boolean on) {
        boolean[] next = surging == null ? new boolean[classCount] : surging.clone();
        next[c] = on;
        surging = next;
        if (!on) {
            wake(); // slots it may take again
        }
    }

    /** Whether class queue {@code qs[i]} is a surging class already at its share. */
    private boolean overShare(int[] qs, int i, int[] exec, Allocation a, int capacity) {
        boolean[] s = surging;
        if (s == null || !perClassQueues || !s[qs[i]]) {
            return false;
        }
        double total = 0;
        for (int q : qs) {
            total += a.weight(q);
        }
        int share = (int) Math.ceil(capacity * a.weight(qs[i]) / total - 1e-9);
        return exec[i] >= Math.max(1, share);
    }

    /** The server the pool's chooser prefers for the request type, when it has a free slot; else {@code reserved}, kept. */
    private ServerSlots byRequestType(int p, int type, ServerSlots reserved, Allocation a) {
        int s;
        try {
            s = poolChooser[p].choose(type, poolServers[p], serverLoad);
        } catch (RuntimeException e) {
            LOG.error("choosing a server by request type failed; least-outstanding instead", e);
            return reserved;
        }
        if (s < 0 || s == reserved.index() || !serves(s, p) || !servers[s].inRotation() || !servers[s].tryAcquire(cap(a, s))) {
            return reserved;
        }
        reserved.release();
        return servers[s];
    }

    private ServerSlots pickServer(int pool, Allocation a) {
        int[] ss = poolServers[pool];
        if (poolPolicy[pool] == LoadBalancing.ROUND_ROBIN) {
            for (int k = 0; k < ss.length; k++) {
                int idx = (roundRobinCursor[pool] + k) % ss.length;
                ServerSlots s = servers[ss[idx]];
                if (serves(s.index(), pool) && s.inRotation() && s.outstanding() < cap(a, s.index())) {
                    roundRobinCursor[pool] = (idx + 1) % ss.length;
                    return s;
                }
            }
            return null;
        }
        ServerSlots best = null;
        double bestLoad = Double.MAX_VALUE;
        for (int s : ss) {
            ServerSlots server = servers[s];
            int cap = cap(a, s);
            int out = server.outstanding();
            if (!serves(s, pool) || !server.inRotation() || out >= cap) {
                continue;
            }
            double load = (double) out / cap; // relative, so servers with larger caps take more
            if (load < bestLoad) {
                bestLoad = load;
                best = server;
            }
        }
        return best;
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

    private static boolean sameTimeout(List<TrafficClassConfig> classes, String pool) {
        return classes.stream().filter(c -> c.pool().equals(pool)).map(TrafficClassConfig::queueTimeout).distinct().count() <= 1
                && classes.stream().filter(c -> c.pool().equals(pool)).allMatch(c -> c.deadline() == null);
    }

    private static List<List<Integer>> lists(int n) {
        List<List<Integer>> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(new ArrayList<>());
        }
        return l;
    }

    private static int[][] toArrays(List<List<Integer>> lists) {
        int[][] out = new int[lists.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = lists.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        return out;
    }
}
