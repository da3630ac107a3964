package io.slagate.config;

import java.time.Duration;

/**
 * A traffic class c: its response-time target tau, utility function, and how much it may wait at a
 * gateway (queue bound and queue timeout), and the server pool that serves it.
 */
public record TrafficClassConfig(String name, Duration target, UtilityConfig utility,
                                 int queueBound, Duration queueTimeout, String pool) {
    public double targetSeconds() {
        return target.toNanos() / 1e9;
    }
}
