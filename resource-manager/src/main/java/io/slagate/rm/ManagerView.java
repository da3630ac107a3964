package io.slagate.rm;

import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.rm.tune.OnlineTuner;
import io.slagate.rm.tune.TuningPartition;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a resource manager shows of itself: its last decision and allocation, its counters, its pools' moves and its
 * tuners, read as of now from the manager's own parts (the console, the experiments and the tests ask here; the control
 * loop's own interface is starting, stopping and commanding it).
 */
public final class ManagerView {
    private final ControlLoop loop;

    ManagerView(ControlLoop loop) {
        this.loop = loop;
    }

    /** Bus messages this manager did not believe (unjoined or impersonated gateways, a full roster, implausible versions). */
    public long refusedMessages() {
        return loop.membership.refusedMessages();
    }

    /** Per flow, the forecaster in use and each one's recent one-cycle error, as of the last cycle. */
    public Map<String, String> forecastErrors() {
        return loop.forecastErrors;
    }

    /** Corrected response-time predictions so far that were not a positive number (counted, then floored). */
    public long predictionsOutOfRange() {
        return loop.rm.predictionsOutOfRange();
    }

    /** Cycles run at once for a detected change of a flow's load or response time (not on the timer). */
    public long changeCycles() {
        return loop.surges.changeCycles();
    }

    /** Cycles run at once for a flash crowd (not on the timer). */
    public long flashCrowdCycles() {
        return loop.surges.granted();
    }

    /** The servers the operator pinned to their pool. */
    public Set<String> poolPins() {
        return loop.poolMoves.pins();
    }

    /** Moves reverted because the server refused its new pool. */
    public long refusedMoves() {
        return loop.poolMoves.refusedMoves();
    }

    /** The first partition's safe and experimental side's utilities at the last cycle (NaN without tuning or traffic). */
    public double[] sideUtilities() {
        return loop.tuning.sideUtilities();
    }

    /** The first (or only) partition's tuner, or null when controller.tuning is not configured or before the first cycle. */
    public OnlineTuner tuner() {
        return loop.tuning.first();
    }

    /** The tuning partitions, in the configuration's order; empty before the first cycle. */
    public List<TuningPartition> tuningPartitions() {
        return loop.tuning.partitions();
    }

    /** Servers moved between pools since start. */
    public long poolMoves() {
        return loop.poolMoves.moves();
    }

    /** The pool each server serves now, by id. */
    public Map<String, String> serverPools() {
        return PoolMoves.serverPools(loop.config);
    }

    /** The last pool moves, oldest first. */
    public List<String> poolMoveLog() {
        return loop.poolMoves.log();
    }

    /** The automatic N_s of a server as of the last cycle, or -1 for a server without {@code concurrency: auto}. */
    public int concurrency(String server) {
        return loop.metrics.concurrency(server);
    }

    /**
     * The servers of the pool's mean size to add for every class to meet its goals, as of the last
     * cycle (−1: more servers would not help; NaN: no cycle has sized this pool yet).
     */
    public double capacityDeficitServers(String pool) {
        return loop.metrics.capacityDeficitServers(pool);
    }

    /** The last decision published, or null before the first. */
    public DecisionMessage lastDecision() {
        return loop.lastDecision;
    }

    /** The last allocation published, or null before the first. */
    public AllocationMessage lastAllocation() {
        return loop.lastAllocation;
    }

    /** Control cycles run since start (standing by included). */
    public long cycles() {
        return loop.cycles.get();
    }
}
