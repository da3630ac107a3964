package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.awaitility.Awaitility.await;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.AsyncRequestContent;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamRequestContent;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The gateway over real HTTP on loopback, in front of real Jetty backends. */
class GatewayProxyTest {
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private HttpClient client;

    @BeforeEach
    void startClient() throws Exception {
        client = new HttpClient();
        client.setFollowRedirects(false);
        client.start();
        client.getContentDecoderFactories().clear();
    }

    @AfterEach
    void stopAll() throws Exception {
        client.stop();
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private TestBackend backend() throws Exception {
        TestBackend b = new TestBackend();
        closeables.add(b);
        return b;
    }

    private Gateway gateway(String yaml) throws Exception {
        SlagateConfig cfg = TestConfigs.parse(yaml, "test.yaml");
        Gateway g = new Gateway(cfg).start();
        closeables.add(() -> g.stop(Duration.ofSeconds(2)));
        return g;
    }

    private static String config(String extraGateway, String servers, String classes, String extra) {
        return "gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\"" + extraGateway + " }\n"
                + "servers:\n" + servers + "classes:\n" + classes + extra;
    }

    private static String server(String id, String url, int n) {
        return "  - { id: " + id + ", url: \"" + url + "\", concurrency: " + n + " }\n";
    }

    private static final String TWO_CLASSES = """
              - { name: premium, target: 1s, queueBound: 100, queueTimeout: 10s }
              - { name: basic, target: 2s, queueBound: 100, queueTimeout: 10s }
            """;

    private static final String RULES = """
            classification:
              subscriptions:
                alice: { "*": gold }
              rules:
                - { grade: gold, class: premium }
                - { operation: "urn:premiumOp", class: premium }
              defaultClass: basic
            """;

    private Request post11(Gateway g, String path, String action) {
        return client.newRequest("http://127.0.0.1:" + g.port() + path).method(HttpMethod.POST)
                .headers(h -> h.put("SOAPAction", "\"" + action + "\""))
                .body(new StringRequestContent("text/xml; charset=utf-8", Soap.envelope11("getQuote")))
                .timeout(20, TimeUnit.SECONDS);
    }

    private Request post12(Gateway g, String path, String action) {
        return client.newRequest("http://127.0.0.1:" + g.port() + path).method(HttpMethod.POST)
                .body(new StringRequestContent("application/soap+xml; charset=utf-8; action=\"" + action + "\"", Soap.envelope12("getQuote")))
                .timeout(20, TimeUnit.SECONDS);
    }

    @Test
    void forward_soap11_relaysServerResponse_andNamesClass() throws Exception {
        TestBackend b = backend();
        Gateway g = gateway(config("", server("s1", b.url(), 5), TWO_CLASSES, RULES));
        ContentResponse r = post11(g, "/services/Stock?x=1", "urn:getQuote").send();
        assertEquals(200, r.getStatus());
        assertEquals(Soap.envelope11("getQuote"), r.getContentAsString());
        assertEquals("basic", r.getHeaders().get("X-Slagate-Class"));
        assertNotNull(r.getHeaders().get("X-Slagate-Queue-Millis"));
        assertEquals("/services/Stock?x=1", r.getHeaders().get("X-Echo-Path"));
    }

    @Test
    void classify_basicAuthSubscription_andSoap12Action() throws Exception {
        TestBackend b = backend();
        Gateway g = gateway(config("", server("s1", b.url(), 5), TWO_CLASSES, RULES));
        String alice = "Basic " + Base64.getEncoder().encodeToString("alice:secret".getBytes(StandardCharsets.UTF_8));
        ContentResponse gold = post11(g, "/services/Stock", "urn:getQuote").headers(h -> h.put("Authorization", alice)).send();
        assertEquals("premium", gold.getHeaders().get("X-Slagate-Class"));
        assertEquals(alice, b.lastHeaders().get("Authorization"), "Authorization passes unchanged");
        ContentResponse byAction = post12(g, "/services/Stock", "urn:premiumOp").send();
        assertEquals("premium", byAction.getHeaders().get("X-Slagate-Class"));
        ContentResponse other = post12(g, "/services/Stock", "urn:other").send();
        assertEquals("basic", other.getHeaders().get("X-Slagate-Class"));
    }

    @Test
    void forward_preservesHost_addsForwarded_dropsHopByHop() throws Exception {
        TestBackend b = backend();
        Gateway g = gateway(config("", server("s1", b.url(), 5), TWO_CLASSES, ""));
        String body = Soap.envelope11("getQuote");
        String raw = "POST /services/Stock HTTP/1.1\r\nHost: soap.example.com:8080\r\nContent-Type: text/xml\r\n"
                + "SOAPAction: \"urn:getQuote\"\r\nConnection: keep-alive, Upgrade, HTTP2-Settings, X-Private\r\nX-Private: secret\r\n"
                + "Keep-Alive: timeout=5\r\nTE: trailers\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n"
                + "X-Forwarded-For: 10.9.8.7\r\nX-Custom: kept\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
        String response = rawExchange(g.port(), raw);
        assertTrue(response.startsWith("HTTP/1.1 200"), response);
        HttpFields seen = b.lastHeaders();
        assertEquals("soap.example.com:8080", seen.get("Host"));
        assertEquals("127.0.0.1", seen.get("X-Forwarded-For"), "no trusted proxies: the client's own chain is not believed");
        assertEquals("soap.example.com:8080", seen.get("X-Forwarded-Host"));
        assertEquals("http", seen.get("X-Forwarded-Proto"));
        assertEquals(String.valueOf(g.port()), seen.get("X-Forwarded-Port"));
        assertEquals("kept", seen.get("X-Custom"));
        for (String hop : List.of("X-Private", "Keep-Alive", "TE", "Upgrade", "HTTP2-Settings")) {
            assertNull(seen.get(hop), hop + " must not reach the server");
        }
        assertFalse(seen.contains("Connection", "X-Private"));
    }

    @Test
    void forward_getWsdl_passesThrough() throws Exception {
        TestBackend b = backend();
        Gateway g = gateway(config("", server("s1", b.url(), 5), TWO_CLASSES, ""));
        ContentResponse r = client.GET("http://127.0.0.1:" + g.port() + "/services/Stock?wsdl");
        assertEquals(200, r.getStatus());
        assertEquals("/services/Stock?wsdl", r.getHeaders().get("X-Echo-Path"));
    }

    @Test
    void forward_largeBodies_streamedIntactBothWays() throws Exception {
        TestBackend b = backend();
        Gateway g = gateway(config("", server("s1", b.url(), 5), TWO_CLASSES, ""));
        StringBuilder sb = new StringBuilder("<big>");
        while (sb.length() < 3_000_000) {
            sb.append("<item>0123456789abcdefghijklmnopqrstuvwxyz</item>");
        }
        String body = sb.append("</big>").toString();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        // chunked upload (no Content-Length), 3 MB echoed back
        Request chunked = client.newRequest("http://127.0.0.1:" + g.port() + "/services/Big").method(HttpMethod.POST)
                .body(new InputStreamRequestContent("text/xml", new ByteArrayInputStream(bytes), 8192))
                .timeout(30, TimeUnit.SECONDS);
        ContentResponse r = new CompletableResponseListener(chunked, 8_000_000).send().get(30, TimeUnit.SECONDS);
        assertEquals(200, r.getStatus());
        assertEquals(body, r.getContentAsString());
        Request sized = client.newRequest("http://127.0.0.1:" + g.port() + "/services/Big").method(HttpMethod.POST)
                .body(new BytesRequestContent("text/xml", bytes)).timeout(30, TimeUnit.SECONDS);
        ContentResponse r2 = new CompletableResponseListener(sized, 8_000_000).send().get(30, TimeUnit.SECONDS);
        assertEquals(body.length(), r2.getContentAsString().length());
    }

    private static final String BOUNDED = """
              - { name: premium, target: 1s, queueBound: 1, queueTimeout: 10s }
            """;

    /** Every fault reason, in both SOAP versions: a well-formed fault naming reason and class. */
    @Test
    void faults_everyReason_wellFormedInBothVersions() throws Exception {
        TestBackend b = backend();
        b.behave(b.hold());
        for (boolean soap12 : new boolean[] {false, true}) {
            for (String status : new String[] {"wsi", "http"}) {
                Gateway g = gateway(config(", faultStatus: " + status + ", maxRequestBytes: 2048", server("s1", b.url(), 1), BOUNDED, ""));
                // hold one request on the server and one in the queue: the next is refused
                CompletableFuture<ContentResponse> running = send(g, soap12);
                TestBackend.Held first = b.takeHeld(10_000);
                assertNotNull(first);
                CompletableFuture<ContentResponse> queued = send(g, soap12);
                await().atMost(Duration.ofSeconds(10)).until(() -> g.queues().counts().waiting(0) == 1);
                assertFault(send(g, soap12).get(10, TimeUnit.SECONDS), soap12, status, FaultReason.QUEUE_FULL);
                // too large (announced length) and malformed (not SOAP)
                Request big = (soap12 ? post12(g, "/s", "urn:a") : post11(g, "/s", "urn:a"))
                        .body(new StringRequestContent(soap12 ? "application/soap+xml" : "text/xml", "x".repeat(5000)));
                assertFault(big.send(), soap12, status, FaultReason.REQUEST_TOO_LARGE);
                ContentResponse notSoap = client.newRequest("http://127.0.0.1:" + g.port() + "/s").method(HttpMethod.POST)
                        .body(new StringRequestContent("text/plain", "hello")).send();
                assertFault(notSoap, false, status, FaultReason.MALFORMED_REQUEST);
                // release: both complete normally
                first.reply("<r1/>");
                assertEquals(200, running.get(10, TimeUnit.SECONDS).getStatus());
                TestBackend.Held second = b.takeHeld(10_000);
                assertNotNull(second, "the queued request is admitted when the slot frees");
                second.reply("<r2/>");
                assertEquals(200, queued.get(10, TimeUnit.SECONDS).getStatus());
                assertBalanced(g);
                g.stop(Duration.ofSeconds(1));
            }
        }
    }

    @Test
    void faults_queueTimeout_serverTimeout_serverFailed_unreachable() throws Exception {
        TestBackend b = backend();
        b.behave(b.hold());
        Gateway g = gateway(config(", serverTimeout: 300ms", server("s1", b.url(), 1),
                "  - { name: premium, target: 1s, queueBound: 10, queueTimeout: 100ms }\n", ""));
        CompletableFuture<ContentResponse> first = send(g, false);
        assertNotNull(b.takeHeld(10_000));
        // the second waits behind the held one longer than its queue timeout
        assertFault(send(g, true).get(10, TimeUnit.SECONDS), true, "wsi", FaultReason.QUEUE_TIMEOUT);
        // the held one exceeds the server timeout
        assertFault(first.get(10, TimeUnit.SECONDS), false, "wsi", FaultReason.SERVER_TIMEOUT);
        // a server that breaks off mid-answer: never a truncated success. The direct leg holds a small
        // answer until it is complete, so its client gets a server-failed fault; the HttpClient leg
        // streams, so its client sees its connection aborted.
        b.behave(TestBackend.breakMidResponse());
        CompletableFuture<ContentResponse> broken = send(g, false);
        try {
            assertFault(broken.get(10, TimeUnit.SECONDS), false, "wsi", FaultReason.SERVER_FAILED);
        } catch (ExecutionException aborted) {
            assertNotNull(aborted.getCause(), "a truncated response must not look like a success");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().faulted(FaultReason.SERVER_FAILED) == 1);
        // a server that is down
        b.stop();
        assertFault(send(g, false).get(10, TimeUnit.SECONDS), false, "wsi", FaultReason.SERVER_UNREACHABLE);
        assertBalanced(g);
    }

    @Test
    void dispatch_serverDown_retriesOnOther_ejectsAndBringsBack() throws Exception {
        TestBackend good = backend();
        int downPort;
        try (ServerSocket s = new ServerSocket(0)) {
            downPort = s.getLocalPort();
        }
        Gateway g = gateway(config(", health: { failuresToEject: 2, backoff: 50ms, maxBackoff: 200ms }",
                server("down", "http://127.0.0.1:" + downPort, 5) + server("up", good.url(), 5), TWO_CLASSES,
                "gateway.loadBalancing: round-robin\n".isEmpty() ? "" : ""));
        for (int i = 0; i < 20; i++) {
            assertEquals(200, post11(g, "/s", "urn:a").send().getStatus(), "never-sent requests are retried elsewhere");
        }
        assertFalse(g.queues().server(0).inRotation(), "the refusing server was taken out of rotation");
        TestBackend back = new TestBackend(downPort);
        closeables.add(back);
        await().atMost(Duration.ofSeconds(10)).until(() -> g.queues().server(0).inRotation());
        for (int i = 0; i < 20; i++) {
            assertEquals(200, post11(g, "/s", "urn:a").send().getStatus());
        }
        assertTrue(back.received() > 0, "the returned server takes requests again");
        assertBalanced(g);
    }

    @Test
    void dispatch_everyServerDown_eachTriedOnceThenUnreachableFault() throws Exception {
        int[] ports = new int[2];
        for (int i = 0; i < 2; i++) {
            try (ServerSocket s = new ServerSocket(0)) {
                ports[i] = s.getLocalPort();
            }
        }
        Gateway g = gateway(config(", health: { failuresToEject: 3 }",
                server("a", "http://127.0.0.1:" + ports[0], 5) + server("b", "http://127.0.0.1:" + ports[1], 5), TWO_CLASSES, ""));
        assertFault(post11(g, "/s", "urn:x").send(), false, "wsi", FaultReason.SERVER_UNREACHABLE);
        String metrics = client.GET("http://127.0.0.1:" + g.adminPort() + "/metrics").getContentAsString();
        assertTrue(metrics.contains("slagate_server_errors_total{gateway=\"gw1\",kind=\"connect\",server=\"a\"} 1.0"), metrics);
        assertTrue(metrics.contains("slagate_server_errors_total{gateway=\"gw1\",kind=\"connect\",server=\"b\"} 1.0"), metrics);
        assertTrue(g.queues().server(0).inRotation() && g.queues().server(1).inRotation(), "one request must not eject both");
    }

    /**
     * Regression: a server that answers before the proxy finished sending the request body, to a
     * client that then goes away. The upstream connection must be released (or closed), or with one
     * pooled connection (N_s = 1) every later request would wait forever.
     */
    @Test
    void dispatch_serverAnswersBeforeBodySent_clientAborts_connectionNotLeaked() throws Exception {
        TestBackend b = backend();
        b.behave(new Handler.Abstract() {
            @Override
            public boolean handle(org.eclipse.jetty.server.Request request, Response response,
                                  Callback callback) {
                // answer at once, body unread (as nginx's `return 200` does)
                response.getHeaders().put("Content-Type", "text/xml");
                response.write(true, ByteBuffer.wrap("<early/>".getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        });
        // a body larger than what is read before admission: the server can answer while it streams
        Gateway g = gateway(config(", bufferedRequestBytes: 1KiB", server("s1", b.url(), 1), TWO_CLASSES, ""));
        for (int round = 0; round < 5; round++) {
            AsyncRequestContent body = new AsyncRequestContent("text/xml");
            Request r = client.newRequest("http://127.0.0.1:" + g.port() + "/services/S").method(HttpMethod.POST)
                    .body(body).timeout(10, TimeUnit.SECONDS);
            CompletableFuture<org.eclipse.jetty.client.Response> headers = new CompletableFuture<>();
            r.onResponseHeaders(headers::complete);
            CompletableFuture<ContentResponse> done = new CompletableResponseListener(r).send();
            body.write(ByteBuffer.wrap("<start>".repeat(1000).getBytes(StandardCharsets.UTF_8)), Callback.NOOP);
            assertEquals(200, headers.get(10, TimeUnit.SECONDS).getStatus(), "the early answer is relayed");
            r.abort(new IOException("client gives up before finishing its body"));
            try {
                done.get(10, TimeUnit.SECONDS);
            } catch (ExecutionException expected) {
                // the aborted request fails on the client side; what matters is what follows
            }
        }
        for (int i = 0; i < 10; i++) {
            assertEquals(200, post11(g, "/s", "urn:a").send().getStatus(), "the single connection is still usable");
        }
        assertBalanced(g);
    }

    @Test
    void admin_exposesPrometheusMetricsAndStats() throws Exception {
        TestBackend b = backend();
        Gateway g = gateway(config("", server("s1", b.url(), 5), TWO_CLASSES, RULES));
        for (int i = 0; i < 3; i++) {
            post11(g, "/s", "urn:premiumOp").send();
        }
        // the client can hold its answer a moment before the gateway's completion callback has counted it
        await().atMost(Duration.ofSeconds(10)).until(() -> client.GET("http://127.0.0.1:" + g.adminPort() + "/metrics")
                .getContentAsString().contains("slagate_requests_completed_total{class=\"premium\",gateway=\"gw1\"} 3.0"));
        String metrics = client.GET("http://127.0.0.1:" + g.adminPort() + "/metrics").getContentAsString();
        assertTrue(metrics.contains("slagate_response_time_seconds_bucket"), "histograms for percentiles");
        assertTrue(metrics.contains("slagate_allocation_cap{gateway=\"gw1\",server=\"s1\"} 5.0"), metrics);
        assertEquals(200, client.GET("http://127.0.0.1:" + g.adminPort() + "/ready").getStatus());
        String stats = client.GET("http://127.0.0.1:" + g.adminPort() + "/stats").getContentAsString();
        assertTrue(stats.contains("\"completed\" : 3"), stats);
        assertEquals(404, client.GET("http://127.0.0.1:" + g.adminPort() + "/nothing-here").getStatus());
    }

    private CompletableFuture<ContentResponse> send(Gateway g, boolean soap12) {
        Request r = soap12 ? post12(g, "/services/Stock", "urn:getQuote") : post11(g, "/services/Stock", "urn:getQuote");
        return new CompletableResponseListener(r).send();
    }

    private static void assertFault(ContentResponse r, boolean soap12, String status, FaultReason reason) throws Exception {
        Soap.Fault f = Soap.parseFault(r.getContent());
        assertEquals(reason.code(), f.reason());
        assertEquals(reason.code(), r.getHeaders().get("X-Slagate-Fault"));
        assertEquals(soap12 ? Soap.NS12 : Soap.NS11, f.envelopeNs());
        assertTrue(r.getHeaders().get("Content-Type").startsWith(soap12 ? "application/soap+xml" : "text/xml"));
        int expected = status.equals("http") ? reason.httpStatus() : (soap12 && reason.senderFault() ? 400 : 500);
        assertEquals(expected, r.getStatus(), reason + " " + status);
        if (soap12) {
            assertEquals(reason.senderFault() ? "env:Sender" : "env:Receiver", f.code());
        } else {
            assertEquals(reason.senderFault() ? "soap:Client" : "soap:Server", f.code());
        }
        assertEquals(reason.retryable(), r.getHeaders().get("Retry-After") != null, "Retry-After for " + reason);
    }

    private static void assertBalanced(Gateway g) {
        await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().inFlight() == 0);
        assertEquals(g.metrics().totals().arrived(), g.metrics().totals().completed() + g.metrics().totals().faulted(),
                "arrived = completed + faulted + in flight");
    }

    private static String rawExchange(int port, String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            byte[] b = new byte[8192];
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadline) {
                int n = in.read(b);
                if (n < 0) {
                    break;
                }
                buf.write(b, 0, n);
                String sofar = buf.toString(StandardCharsets.ISO_8859_1);
                int headerEnd = sofar.indexOf("\r\n\r\n");
                if (headerEnd > 0) {
                    int cl = sofar.toLowerCase().indexOf("content-length: ");
                    if (cl > 0) {
                        int len = Integer.parseInt(sofar.substring(cl + 16, sofar.indexOf("\r\n", cl)).trim());
                        if (buf.size() >= headerEnd + 4 + len) {
                            break;
                        }
                    }
                }
            }
            return buf.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
