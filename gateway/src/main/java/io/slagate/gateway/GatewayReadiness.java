package io.slagate.gateway;

/**
 * Whether a gateway is ready for traffic ({@code /ready}): started, its allocation in force, not refused by the
 * control plane; and the control plane's say in it.
 */
public final class GatewayReadiness {
    private final Gateway g;

    GatewayReadiness(Gateway g) {
        this.g = g;
    }

    /**
     * Takes the gateway out of rotation for good: {@code /ready} answers 503 with the reason from now
     * on (the control plane refused it; a load balancer must not send it traffic on its static caps).
     */
    public void notReady(String reason) {
        g.readiness.refused(reason);
    }

    /** Not ready until {@link #allocationInForce}: a gateway waiting for its share of the servers says so on {@code /ready}. */
    public void awaitAllocation(String reason) {
        g.readiness.awaiting(reason);
    }

    /** An allocation is in force (given by a manager, or the static one chosen when none was heard): ready as far as that goes. */
    public void allocationInForce() {
        g.readiness.awaiting(null);
    }

    /** Why the gateway is not ready, or null when it is. */
    public String notReadyReason() {
        Gateway.Generation gen = g.current;
        return g.readiness.reason(g.started, gen == null ? null : gen.queues());
    }

    public boolean isReady() {
        return notReadyReason() == null;
    }
}
