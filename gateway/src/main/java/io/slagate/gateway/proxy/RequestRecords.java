package io.slagate.gateway.proxy;

import io.micrometer.core.instrument.MeterRegistry;
import io.slagate.config.GatewaySettings;
import io.slagate.gateway.trace.SpanExporter;
import java.util.function.LongSupplier;

/**
 * What the gateway writes of its finished requests, one of each for its whole life (a reload keeps them):
 * the access log's writer and the spans' exporter, each null when off.
 */
public final class RequestRecords implements AutoCloseable {
    public final AccessLogWriter accessLog;
    public final SpanExporter spans;

    public RequestRecords(GatewaySettings g, MeterRegistry registry, LongSupplier clock) {
        accessLog = g.accessLog().on() ? new AccessLogWriter(g.accessLog(), registry, g.id()) : null;
        spans = g.tracing().on() ? new SpanExporter(g.tracing(), g.id(), clock, registry) : null;
    }

    /** @throws IllegalStateException when the access log's file cannot be opened */
    public void start() {
        if (accessLog != null) {
            accessLog.start();
        }
        if (spans != null) {
            spans.start();
        }
    }

    /** Writes what is queued, then stops. */
    @Override
    public void close() {
        if (accessLog != null) {
            accessLog.close();
        }
        if (spans != null) {
            spans.close();
        }
    }
}
