package io.slagate.gateway.stats;

import io.micrometer.core.instrument.Counter;
import io.slagate.gateway.soap.FaultReason;

/**
 * What a gateway has counted so far: requests arrived, completed and faulted (by class, reason and server), and those
 * in flight; read as of now from its metrics (the admin endpoint, the drain and the tests ask here).
 */
public final class GatewayCounts {
    private final GatewayMetrics m;

    GatewayCounts(GatewayMetrics m) {
        this.m = m;
    }

    /** Failed exchanges of one kind charged to a server so far. */
    public long serverErrors(int serverIndex, GatewayMetrics.ServerError kind) {
        return (long) m.serverErrors[serverIndex][kind.ordinal()].count();
    }

    public int inFlight() {
        return m.inFlight.get();
    }

    /** Requests of this configuration accepted and not yet answered (the gateway's total is {@link #inFlight}). */
    public long ownInFlight() {
        // answered first: a request answered between the two reads cannot make it look drained
        long answered = m.ownAnswered.sum();
        return m.ownArrived.sum() - answered;
    }

    /** Requests of class {@code c} received so far (by this configuration's metrics). */
    public long arrivedCount(int c) {
        return (long) m.arrivals[c].count();
    }

    public long arrivedTotal() {
        return m.totals.arrived.sum();
    }

    public long completedTotal() {
        return m.totals.completed.sum();
    }

    public long faultedTotal() {
        return m.totals.faulted.sum();
    }

    public long faulted(FaultReason reason) {
        long n = 0;
        for (Counter[] row : m.faults) {
            n += (long) row[reason.ordinal()].count();
        }
        return n;
    }

    public long completed(int c) {
        return (long) m.completions[c].count();
    }
}
