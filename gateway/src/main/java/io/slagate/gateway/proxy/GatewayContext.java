package io.slagate.gateway.proxy;

import io.slagate.config.FaultStatus;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.stats.GatewayMetrics;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/** What every exchange of one gateway shares: set once at start, read on the request path. */
final class GatewayContext {
    static final String CLASS_HEADER = "X-Slagate-Class";
    static final String QUEUE_MILLIS_HEADER = "X-Slagate-Queue-Millis";
    static final String FAULT_HEADER = "X-Slagate-Fault";

    final String gatewayId;
    final String[] classNames;
    final QueueManager queues;
    final GatewayMetrics metrics;
    final Executor executor;
    final LongSupplier clock;
    final FaultStatus faultStatus;
    final int retryAfterSeconds;
    Dispatcher dispatcher;

    GatewayContext(String gatewayId, String[] classNames, QueueManager queues, GatewayMetrics metrics, Executor executor,
                   LongSupplier clock, FaultStatus faultStatus, int retryAfterSeconds) {
        this.gatewayId = gatewayId;
        this.classNames = classNames;
        this.queues = queues;
        this.metrics = metrics;
        this.executor = executor;
        this.clock = clock;
        this.faultStatus = faultStatus;
        this.retryAfterSeconds = retryAfterSeconds;
    }
}
