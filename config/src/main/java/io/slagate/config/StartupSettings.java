package io.slagate.config;

import java.time.Duration;

/**
 * What a gateway with a control bus admits before a resource manager gave it an allocation. The
 * servers' caps are split among the gateways (Σ_g N_{g,s} ≤ N_s): a gateway that (re)starts beside
 * others holding their shares must not serve on the static caps, each server's whole N_s.
 *
 * @param caps           slots per server until the first allocation (at most the static cap); 0: none,
 *                       requests wait in their queues for it
 * @param managerTimeout how long without hearing any resource manager before the gateway serves on the
 *                       static allocation (logged); zero: three control cycles
 */
public record StartupSettings(int caps, Duration managerTimeout) {
    public static final StartupSettings DEFAULT = new StartupSettings(0, Duration.ZERO);

    /** The timeout in force for control cycle {@code cycle}. */
    public Duration managerTimeout(Duration cycle) {
        return managerTimeout.isZero() ? cycle.multipliedBy(3) : managerTimeout;
    }
}
