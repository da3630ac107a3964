package io.slagate.config;

import java.time.Duration;

/**
 * A traffic class c: its response-time target tau, utility function, and how much it may wait at a
 * gateway (queue bound and queue timeout), and the server pool that serves it; how its queue treats
 * the class's customers (a lane each, served in turn, at most {@code customerQueueBound} waiting
 * per customer; or one FIFO); and its deadline, past which no answer is useful (null: none).
 */
public record TrafficClassConfig(String name, Duration target, UtilityConfig utility,
                                 int queueBound, Duration queueTimeout, String pool,
                                 boolean fairByCustomer, int customerQueueBound, Duration deadline) {
    public TrafficClassConfig(String name, Duration target, UtilityConfig utility, int queueBound, Duration queueTimeout, String pool) {
        this(name, target, utility, queueBound, queueTimeout, pool, true, queueBound, null);
    }

    public double targetSeconds() {
        return target.toNanos() / 1e9;
    }
}
