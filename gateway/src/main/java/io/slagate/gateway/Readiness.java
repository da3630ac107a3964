package io.slagate.gateway;

import io.slagate.gateway.sched.QueueManager;
import java.util.function.Supplier;

/**
 * Whether a gateway should get traffic ({@code /ready}), and why not: refused by the control plane
 * (for good), waiting for its share of the servers, not started, or no server in rotation.
 */
public final class Readiness {
    private final Supplier<QueueManager> queues;
    private volatile boolean started;
    /** Set when the control plane refused the gateway: it stays out of rotation. */
    private volatile String refused;
    /** Why a gateway with a control bus is not ready yet (no allocation in force), or null. */
    private volatile String awaiting;

    Readiness(Supplier<QueueManager> queues) {
        this.queues = queues;
    }

    /** The gateway started (its listeners accept) or began to stop. */
    void started(boolean on) {
        started = on;
    }

    /**
     * Takes the gateway out of rotation for good: {@code /ready} answers 503 with the reason from now
     * on (the control plane refused it; a load balancer must not send it traffic on its static caps).
     */
    public void refused(String reason) {
        refused = reason;
    }

    /** Not ready until {@link #allocationInForce}: a gateway waiting for its share of the servers says so on {@code /ready}. */
    public void awaitAllocation(String reason) {
        awaiting = reason;
    }

    /** An allocation is in force (given by a manager, or the static one chosen when none was heard): ready as far as that goes. */
    public void allocationInForce() {
        awaiting = null;
    }

    /** Why the gateway is not ready, or null when it is. */
    public String reason() {
        if (refused != null) {
            return refused;
        }
        if (awaiting != null) {
            return awaiting;
        }
        QueueManager q = queues.get();
        if (!started || q == null) {
            return "not started";
        }
        for (int s = 0; s < q.serverCount(); s++) {
            if (q.server(s).inRotation()) {
                return null;
            }
        }
        return "no server in rotation";
    }
}
