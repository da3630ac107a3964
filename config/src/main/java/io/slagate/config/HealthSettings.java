package io.slagate.config;

import java.time.Duration;

/**
 * Passive health checking: after {@code failuresToEject} consecutive connect failures or timeouts a
 * server leaves rotation for {@code backoff} (doubling up to {@code maxBackoff} while probes fail).
 */
public record HealthSettings(int failuresToEject, Duration backoff, Duration maxBackoff) {
}
