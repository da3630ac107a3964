package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.stats.GatewayMetrics.ServerError;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.ScriptedBackend;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client → gateway boundary, against hostile and broken clients: what a client does
 * wrong with its request is answered as the client's fault, is never sent to a server and never
 * counts against a server's health; a slow client never holds a server slot; a client that left is
 * not served. Every case checks who was blamed, what a well-behaved client sees, and the counters.
 */
class ClientBoundaryTest {
    private static final String BODY = Soap.envelope11("getQuote");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private TestBackend backend() throws Exception {
        TestBackend b = new TestBackend();
        closeables.add(b);
        return b;
    }

    private Gateway gateway(String extraGateway, String servers) throws Exception {
        String yaml = "gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\", health: { failuresToEject: 3 }"
                + extraGateway + " }\nservers:\n" + servers
                + "classes:\n  - { name: basic, target: 1s, queueBound: 1000, queueTimeout: 20s }\n";
        Gateway g = new Gateway(TestConfigs.parse(yaml, "test.yaml")).start();
        closeables.add(() -> g.stop(Duration.ofSeconds(2)));
        return g;
    }

    private static String server(String id, String url, int n) {
        return "  - { id: " + id + ", url: \"" + url + "\", concurrency: " + n + " }\n";
    }

    private static void assertClientFault(RawHttp.Response r, FaultReason reason) {
        assertEquals(reason.code(), r.header("X-Slagate-Fault"), "fault reason; status " + r.status() + " body " + r.body());
        assertTrue(r.body().contains("<faultcode>soap:Client</faultcode>"), "the client's fault: " + r.body());
    }

    private static void assertNoServerBlamed(Gateway g) {
        for (int s = 0; s < g.queues().serverCount(); s++) {
            assertTrue(g.queues().server(s).inRotation(), "server " + s + " must stay in rotation");
            for (ServerError kind : ServerError.values()) {
                assertEquals(0, g.metrics().servers().errors(s, kind), "server " + s + " charged with " + kind);
            }
        }
    }

