package io.slagate.gateway.trace;

import com.fasterxml.jackson.core.JsonFactory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.slagate.config.TracingSettings;
import io.slagate.util.LogLimiter;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the spans of traced requests to an OpenTelemetry collector over OTLP/HTTP with the JSON encoding,
 * every {@code exportInterval}, from a thread of its own: the request path only queues what it measured
 * (lock-free, bounded: past {@code maxQueuedSpans} a request's spans are dropped and counted). Each traced
 * request is three spans: the gateway's (server kind) with its class and customer, and as its children the
 * wait in the class's queue and the call to the server (client kind), the parent of the server's own spans.
 * A batch (510 spans) is sent as soon as it is queued, the rest every interval. A failed export drops its batch
 * (counted, logged once a minute at most): tracing never holds requests back.
 */
public final class SpanExporter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SpanExporter.class);
    private static final JsonFactory JSON = new JsonFactory();
    /** Requests per export request: 510 spans, about 200 KB of JSON (OpenTelemetry's SDK sends at most 512 spans at once). */
    static final int BATCH = 170;
    static final int SPANS_PER_REQUEST = 3;

    private final TracingSettings settings;
    private final String gatewayId;
    private final long epochOffsetNanos;
    private final ConcurrentLinkedQueue<FinishedRequest> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final Counter exported;
    private final Counter droppedFull;
    private final Counter droppedFailed;
    private final HttpClient http;
    private volatile boolean running;
    private volatile Thread thread;
    private final LogLimiter warnings = new LogLimiter(Duration.ofMinutes(1));

    /** @param clock the gateway's nanosecond clock, whose readings the requests' timings are */
    public SpanExporter(TracingSettings settings, String gatewayId, LongSupplier clock, MeterRegistry registry) {
        this.settings = settings;
        this.gatewayId = gatewayId;
        this.epochOffsetNanos = epochNanosNow() - clock.getAsLong();
        this.exported = Counter.builder("slagate.tracing.spans").tag("gateway", gatewayId).tag("outcome", "exported")
                .description("Spans sent to the OTLP collector, or dropped (queue full, export failed)").register(registry);
        this.droppedFull = Counter.builder("slagate.tracing.spans").tag("gateway", gatewayId).tag("outcome", "dropped-queue-full")
                .register(registry);
        this.droppedFailed = Counter.builder("slagate.tracing.spans").tag("gateway", gatewayId).tag("outcome", "dropped-export-failed")
                .register(registry);
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    private static long epochNanosNow() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    void add(FinishedRequest r) {
        int n = queued.incrementAndGet();
        if (n * SPANS_PER_REQUEST > settings.maxQueuedSpans()) {
            queued.decrementAndGet();
            droppedFull.increment(SPANS_PER_REQUEST);
            return;
        }
        queue.offer(r);
        if (n % BATCH == 0) {
            LockSupport.unpark(thread); // a batch is ready: send it now rather than at the interval's end
        }
    }

    public void start() {
        running = true;
        thread = new Thread(this::exportLoop, "slagate-spans");
        thread.setDaemon(true);
        thread.start();
        LOG.info("tracing: spans of {} of the requests without a sampling decision (and of every sampled one) to {}",
                settings.sampling(), settings.endpoint());
    }

    /** Every export interval, or at once when a batch is queued; what is left when stopped goes out last. */
    private void exportLoop() {
        long every = settings.exportInterval().toNanos();
        while (running) {
            if (queued.get() < BATCH) {
                LockSupport.parkNanos(this, every);
            }
            exportAll();
        }
        exportAll();
    }

    /** Sends what is queued; what ends meanwhile waits for the next export. */
    private void exportAll() {
        try {
            for (int rounds = queued.get() / BATCH + 1; rounds > 0; rounds--) {
                List<FinishedRequest> batch = new ArrayList<>(Math.min(BATCH, Math.max(1, queued.get())));
                FinishedRequest r;
                while (batch.size() < BATCH && (r = queue.poll()) != null) {
                    queued.decrementAndGet();
                    batch.add(r);
                }
                if (batch.isEmpty()) {
                    return;
                }
                send(batch);
            }
        } catch (RuntimeException e) {
            LOG.error("tracing: an export failed", e); // the next one goes on
        }
    }

    private void send(List<FinishedRequest> batch) {
        long spans = (long) batch.size() * SPANS_PER_REQUEST;
        try {
            byte[] body = OtlpJson.encode(batch, settings.serviceName(), gatewayId, epochOffsetNanos, JSON);
            HttpRequest.Builder request = HttpRequest.newBuilder(settings.endpoint()).timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body));
            settings.headers().forEach(request::header);
            HttpResponse<Void> response = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() / 100 == 2) {
                exported.increment(spans);
                return;
            }
            failed(spans, "HTTP " + response.statusCode());
        } catch (IOException e) {
            failed(spans, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed(spans, "interrupted");
        }
    }

    private void failed(long spans, String why) {
        droppedFailed.increment(spans);
        if (warnings.allow()) {
            LOG.warn("tracing: {} spans dropped: the collector at {} answered {} (counted in slagate_tracing_spans_total)", spans,
                    settings.endpoint(), why);
        }
    }

    /** Stops exporting after one last export of what is queued (waiting at most 15 s for it). */
    @Override
    public void close() {
        if (thread == null) {
            return;
        }
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(15_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
