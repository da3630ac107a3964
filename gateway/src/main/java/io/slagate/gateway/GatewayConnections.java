package io.slagate.gateway;

import io.slagate.gateway.stats.GatewayMetrics;

/**
 * A gateway's data-plane connections, read as of now: the client listener's event loops and open connections, and
 * each server's upstream connections on the pooled leg (reuse, quiet checks, hand-outs between loops).
 */
public final class GatewayConnections {
    private final Gateway g;

    GatewayConnections(Gateway g) {
        this.g = g;
    }

    /** Whether this gateway reuses its connections to server {@code i} (it does once the server proved it speaks only when asked). */
    public boolean reusesConnections(int i) {
        return g.current.proxy().reusesConnections(i);
    }

    /** The client listener's event loops. */
    public int loops() {
        return g.gatewayConnector.loops();
    }

    /** Requests handed to another event loop than the thread's own (admitted by another loop's completion, or by the controller). */
    public long crossLoopTasks() {
        return g.gatewayConnector.crossLoopTasks();
    }

    /** Server {@code i}'s connection counters, or null for a server not on the direct leg (https, JMS). */
    public GatewayMetrics.UpstreamConnections upstreamConnections(int i) {
        return g.current.proxy().upstreamConnections(i);
    }

    /** Connections to server {@code i} given to an exchange of another loop than their own: 0 unless the design is broken. */
    public long crossLoopHandOuts(int i) {
        return g.current.proxy().crossLoopHandOuts(i);
    }

    /** Quiet checks started on connections to server {@code i}; each took one connection out of its pool for a while. */
    public long quietChecks(int i) {
        return g.current.proxy().quietChecks(i);
    }

    /** Client connections the gateway listener holds open now. */
    public int connectedEndPoints() {
        return g.gatewayConnector.getConnectedEndPoints().size();
    }
}
