package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Hostile and broken input over raw sockets: every request gets one SOAP answer, and nothing grows per customer. */
class BadInputTest {
    private TestBackend backend;
    private Gateway gateway;

    @BeforeEach
    void start() throws Exception {
        backend = new TestBackend();
        backend.behave(TestBackend.echo());
        gateway = new Gateway(TestConfigs.parse("""
                gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", headerTimeout: 1s, maxConnections: 20 }
                servers: [ { id: s1, url: "%s", concurrency: 8 } ]
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                classification: { subscriptions: { gold: { "*": gold } }, rules: [ { grade: gold, class: premium } ], defaultClass: basic }
                """.formatted(backend.url()), "bad-input")).start();
    }

    @AfterEach
    void stop() throws Exception {
        gateway.stop(Duration.ofSeconds(2));
        backend.close();
    }

    /** Sends raw bytes, reads until the server closes or the response is complete; returns status line and body. */
    private String[] raw(byte[] request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", gateway.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request);
            out.flush();
            s.shutdownOutput();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.ISO_8859_1);
            int split = text.indexOf("\r\n\r\n");
            return new String[] {text.substring(0, text.indexOf("\r\n")), text.substring(0, split), text.substring(split + 4)};
        }
    }

    @Test
    void oversizedHeaders_get431_withASoapFault() throws Exception {
        String junk = "x".repeat(20_000);
        String[] r = raw(("POST /svc HTTP/1.1\r\nHost: x\r\nX-Junk: " + junk + "\r\nContent-Type: text/xml\r\nContent-Length: 0\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        assertTrue(r[0].contains(" 431 "), r[0]);
        assertTrue(r[1].toLowerCase().contains("content-type: text/xml"), r[1]);
        Soap.Fault f = Soap.parseFault(r[2].getBytes(StandardCharsets.ISO_8859_1));
        assertEquals("request-too-large", f.reason());
    }

    @Test
    void garbageRequestLine_gets400_withASoapFault() throws Exception {
        String[] r = raw("THIS IS NOT HTTP\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertTrue(r[0].contains(" 400 "), r[0]);
        assertEquals("malformed-request", Soap.parseFault(r[2].getBytes(StandardCharsets.ISO_8859_1)).reason());
    }

    @Test
    void ambiguousPaths_get400_neverForwarded() throws Exception {
        String body = Soap.envelope11("getQuote");
        for (String target : new String[] {"/services/%2e%2e/admin", "/services/a%2Fb/..;/admin", "/services/%2e/x"}) {
            String[] r = raw(("POST " + target + " HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nSOAPAction: \"urn:a\"\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.ISO_8859_1));
            assertTrue(r[0].contains(" 400 "), target + ": " + r[0]);
            assertEquals("malformed-request", Soap.parseFault(r[2].getBytes(StandardCharsets.ISO_8859_1)).reason(), target);
        }
        assertEquals(0, backend.received(), "a path the server could read two ways never reaches it");
    }

    @Test
    void unknownExpectation_get417_neverForwarded() throws Exception {
        String body = Soap.envelope11("getQuote");
        String[] r = raw(("POST /svc HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nSOAPAction: \"urn:a\"\r\nExpect: 200-ok\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.ISO_8859_1));
        assertTrue(r[0].contains(" 417 "), r[0]);
        assertEquals(0, backend.received(), "an expectation the gateway cannot meet is not passed on");
    }

    @Test
    void invalidUtf8AndAbsurdValues_answeredOnce() throws Exception {
        byte[] head = ("POST /svc HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nSOAPAction: \"urn:").getBytes(StandardCharsets.ISO_8859_1);
        byte[] bad = {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xFE};
        String body = Soap.envelope11("getQuote");
        byte[] tail = ("\"\r\nAuthorization: Basic !!!not-base64!!!\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body)
                .getBytes(StandardCharsets.ISO_8859_1);
        byte[] req = Arrays.copyOf(head, head.length + bad.length + tail.length);
        System.arraycopy(bad, 0, req, head.length, bad.length);
        System.arraycopy(tail, 0, req, head.length + bad.length, tail.length);
        String[] r = raw(req);
        assertTrue(r[0].startsWith("HTTP/1.1 "), "one HTTP answer: " + r[0]);
        // the client can hold the answer while the gateway is still counting it
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gateway.metrics().inFlight() == 0);
        assertEquals(gateway.metrics().totals().arrived(), gateway.metrics().totals().completed() + gateway.metrics().totals().faulted());
    }

    @Test
    void thousandsOfCustomers_leaveNoPerCustomerState() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 2000; i++) {
            String auth = Base64.getEncoder().encodeToString(("customer-" + i + ":pw").getBytes(StandardCharsets.UTF_8));
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/svc"))
                    .header("Content-Type", "text/xml").header("SOAPAction", "urn:getQuote").header("Authorization", "Basic " + auth)
                    .POST(HttpRequest.BodyPublishers.ofString(Soap.envelope11("getQuote"))).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
        }
        String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.adminPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertFalse(metrics.contains("customer-"), "customers never become metric tags (unbounded series)");
        assertEquals(2000, gateway.metrics().totals().completed());
    }

    /** Slowloris: a header line trickling in one byte every 200 ms is cut off after the 1 s header timeout. */
    @Test
    void slowHeaders_connectionClosedAfterTheHeaderTimeout() throws Exception {
        try (Socket s = new Socket("127.0.0.1", gateway.port())) {
            s.setSoTimeout(200);
            OutputStream out = s.getOutputStream();
            out.write("POST /svc HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.ISO_8859_1));
            long start = System.nanoTime();
            boolean closed = false;
            while (!closed && System.nanoTime() - start < 10_000_000_000L) {
                try {
                    out.write('a');
                    out.flush();
                    closed = s.getInputStream().read() == -1; // waits up to 200 ms: the pace of the trickle
                } catch (SocketTimeoutException stillOpen) {
                    // the server is still waiting for the headers
                } catch (IOException reset) {
                    closed = true;
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(closed, "the slow connection was closed");
            assertTrue(seconds < 5, "within a few header timeouts: " + seconds + " s");
        }
        // a normal request still works
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/svc"))
                .header("Content-Type", "text/xml").POST(HttpRequest.BodyPublishers.ofString(Soap.envelope11("getQuote"))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
    }

    /** 25 idle connections against a limit of 20: the gateway holds at most 20; once they go, a request is served. */
    @Test
    void connectionLimit_holdsAtMostTheLimit() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 25; i++) {
                idle.add(new Socket("127.0.0.1", gateway.port())); // the kernel completes the handshake; Jetty accepts up to the limit
            }
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gatewayConnections() == 20);
            assertEquals(20, gatewayConnections(), "never more than the limit");
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gatewayConnections() < 20);
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/svc"))
                .header("Content-Type", "text/xml").POST(HttpRequest.BodyPublishers.ofString(Soap.envelope11("getQuote"))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
    }

    private int gatewayConnections() {
        return gateway.dataPlane().connectedEndPoints();
    }
}
