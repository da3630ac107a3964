package io.slagate.gateway.agent;

import io.slagate.config.SlagateConfig;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.sched.Allocation;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a gateway on a control bus admits before a resource manager gave it its share. The servers'
 * caps are split among the gateways (Σ_g N_{g,s} ≤ N_s, eq. 5–6), so a gateway that (re)starts or
 * joins beside others holding their shares admits {@code gateway.startupCaps} per server (none by
 * default: requests wait in their queues) and answers {@code /ready} 503 until its first
 * allocation, which the manager sends as soon as it hears the join. Only when no manager at all has been heard for
 * {@code gateway.managerTimeout} does it serve on the static allocation, and it says so in the log.
 */
final class StartupAdmission {
    private static final Logger LOG = LoggerFactory.getLogger(StartupAdmission.class);

    private final Gateway gateway;
    private final LongSupplier nanoClock;
    private final BooleanSupplier busAnswered;
    private final long timeoutNanos;
    private volatile long lastHeard;
    /** When the bus was first seen to have answered (the gateway's timer thread only). */
    private long answeredAt = Long.MIN_VALUE;
    /** Waiting for the first allocation: until a manager's arrives, or the static one is chosen. */
    private volatile boolean waiting;

    /**
     * @param busAnswered whether the static allocation may be chosen at all: the bus accepted the
     *                    credentials or could not be reached (not while a refusal may still come)
     */
    StartupAdmission(Gateway gateway, LongSupplier nanoClock, BooleanSupplier busAnswered) {
        this.gateway = gateway;
        this.nanoClock = nanoClock;
        this.busAnswered = busAnswered;
        SlagateConfig config = gateway.config();
        this.timeoutNanos = config.gateway().startup().managerTimeout(config.controller().cycle()).toNanos();
        this.lastHeard = nanoClock.getAsLong();
        synchronized (gateway) {
            if (gateway.queues().caps().allocation().version() == 0) {
                waiting = true;
                gateway.setAllocation(startupAllocation(config));
                int caps = config.gateway().startup().caps();
                gateway.readiness().awaitAllocation("waiting for the first allocation from a resource manager (" + (caps == 0
                        ? "requests wait in their queues for it)" : "serving at most " + caps + " request(s) per server meanwhile)"));
            }
        }
    }

    /** The static weights, with at most {@code startupCaps} slots per server. */
    static Allocation startupAllocation(SlagateConfig config) {
        Allocation s = Allocation.fromConfig(config);
        int[] caps = s.caps();
        for (int i = 0; i < caps.length; i++) {
            caps[i] = Math.min(caps[i], config.gateway().startup().caps());
        }
        return new Allocation(0, s.weights(), caps);
    }

    void managerHeard() {
        lastHeard = nanoClock.getAsLong();
    }

    /** A manager's allocation is in force. */
    void allocated() {
        if (waiting) {
            waiting = false;
            gateway.readiness().allocationInForce();
        }
    }

    /**
     * No manager heard for the timeout: the static allocation, logged. Checked at the end of every
     * reporting interval (on the gateway's timer), so it comes at most one interval after the timeout.
     */
    void checkTimeout() {
        if (!waiting || !busAnswered.getAsBoolean()) {
            return;
        }
        long now = nanoClock.getAsLong();
        if (answeredAt == Long.MIN_VALUE) {
            answeredAt = now; // the timeout counts from the bus's answer: a manager cannot be heard before it
        }
        if (now - Math.max(lastHeard, answeredAt) < timeoutNanos) {
            return;
        }
        Allocation fallback;
        synchronized (gateway) {
            if (!waiting || gateway.queues().caps().allocation().version() != 0) {
                return;
            }
            fallback = Allocation.fromConfig(gateway.config());
            gateway.setAllocation(fallback);
            waiting = false;
        }
        gateway.readiness().allocationInForce();
        LOG.warn("no resource manager heard for {} ms: gateway {} serves on the static allocation {} (each server's whole"
                + " configured cap); a manager's allocation replaces it when one is heard", TimeUnit.NANOSECONDS.toMillis(timeoutNanos),
                gateway.config().gateway().id(), fallback);
    }

    boolean waiting() {
        return waiting;
    }

}
