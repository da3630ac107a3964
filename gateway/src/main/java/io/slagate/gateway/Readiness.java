package io.slagate.gateway;

import io.slagate.gateway.sched.QueueManager;

/**
 * Whether a gateway should get traffic ({@code /ready}), and why not: refused by the control plane
 * (for good), waiting for its share of the servers, not started, or no server in rotation.
 */
final class Readiness {
    /** Set when the control plane refused the gateway: it stays out of rotation. */
    private volatile String refused;
    /** Why a gateway with a control bus is not ready yet (no allocation in force), or null. */
    private volatile String awaiting;

    void refused(String reason) {
        refused = reason;
    }

    void awaiting(String reason) {
        awaiting = reason;
    }

    /** Why the gateway is not ready, or null when it is. */
    String reason(boolean started, QueueManager queues) {
        if (refused != null) {
            return refused;
        }
        if (awaiting != null) {
            return awaiting;
        }
        if (!started || queues == null) {
            return "not started";
        }
        for (int s = 0; s < queues.serverCount(); s++) {
            if (queues.server(s).inRotation()) {
                return null;
            }
        }
        return "no server in rotation";
    }
}
