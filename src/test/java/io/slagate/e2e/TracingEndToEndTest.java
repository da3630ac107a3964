package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.slagate.config.ConfigLoader;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.ScriptedBackend;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Spans end to end: a real gateway and server over loopback, and a collector stand-in that speaks OTLP/HTTP
 * (JSON), as an OpenTelemetry Collector's HTTP receiver does. A client's sampled trace goes on through the
 * gateway to the server; the spans carry the class and the customer; an unsampled or hostile context is not
 * traced and reaches the server as it came; a collector that fails costs the requests nothing and is counted.
 */
class TracingEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CLIENT_SPAN = "00f067aa0ba902b7";
    private final List<AutoCloseable> closeables = new ArrayList<>();
    /** Every span the collector received, in arrival order. */
    private final List<JsonNode> spans = new CopyOnWriteArrayList<>();
    private final AtomicInteger collectorStatus = new AtomicInteger(200);
    private final AtomicInteger exportRequests = new AtomicInteger();
    /** The x-api-key header of each export request. */
    private final List<String> apiKeys = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private String collector() throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/v1/traces", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                exportRequests.incrementAndGet();
                apiKeys.add(String.valueOf(exchange.getRequestHeaders().getFirst("x-api-key")));
                JsonNode body = JSON.readTree(in);
                assertEquals("application/json", exchange.getRequestHeaders().getFirst("Content-Type"));
                JsonNode resource = body.get("resourceSpans").get(0);
                assertEquals("slagate-edge", attribute(resource.get("resource"), "service.name"));
                if (collectorStatus.get() == 200) {
                    resource.get("scopeSpans").get(0).get("spans").forEach(spans::add);
                }
            }
            exchange.sendResponseHeaders(collectorStatus.get(), -1);
            exchange.close();
        });
        http.start();
        closeables.add(() -> http.stop(0));
        return "http://127.0.0.1:" + http.getAddress().getPort() + "/v1/traces";
    }

    private Gateway gateway(String server, String collector, double sampling) throws Exception {
        return gateway(server, collector, sampling, "50ms");
    }

    private Gateway gateway(String server, String collector, double sampling, String exportInterval) throws Exception {
        String yaml = """
                gateway:
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  tracing: { endpoint: "%s", sampling: %s, serviceName: slagate-edge, exportInterval: %s,
                             headersEnv: { x-api-key: PATH } }
                servers: [ { id: s1, url: "%s", concurrency: 4 } ]
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                classification: { subscriptions: { acme: { "*": gold } }, rules: [ { grade: gold, class: premium } ], defaultClass: basic }
                """.formatted(collector, sampling, exportInterval, server);
        Gateway g = new Gateway(ConfigLoader.parse(yaml, "tracing.yaml")).start();
        closeables.add(() -> g.stop(Duration.ofSeconds(2)));
        return g;
    }

    private static String user(String name) {
        return "Authorization: Basic " + Base64.getEncoder().encodeToString((name + ":pw").getBytes(StandardCharsets.UTF_8)) + "\r\n";
    }

    private static String attribute(JsonNode node, String key) {
        for (JsonNode a : node.get("attributes")) {
            if (a.get("key").asText().equals(key)) {
                JsonNode v = a.get("value");
                return v.has("stringValue") ? v.get("stringValue").asText() : v.get("intValue").asText();
            }
        }
        return null;
    }

    private List<JsonNode> spansOf(String traceId, int count) {
        await("spans of " + traceId).atMost(Duration.ofSeconds(10))
                .until(() -> spans.stream().filter(s -> s.get("traceId").asText().equals(traceId)).count() >= count);
        return spans.stream().filter(s -> s.get("traceId").asText().equals(traceId)).collect(Collectors.toList());
    }

    private static JsonNode named(List<JsonNode> l, String prefix) {
        return l.stream().filter(s -> s.get("name").asText().startsWith(prefix)).findFirst().orElseThrow(() -> new AssertionError(prefix + ": " + l));
    }

    private static double counter(Gateway g, String outcome) {
        var c = g.registry().find("slagate.tracing.spans").tag("outcome", outcome).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aClientsSampledTrace_goesOnThroughTheGateway_withTheClassAndCustomerOnItsSpans() throws Exception {
        ScriptedBackend s1 = new ScriptedBackend();
        closeables.add(s1);
        Gateway g = gateway(s1.url(), collector(), 0); // the ratio keeps nothing: only the clients' decisions count

        String sampled = "00-" + TRACE + "-" + CLIENT_SPAN + "-01";
        assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/Quotes",
                user("acme") + "SOAPAction: \"urn:getQuote\"\r\ntraceparent: " + sampled + "\r\n", "<x/>")).status());
        List<JsonNode> l = spansOf(TRACE, 3);
        assertEquals(3, l.size(), "the gateway's span, its queue wait and its call to the server: " + l);
        JsonNode request = named(l, "POST /services/Quotes");
        JsonNode queue = named(l, "queue");
        JsonNode call = named(l, "POST s1");
        assertEquals(CLIENT_SPAN, request.get("parentSpanId").asText(), "the client's span is the parent");
        assertEquals(2, request.get("kind").asInt());
        assertEquals("premium", attribute(request, "slagate.class"));
        assertEquals("acme", attribute(request, "slagate.customer"));
        assertEquals("urn:getQuote", attribute(request, "slagate.operation"));
        assertEquals("200", attribute(request, "http.response.status_code"));
        assertNull(request.get("status"), "no error");
        assertEquals(request.get("spanId").asText(), queue.get("parentSpanId").asText());
        assertEquals(request.get("spanId").asText(), call.get("parentSpanId").asText());
        assertEquals(3, call.get("kind").asInt());
        assertEquals("s1", attribute(call, "slagate.server"));
        long start = Long.parseLong(request.get("startTimeUnixNano").asText());
        long end = Long.parseLong(request.get("endTimeUnixNano").asText());
        long queued = Long.parseLong(queue.get("endTimeUnixNano").asText());
        long called = Long.parseLong(call.get("startTimeUnixNano").asText());
        assertTrue(start <= queued && queued == called && called <= end, "the wait, then the call, within the request");
        assertTrue(Math.abs(start / 1_000_000 - System.currentTimeMillis()) < 60_000, "epoch time: " + start);
        // the server sees one traceparent: this trace, the gateway's call as its parent
        String head = s1.heads().get(0);
        assertEquals(1, head.split("(?i)traceparent:", -1).length - 1, head);
        assertTrue(head.contains("traceparent: 00-" + TRACE + "-" + call.get("spanId").asText() + "-01"), head);
        await().atMost(Duration.ofSeconds(5)).until(() -> counter(g, "exported") == 3);
        assertEquals(System.getenv("PATH"), apiKeys.get(0), "the header headersEnv names, its value from the environment");
    }

    @Test
    void unsampledAndHostileContexts_areNotTraced_andReachTheServerAsTheyCame() throws Exception {
        ScriptedBackend s1 = new ScriptedBackend();
        closeables.add(s1);
        Gateway g = gateway(s1.url(), collector(), 0);
        String declined = "00-" + TRACE + "-" + CLIENT_SPAN + "-00";
        String hostile = "00-" + TRACE.toUpperCase() + "-" + CLIENT_SPAN + "-01";
        for (String ctx : new String[] {declined, hostile}) {
            assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/Quotes", "traceparent: " + ctx + "\r\n", "<x/>")).status());
        }
        // a sampled one after them: once its spans are in, nothing of the two before can still come
        String sampled = "00-" + TRACE.replace('4', '5') + "-" + CLIENT_SPAN + "-01";
        assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/Quotes", "traceparent: " + sampled + "\r\n", "<x/>")).status());
        spansOf(TRACE.replace('4', '5'), 3);
        assertEquals(3, spans.size(), "only the sampled request's: " + spans);
        assertTrue(s1.heads().get(0).contains("traceparent: " + declined));
        assertTrue(s1.heads().get(1).contains("traceparent: " + hostile));
    }

    /**
     * With every request sampled, a customer whose name is hostile JSON and control characters is on its span as it
     * was sent; a server that closes without an answer marks the call an error with the gateway's fault; a collector that answers
     * 503 loses its batches (counted), and the requests meanwhile are answered all the same.
     */
    @Test
    void everyRequestSampled_hostileValuesEscaped_faultsMarked_andAFailingCollectorCostsNothing() throws Exception {
        ScriptedBackend s1 = new ScriptedBackend();
        closeables.add(s1);
        Gateway g = gateway(s1.url(), collector(), 1);
        String hostile = "ev\"il\\\u0001}]";
        assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/Quotes", user(hostile), "<x/>")).status());
        await().atMost(Duration.ofSeconds(10)).until(() -> spans.size() >= 3);
        JsonNode request = named(spans, "POST /services/Quotes");
        assertEquals(hostile, attribute(request, "slagate.customer"));
        assertFalse(request.has("parentSpanId"), "no client context: the gateway's span is the root");
        String traceId = request.get("traceId").asText();
        assertTrue(traceId.matches("[0-9a-f]{32}"), traceId);
        assertTrue(s1.heads().get(0).contains("traceparent: 00-" + traceId + "-"), "the started trace goes to the server");

        // a server that closes without an answer: the gateway's fault is on its span and on the call's, as an error
        s1.answer(new ScriptedBackend.Answer("", true));
        RawHttp.Response broken = RawHttp.exchange(g.port(), RawHttp.post("/services/Quotes", "", "<x/>"));
        s1.answer(new ScriptedBackend.Answer("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>", false));
        await().atMost(Duration.ofSeconds(10)).until(() -> spans.size() >= 6);
        JsonNode failedCall = spans.stream().filter(sp -> sp.get("kind").asInt() == 3 && sp.has("status")).findFirst()
                .orElseThrow(() -> new AssertionError("no failed call among " + spans + "; the client saw " + broken.status()));
        assertEquals(2, failedCall.get("status").get("code").asInt());
        assertFalse(failedCall.get("status").get("message").asText().isEmpty());

        collectorStatus.set(503);
        int before = exportRequests.get();
        for (int i = 0; i < 5; i++) {
            assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/Quotes", "", "<x/>")).status());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> counter(g, "dropped-export-failed") == 15);
        assertTrue(exportRequests.get() > before);
        assertEquals(6, counter(g, "exported"), "the first two requests' three each, and no more");
        assertEquals(6, spans.size());
    }

    /** A full batch (510 spans) goes out at once, not at the interval's end (10 minutes here); what is left goes out on stop. */
    @Test
    void aFullBatch_isSentAtOnce_andTheRestWhenTheGatewayStops() throws Exception {
        ScriptedBackend s1 = new ScriptedBackend();
        closeables.add(s1);
        Gateway g = gateway(s1.url(), collector(), 1, "10m");
        for (int i = 0; i < 170; i++) {
            assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/Quotes", "", "<x/>")).status());
        }
        await("a batch before the interval").atMost(Duration.ofSeconds(10)).until(() -> spans.size() == 510);
        for (int i = 0; i < 5; i++) {
            assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/Quotes", "", "<x/>")).status());
        }
        assertEquals(510, spans.size(), "five requests are no batch: they wait");
        g.stop(Duration.ofSeconds(2));
        assertEquals(525, spans.size(), "sent before stop returns");
    }
}
