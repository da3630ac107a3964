package io.slagate.config;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * OpenTelemetry spans of the gateway's requests, exported over OTLP/HTTP (JSON). Off unless an endpoint is
 * configured.
 *
 * @param endpoint       the collector's traces URL (e.g. {@code http://127.0.0.1:4318/v1/traces}), or null: off
 * @param sampling       the share of requests traced that come without a sampling decision (no valid
 *                       {@code traceparent}); a client's own decision is followed
 * @param serviceName    the {@code service.name} the spans are reported under
 * @param exportInterval how often the spans finished meanwhile are sent
 * @param maxQueuedSpans spans held for the next export at most; beyond, new ones are dropped and counted
 * @param headers        headers sent with every export (a collector's API key), their values read from the environment
 */
public record TracingSettings(URI endpoint, double sampling, String serviceName, Duration exportInterval, int maxQueuedSpans,
                              Map<String, String> headers) {
    public static final TracingSettings OFF = new TracingSettings(null, 0.1, "slagate", Duration.ofSeconds(1), 4096, Map.of());

    public TracingSettings {
        headers = Map.copyOf(headers);
    }

    /** Without the headers' values: they are secrets. */
    @Override
    public String toString() {
        return "TracingSettings[endpoint=" + endpoint + ", sampling=" + sampling + ", serviceName=" + serviceName + ", exportInterval="
                + exportInterval + ", maxQueuedSpans=" + maxQueuedSpans + ", headers=" + headers.keySet() + "]";
    }

    public boolean on() {
        return endpoint != null;
    }
}
