package io.slagate.gateway.sched;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which pool each server serves now: its configured pool at start, then where the resource
 * manager's allocations move it. A server that moves stops taking its old pool's requests at once,
 * finishes those it has (its slots count both, so N_s holds), and takes the new pool's as its slots
 * free; it is on probation there until it answers that pool's requests, and three "no such
 * service" answers in a row move it back at once (the manager is told through {@link #refusedPool}).
 */
final class PoolAssignment {
    private static final Logger LOG = LoggerFactory.getLogger(PoolAssignment.class);

    private final ServerSlots[] servers;
    private final String[] poolNames;
    /** Per pool, the servers that may serve it (its own, and movable servers that list it). */
    private final int[][] poolServers;
    /** Runs after a server changed pools: locality is remapped and the scheduler woken. */
    private final Runnable changed;
    /** Per server, the pool it serves now; replaced whole, under {@link #lock}. */
    private volatile int[] servingPool;
    /** Guards the replacement of {@link #servingPool} (the allocation's moves, and a refused move's revert). */
    private final Object lock = new Object();
    /** Per server, the move it is on probation for (null: none); read on every answer, so one volatile read when none. */
    private final AtomicReferenceArray<MoveProbation> probation;
    /** Per server, the pool it refused to serve (reported to the manager until its allocation no longer asks for it). */
    private final AtomicReferenceArray<String> refusedPool;

    PoolAssignment(ServerSlots[] servers, int[] servingPool, String[] poolNames, int[][] poolServers, Runnable changed) {
        this.servers = servers;
        this.servingPool = servingPool;
        this.poolNames = poolNames;
        this.poolServers = poolServers;
        this.changed = changed;
        this.probation = new AtomicReferenceArray<>(servers.length);
        this.refusedPool = new AtomicReferenceArray<>(servers.length);
    }

    boolean serves(int s, int p) {
        return servingPool[s] == p;
    }

    /** The index of the pool server {@code s} serves now. */
    int pool(int s) {
        return servingPool[s];
    }

    String servingPool(int s) {
        return poolNames[servingPool[s]];
    }

    String refusedPool(int s) {
        return refusedPool.get(s);
    }

    /** The pools movable servers serve now, by server id and pool name (from the allocation); unknown ones are ignored. */
    void assign(Map<String, String> serverPools) {
        if (serverPools == null || serverPools.isEmpty()) {
            return;
        }
        boolean moved = false;
        synchronized (lock) { // against a refused move's revert; the scheduler runs after, outside it
            int[] next = servingPool.clone();
            for (int s = 0; s < servers.length; s++) {
                String pool = serverPools.get(servers[s].id());
                int p = pool == null ? -1 : Arrays.asList(poolNames).indexOf(pool);
                if (p < 0) {
                    continue;
                }
                if (pool.equals(refusedPool.get(s))) {
                    continue; // refused here: the manager has not heard yet (it reverts the move once it has)
                }
                refusedPool.set(s, null); // the manager asks for another pool now: it has heard
                if (p != next[s] && candidateIn(s, p)) {
                    LOG.info("server {} now serves pool {} (was {}); on probation until it answers that pool's requests",
                            servers[s].id(), pool, poolNames[next[s]]);
                    probation.set(s, new MoveProbation(next[s], p));
                    next[s] = p;
                    moved = true;
                }
            }
            if (moved) {
                servingPool = next;
            }
        }
        if (moved) {
            changed.run();
        }
    }

    /**
     * Server {@code s} answered a request of pool {@code pool} with {@code status}: while it is on
     * probation in the pool it was just moved to, three "no such service" answers in a row move it
     * back; any other answer accepts the move.
     */
    void answered(int s, int pool, int status) {
        MoveProbation pr = probation.get(s);
        if (pr == null || pool != pr.to) {
            return;
        }
        switch (pr.answer(status)) {
            case ACCEPTED -> {
                probation.compareAndSet(s, pr, null);
                LOG.info("server {} serves pool {}: the move is accepted", servers[s].id(), poolNames[pr.to]);
            }
            case REFUSED -> {
                probation.compareAndSet(s, pr, null);
                refuseMove(s, pr);
            }
            default -> { }
        }
    }

    private void refuseMove(int s, MoveProbation pr) {
        synchronized (lock) {
            if (servingPool[s] != pr.to) {
                return; // moved again meanwhile
            }
            int[] next = servingPool.clone();
            next[s] = pr.from;
            refusedPool.set(s, poolNames[pr.to]);
            servingPool = next;
        }
        LOG.warn("server {} refused pool {}: {} answers in a row said it has no such service (404/405/410/501); back in "
                + "pool {}, and the resource manager is told", servers[s].id(), poolNames[pr.to], MoveProbation.REFUSALS,
                poolNames[pr.from]);
        changed.run();
    }

    private boolean candidateIn(int s, int p) {
        for (int x : poolServers[p]) {
            if (x == s) {
                return true;
            }
        }
        return false;
    }
}
