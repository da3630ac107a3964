package io.slagate.gateway.sched;

import io.slagate.config.SlagateConfig;
import io.slagate.gateway.locality.LocalityLearner;
import java.util.List;
import java.util.Map;

/**
 * Which servers serve which pool now, and how a pool picks among them: the pools movable servers were moved to (and
 * the moves a server refused), each pool's load-balancing policy with its locality mapping, and what of a pool is
 * available. The queue manager asks it on admission; the control plane and {@code /stats} read it.
 */
public final class PoolTopology {
    private final ServerSlots[] servers;
    private final int[][] poolServers;
    /** Per class, the pool its queue belongs to. */
    private final int[] classPool;
    private final CapTable caps;
    private final PoolAssignment assignment;
    private final ServerPicker picker;

    /** @param moved runs after movable servers changed pools (waiting requests may go to them) */
    PoolTopology(QueueLayout layout, SlagateConfig config, int[] classPool, CapTable caps, Runnable moved) {
        this.servers = layout.servers;
        this.poolServers = layout.poolServers;
        this.classPool = classPool;
        this.caps = caps;
        this.assignment = new PoolAssignment(servers, layout.servingPool, layout.poolNames, poolServers, () -> {
            remapLocality();
            moved.run();
        });
        this.picker = new ServerPicker(caps, config, servers, layout.poolNames, poolServers, assignment);
    }

    /** The pools movable servers serve now, by server id and pool name (from the allocation); see {@link PoolAssignment#assign}. */
    public void assignPools(Map<String, String> serverPools) {
        assignment.assign(serverPools);
    }

    /** The pool server {@code s} refused to serve, while the manager has not reverted the move (else null). */
    public String refusedPool(int s) {
        return assignment.refusedPool(s);
    }

    /** The pool server {@code s} serves now. */
    public String servingPool(int s) {
        return assignment.servingPool(s);
    }

    /** The learner of the class's pool when that pool dispatches by request type, else null. */
    public LocalityLearner learner(int classIndex) {
        return picker.learner(classPool[classIndex]);
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
        int p = classPool[classIndex];
        for (int s : poolServers[p]) {
            if (assignment.serves(s, p) && servers[s].inRotation()) {
                return true;
            }
        }
        return false;
    }

    boolean serves(int s, int p) {
        return assignment.serves(s, p);
    }

    int pool(int s) {
        return assignment.pool(s);
    }

    int[] serversOf(int pool) {
        return poolServers[pool];
    }

    /** Server {@code s} answered a request of pool {@code pool} with {@code status}; see {@link PoolAssignment#answered}. */
    void answered(int s, int pool, int status) {
        assignment.answered(s, pool, status);
    }

    /** Server {@code s} left or rejoined the rotation: its pool's groups go to the servers left (or it takes one back). */
    void rotationChanged(int s) {
        picker.remap(servers[s].pool());
    }

    ServerSlots pick(int pool, Allocation a) {
        return picker.pick(pool, a);
    }

    /** The server for an admitted request of type {@code type} where its pool dispatches by request type, else {@code reserved}. */
    ServerSlots byRequestType(int pool, int type, ServerSlots reserved, Allocation a) {
        return type >= 0 && picker.byRequestType(pool) ? picker.byRequestType(pool, type, reserved, a) : reserved;
    }

    /** The slots of the pool's servers in rotation under {@code a}. */
    int capacity(int pool, Allocation a) {
        int n = 0;
        for (int s : poolServers[pool]) {
            if (assignment.serves(s, pool) && servers[s].inRotation()) {
                n += caps.cap(a, s);
            }
        }
        return n;
    }
}