    private static void assertBalanced(Gateway g) {
        await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().inFlight() == 0);
        assertEquals(g.metrics().totals().arrived(), g.metrics().totals().completed() + g.metrics().totals().faulted(), "arrived = completed + faulted");
    }

    @Test
    void invalidChunkSize_sixTimes_clientFaults_bothServersStayInRotation() throws Exception {
        TestBackend a = backend();
        TestBackend b = backend();
        Gateway g = gateway("", server("a", a.url(), 4) + server("b", b.url(), 4));
        String head = "POST /services/S HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nSOAPAction: \"urn:a\"\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n";
        String badChunk = "fffffffffffffffffff\r\n" + BODY + "\r\n0\r\n\r\n";
        for (int i = 0; i < 6; i++) {
            RawHttp.Response r;
            if (i % 2 == 0) {
                // all in one packet: Jetty's parser may refuse it before the gateway's handler runs
                r = RawHttp.exchange(g.port(), head + badChunk);
            } else {
                // the head first: the gateway has the request and finds the bad chunk reading its body
                long before = g.metrics().totals().arrived();
                try (Socket s = RawHttp.open(g.port(), 10_000)) {
                    s.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
                    await().atMost(Duration.ofSeconds(5)).until(() -> g.metrics().totals().arrived() > before);
                    s.getOutputStream().write(badChunk.getBytes(StandardCharsets.ISO_8859_1));
                    r = RawHttp.read(s.getInputStream());
                }
            }
            assertClientFault(r, FaultReason.MALFORMED_REQUEST);
        }
        assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/S", "", BODY)).status());
        assertEquals(1, a.received() + b.received(), "no broken request reached a server");
        assertNoServerBlamed(g);
        long seen = g.metrics().totals().arrived() - 1;
        assertTrue(seen >= 3, "the gateway's handler saw at least the three sent in two parts: " + seen);
        // Jetty answers a bad chunk itself (the malformed-request fault above) and tells the body's reader
        // only "early EOF": the gateway books those as client-aborted. Either way: the client's fault.
        assertEquals(seen, g.metrics().faulted(FaultReason.MALFORMED_REQUEST) + g.metrics().faulted(FaultReason.CLIENT_ABORTED),
                () -> Arrays.stream(FaultReason.values()).map(r -> r.code() + "=" + g.metrics().faulted(r)).toList().toString());
        assertBalanced(g);
    }

    @Test
    void expectContinueWithoutBody_requestTimeout_neverSent() throws Exception {
        TestBackend a = backend();
        Gateway g = gateway(", requestBodyTimeout: 300ms", server("a", a.url(), 1));
        try (Socket s = RawHttp.open(g.port(), 10_000)) {
            s.getOutputStream().write(("POST /services/S HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nExpect: 100-continue\r\n"
                    + "Content-Length: 500\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            RawHttp.Response interim = RawHttp.read(in);
            RawHttp.Response r = interim.status() == 100 ? RawHttp.read(in) : interim;
            assertClientFault(r, FaultReason.REQUEST_TIMEOUT);
            assertEquals(-1, in.read(), "the connection is closed after the fault, not left waiting");
        }
        assertEquals(0, a.received());
        assertNoServerBlamed(g);
        assertBalanced(g);
    }

    @Test
    void clientClosesMidBody_clientAborted_neverSent() throws Exception {
        TestBackend a = backend();
        Gateway g = gateway("", server("a", a.url(), 1));
        try (Socket s = RawHttp.open(g.port(), 10_000)) {
            s.getOutputStream().write(("POST /services/S HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n"
                    + "Content-Length: 5000\r\n\r\n<soap").getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().faulted(FaultReason.CLIENT_ABORTED) == 1);
        assertEquals(0, a.received());
        assertNoServerBlamed(g);
        assertBalanced(g);
    }

    @Test
    void postWithoutAnyFraming_malformed_likeContentLengthZero() throws Exception {
        TestBackend a = backend();
        Gateway g = gateway("", server("a", a.url(), 1));
        assertClientFault(RawHttp.exchange(g.port(), "POST /services/S HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n"
                + "Connection: close\r\n\r\n"), FaultReason.MALFORMED_REQUEST);
        assertClientFault(RawHttp.exchange(g.port(), "POST /services/S HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n"
                + "Content-Length: 0\r\n\r\n"), FaultReason.MALFORMED_REQUEST);
        assertClientFault(RawHttp.exchange(g.port(), "POST /services/S HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"), FaultReason.MALFORMED_REQUEST);
        assertEquals(0, a.received());
        assertBalanced(g);
    }

    @Test
    void clientHalfClosesAfterItsRequest_stillGetsItsAnswer_thenTheConnectionEnds() throws Exception {
        TestBackend a = backend();
        a.behave(a.hold());
        Gateway g = gateway("", server("a", a.url(), 1));
        try (Socket s = RawHttp.open(g.port(), 10_000)) {
            s.getOutputStream().write(RawHttp.post("/services/S", "", BODY).getBytes(StandardCharsets.UTF_8));
            s.shutdownOutput(); // nothing more to send: HTTP allows it, the answer is still wanted
            TestBackend.Held held = a.takeHeld(10_000);
            assertNotNull(held, "the request reached the server");
            held.reply(BODY);
            RawHttp.Response r = RawHttp.read(s.getInputStream());
            assertEquals(200, r.status(), r.body());
            assertEquals(BODY, r.body());
            assertEquals(-1, s.getInputStream().read(), "the connection ends after the answer: the client can send no more");
        }
        assertNoServerBlamed(g);
        assertBalanced(g);
    }

    @Test
    void connectAndTrace_405_neverForwarded() throws Exception {
        TestBackend a = backend();
        Gateway g = gateway(", faultStatus: wsi", server("a", a.url(), 1));
        RawHttp.Response connect = RawHttp.exchange(g.port(), "CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n");
        assertEquals(405, connect.status());
        assertEquals("GET, HEAD, POST", connect.header("Allow"));
        assertEquals(405, RawHttp.exchange(g.port(), "TRACE /services/S HTTP/1.1\r\nHost: x\r\n\r\n").status());
        assertEquals(0, a.received());
        assertBalanced(g);
    }

    /** Twenty clients trickling their bodies hold no slot: a good request behind them is not queued. */
    @Test
    void slowBodyClients_holdNoSlot_goodRequestNotDelayed() throws Exception {
        TestBackend a = backend();
        TestBackend b = backend();
        Gateway g = gateway(", requestBodyTimeout: 2s", server("a", a.url(), 10) + server("b", b.url(), 10));
        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                Socket s = RawHttp.open(g.port(), 10_000);
                slow.add(s);
                s.getOutputStream().write(("POST /services/S HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nSOAPAction: \"urn:a\"\r\n"
                        + "Content-Length: " + BODY.length() + "\r\n\r\n" + BODY.substring(0, 10)).getBytes(StandardCharsets.ISO_8859_1));
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> g.metrics().totals().arrived() == 20);
            assertEquals(0, g.queues().counts().executingTotal(), "a trickling body holds no slot");
            RawHttp.Response good = RawHttp.exchange(g.port(), RawHttp.post("/services/S", "", BODY));
            assertEquals(200, good.status());
            // had the twenty held the twenty slots, it would have waited for their 2 s timeout; a millisecond or two is
            // this machine's scheduling (CI's two cores once read 1)
            long queued = Long.parseLong(good.header("X-Slagate-Queue-Millis"));
            assertTrue(queued < 500, "the good request waited for no slot: " + queued + " ms");
            assertEquals(1, a.received() + b.received());
            // the slow ones end as their own request-timeout faults
            for (Socket s : slow) {
                assertClientFault(RawHttp.read(s.getInputStream()), FaultReason.REQUEST_TIMEOUT);
            }
        } finally {
            for (Socket s : slow) {
                s.close();
            }
        }
        assertEquals(20, g.metrics().faulted(FaultReason.REQUEST_TIMEOUT));
        assertNoServerBlamed(g);
        assertBalanced(g);
    }

    /** A large body streams after admission; a client that stalls it is cut off as its own fault. */
    @Test
    void largeBodyStalls_afterAdmission_requestTimeout_serverNotBlamed() throws Exception {
        TestBackend a = backend();
        Gateway g = gateway(", bufferedRequestBytes: 1KiB, requestBodyTimeout: 400ms", server("a", a.url(), 1));
        try (Socket s = RawHttp.open(g.port(), 10_000)) {
            s.getOutputStream().write(("POST /services/S HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n"
                    + "Content-Length: 100000\r\n\r\n" + "<x>".repeat(1000)).getBytes(StandardCharsets.ISO_8859_1));
            RawHttp.Response r = RawHttp.read(s.getInputStream());
            assertClientFault(r, FaultReason.REQUEST_TIMEOUT);
        }
        assertNoServerBlamed(g);
        assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/S", "", BODY)).status(), "the slot was given back");
        assertBalanced(g);
    }

    /** Requests whose clients left while they waited are dropped before dispatch, not sent. */
    @Test
    void abandonedWhileQueued_droppedBeforeDispatch() throws Exception {
        TestBackend a = backend();
        a.behave(a.hold());
        Gateway g = gateway("", server("a", a.url(), 1));
        CompletableFuture<RawHttp.Response> first = CompletableFuture.supplyAsync(() -> {
            try {
                return RawHttp.exchange(g.port(), RawHttp.post("/services/S", "", BODY));
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        TestBackend.Held held = a.takeHeld(10_000);
        assertNotNull(held);
        for (int i = 0; i < 30; i++) {
            try (Socket s = RawHttp.open(g.port(), 10_000)) {
                s.getOutputStream().write(RawHttp.post("/services/S", "", BODY).getBytes(StandardCharsets.UTF_8));
                s.getOutputStream().flush();
                int before = i;
                await().atMost(Duration.ofSeconds(5)).until(() -> g.queues().counts().waiting(0) == before + 1);
            }
        }
        held.reply("<r/>");
        assertEquals(200, first.get(10, TimeUnit.SECONDS).status());
        await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().faulted(FaultReason.CLIENT_ABORTED) == 30);
        assertEquals(1, a.received(), "no abandoned request reached the server");
        a.behave(TestBackend.echo());
        assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/S", "", BODY)).status());
        assertNoServerBlamed(g);
        assertBalanced(g);
    }

    /** A client that does not read a large answer is cut off after the write timeout; a small answer frees the slot at once. */
    @Test
    void slowReader_doesNotHoldTheServer() throws Exception {
        TestBackend a = backend();
        byte[] piece = "x".repeat(64 * 1024).getBytes(StandardCharsets.UTF_8);
        int pieces = 1024; // 64 MiB: more than loopback's socket buffers hold for a client that reads nothing
        a.behave(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response,
                                  Callback callback) {
                response.getHeaders().put("Content-Type", "text/xml");
                if (!request.getHttpURI().getPath().endsWith("big")) {
                    response.write(true, ByteBuffer.wrap("<small/>".getBytes(StandardCharsets.UTF_8)), callback);
                    return true;
                }
                response.getHeaders().put("Content-Length", (long) piece.length * pieces);
                new IteratingCallback() {
                    int sent;

                    @Override
                    protected Action process() {
                        if (sent == pieces) {
                            return Action.SUCCEEDED;
                        }
                        sent++;
                        response.write(sent == pieces, ByteBuffer.wrap(piece), this);
                        return Action.SCHEDULED;
                    }

                    @Override
                    protected void onCompleteSuccess() {
                        callback.succeeded();
                    }

                    @Override
                    protected void onCompleteFailure(Throwable x) {
                        callback.failed(x);
                    }
                }.iterate();
                return true;
            }
        });
        Gateway g = gateway(", bufferedResponseBytes: 64KiB, responseWriteTimeout: 500ms", server("a", a.url(), 1));
        // a small answer to a client that never reads: held whole, the slot is free at once
        try (Socket small = RawHttp.open(g.port(), 10_000)) {
            small.setReceiveBufferSize(4096);
            small.getOutputStream().write(RawHttp.post("/services/small", "", BODY).getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(5)).until(() -> a.received() == 1 && g.queues().server(0).outstanding() == 0);
            // a large answer to a client that never reads: cut off after the write timeout
            try (Socket large = RawHttp.open(g.port(), 10_000)) {
                large.setReceiveBufferSize(4096);
                large.getOutputStream().write(RawHttp.post("/services/big", "", BODY).getBytes(StandardCharsets.UTF_8));
                await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().faulted(FaultReason.RESPONSE_TIMEOUT) == 1);
                await().atMost(Duration.ofSeconds(5)).until(() -> g.queues().server(0).outstanding() == 0);
                assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/small", "", BODY)).status());
            }
        }
        assertNoServerBlamed(g);
        assertBalanced(g);
    }

    @Test
    void forwardingHeaders_fromUntrustedClient_replaced_fromTrustedProxy_kept() throws Exception {
        ScriptedBackend b = new ScriptedBackend();
        closeables.add(b);
        String spoof = "X-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: https\r\nForwarded: host=evil.example;proto=https\r\n"
                + "X-Forwarded-For: 10.1.1.1\r\nX_Forwarded_Host: evil.example\r\nTransfer_Encoding: chunked\r\n";
        Gateway untrusting = gateway("", server("a", b.url(), 1));
        assertEquals(200, RawHttp.exchange(untrusting.port(), RawHttp.post("/services/S", spoof, BODY)).status());
        String head = b.heads().get(0);
        assertFalse(head.contains("evil.example"), head);
        assertFalse(head.contains("Forwarded: "), head);
        assertFalse(head.contains("Transfer_Encoding"), head);
        assertFalse(head.contains("10.1.1.1"), head);
        assertTrue(head.contains("\r\nX-Forwarded-Host: gw.example\r\n"), head);
        assertTrue(head.contains("\r\nX-Forwarded-For: 127.0.0.1\r\n"), head);
        assertTrue(head.contains("\r\nX-Forwarded-Proto: http\r\n"), head);

        Gateway trusting = gateway(", trustedProxies: [\"127.0.0.0/8\"]", server("a", b.url(), 1));
        assertEquals(200, RawHttp.exchange(trusting.port(), RawHttp.post("/services/S", spoof, BODY)).status());
        head = b.heads().get(1);
        assertTrue(head.contains("\r\nX-Forwarded-Host: evil.example\r\n"), "a trusted proxy's word is kept: " + head);
        assertTrue(head.contains("\r\nX-Forwarded-For: 10.1.1.1, 127.0.0.1\r\n"), head);
        assertFalse(head.contains("Transfer_Encoding"), "disguised framing never passes: " + head);

        Gateway refusing = gateway(", underscoreHeaders: refuse", server("a", b.url(), 1));
        assertClientFault(RawHttp.exchange(refusing.port(), RawHttp.post("/services/S", "Content_Length: 3\r\n", BODY)),
                FaultReason.MALFORMED_REQUEST);
        assertEquals(2, b.heads().size());
    }

    @Test
    void endToEndLines_reachTheServerOnceInOrder_hopByHopLinesBetweenThemDropped() throws Exception {
        ScriptedBackend b = new ScriptedBackend();
        closeables.add(b);
        Gateway g = gateway("", server("a", b.url(), 1));
        String fields = "X-A: 1\r\nConnection: X-B\r\nX-B: hop\r\nx-lower: Mixed  Case  Value\r\nKeep-Alive: timeout=5\r\n"
                + "X-Last: z\r\n";
        assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/S", fields, BODY)).status());
        String head = b.heads().get(0);
        String kept = "\r\nContent-Type: text/xml; charset=utf-8\r\nSOAPAction: \"urn:getQuote\"\r\nX-A: 1\r\n"
                + "x-lower: Mixed  Case  Value\r\nX-Last: z\r\n";
        assertTrue(head.contains(kept), "the end-to-end lines as sent, in their order, each once: " + head);
        assertEquals(head.indexOf("X-A: "), head.lastIndexOf("X-A: "), head);
        for (String hop : List.of("X-B:", "Keep-Alive", "Upgrade", "Connection")) {
            assertFalse(head.contains(hop), hop + " must not reach the server: " + head);
        }
        assertTrue(head.contains("\r\nContent-Length: " + BODY.length() + "\r\n"), "the framing stated once, by the gateway: " + head);
    }

    /**
     * {@code Upgrade} without the {@code upgrade} connection option (a client's protocol error): Jetty's listener refuses
     * it (its HTTP/1.1 connection answers 400 to any such request), the relay listener ignores the field as RFC 9110
     * lets a server and forwards the request without it. Either way nothing is upgraded and the field never reaches
     * a server; the test pins each listener's answer so that a change on either side is seen.
     */
    @Test
    void upgradeWithoutConnectionUpgrade_jettyRefuses_relayIgnores_neverReachesTheServer() throws Exception {
        ScriptedBackend b = new ScriptedBackend();
        closeables.add(b);
        Gateway g = gateway("", server("a", b.url(), 1));
        int forwarded = 0;
        for (String fields : List.of("Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n", "Upgrade: websocket\r\n")) {
            RawHttp.Response r = RawHttp.exchange(g.port(), RawHttp.post("/services/S", fields, BODY));
            if (!TestConfigs.relay()) {
                assertEquals(400, r.status(), fields + r);
                assertClientFault(r, FaultReason.MALFORMED_REQUEST);
                assertEquals(0, b.heads().size(), "a refused request never reaches the server");
                continue;
            }
            assertEquals(200, r.status(), "the relay listener ignores the upgrade: " + fields + r);
            String head = b.heads().get(forwarded++);
            for (String hop : List.of("Upgrade", "HTTP2-Settings", "h2c", "websocket")) {
                assertFalse(head.contains(hop), hop + " must not reach the server: " + head);
            }
        }
        assertNoServerBlamed(g);
    }

    @Test
    void forwardingLines_sameForEveryRequestOnAConnection_hostPerRequest() throws Exception {
        ScriptedBackend b = new ScriptedBackend();
        closeables.add(b);
        Gateway g = gateway("", server("a", b.url(), 1));
        try (Socket s = new Socket("127.0.0.1", g.port())) {
            s.setSoTimeout(10_000);
            for (String host : List.of("one.example", "two.example:8080")) {
                String request = RawHttp.post("/services/S", "", BODY).replace("Host: gw.example", "Host: " + host);
                s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
                assertEquals(200, RawHttp.read(s.getInputStream()).status());
            }
        }
        for (int i = 0; i < 2; i++) {
            String head = b.heads().get(i);
            assertTrue(head.contains("\r\nX-Forwarded-For: 127.0.0.1\r\nX-Forwarded-Proto: http\r\nX-Forwarded-Port: " + g.port()
                    + "\r\n"), head);
            assertTrue(head.contains("\r\nX-Forwarded-Host: " + List.of("one.example", "two.example:8080").get(i) + "\r\n"), head);
        }
    }

    @Test
    void http10WithoutHost_getsTheGatewaysAddress_notTheServers() throws Exception {
        ScriptedBackend b = new ScriptedBackend();
        closeables.add(b);
        Gateway g = gateway("", server("a", b.url(), 1));
        RawHttp.Response r = RawHttp.exchange(g.port(), "GET /services/S?wsdl HTTP/1.0\r\n\r\n");
        assertEquals(200, r.status());
        String head = b.heads().get(0);
        assertTrue(head.contains("\r\nHost: 127.0.0.1:" + g.port() + "\r\n"), head);
        assertFalse(head.contains(b.url().substring("http://".length())), head);
    }
}
