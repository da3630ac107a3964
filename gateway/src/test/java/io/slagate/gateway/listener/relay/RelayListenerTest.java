package io.slagate.gateway.listener.relay;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.config.ConfigLoader;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The relay listener ({@code gateway.listener: relay}) on real sockets, where its reading differs in
 * kind from Jetty's: several requests in one write (each answered, in order, with its own answer),
 * a smuggling attempt (refused with its status; the request hidden behind it never reaches a server,
 * and the connection is closed, not resynchronised), HEAD, HTTP/1.0 and a chunked request body. The
 * gateway's boundary tests run on this listener as well (the build's relay-listener run).
 */
class RelayListenerTest {
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private Gateway gateway(TestBackend backend) throws Exception {
        String yaml = "gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\", listener: relay }\n"
                + "servers:\n  - { id: s1, url: \"" + backend.url() + "\", concurrency: 4 }\n"
                + "classes:\n  - { name: basic, target: 1s, queueBound: 1000 }\n";
        Gateway g = new Gateway(ConfigLoader.parse(yaml, "relay.yaml")).start();
        closeables.add(() -> g.stop(Duration.ofSeconds(2)));
        return g;
    }

    private TestBackend backend() throws Exception {
        TestBackend b = new TestBackend();
        closeables.add(b);
        return b;
    }

    private static void assertBalanced(Gateway g) {
        await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().inFlight() == 0);
        assertEquals(g.metrics().totals().arrived(), g.metrics().totals().completed() + g.metrics().totals().faulted(), "arrived = completed + faulted");
    }

    @Test
    void pipelinedRequests_eachAnsweredInOrder_withItsOwnBody() throws Exception {
        pipelined(5);
    }

    /** More pipelined bytes than the connection's read buffer holds: the rest waits in the socket, none is lost. */
    @Test
    void pipelinedPastTheReadBuffer_eachAnsweredInOrder() throws Exception {
        pipelined(60);
    }

    private void pipelined(int count) throws Exception {
        TestBackend b = backend(); // echoes the body
        Gateway g = gateway(b);
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < count; i++) {
            all.append(RawHttp.post("/svc", "", Soap.envelope11("op" + i)));
        }
        try (Socket s = RawHttp.open(g.port(), 15_000)) {
            s.getOutputStream().write(all.toString().getBytes(StandardCharsets.UTF_8));
            InputStream in = s.getInputStream();
            for (int i = 0; i < count; i++) {
                RawHttp.Response r = RawHttp.read(in);
                assertEquals(200, r.status(), r.body());
                assertTrue(r.body().contains("<ns:op" + i + " "), "answer " + i + " is request " + i + "'s: " + r.body());
            }
        }
        assertTrue(all.length() > 8 * 1024 || count < 10, "the long case writes more than the read buffer: " + all.length());
        assertEquals(count, b.received());
        assertBalanced(g);
    }

    @Test
    void contentLengthWithChunked_refused400_hiddenRequestNeverForwarded_connectionClosed() throws Exception {
        TestBackend b = backend();
        Gateway g = gateway(b);
        String hidden = RawHttp.post("/admin-only", "", Soap.envelope11("hidden"));
        String smuggler = "POST /svc HTTP/1.1\r\nHost: gw.example\r\nContent-Type: text/xml\r\nSOAPAction: \"urn:x\"\r\n"
                + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + hidden;
        try (Socket s = RawHttp.open(g.port(), 15_000)) {
            s.getOutputStream().write(smuggler.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            RawHttp.Response r = RawHttp.read(in);
            assertEquals(400, r.status());
            assertEquals("malformed-request", r.header("X-Slagate-Fault"));
            assertEquals("close", r.header("Connection"));
            assertEquals(-1, in.read(), "nothing after the refusal: the connection ends");
        }
        assertEquals(0, b.received(), "neither the refused request nor the one behind it reached a server");
        assertEquals(0, g.metrics().totals().arrived(), "a head outside the grammar is never a class's arrival");
    }

    @Test
    void head_getsTheServersFields_noBody_andTheConnectionGoesOn() throws Exception {
        TestBackend b = backend();
        Gateway g = gateway(b);
        try (Socket s = RawHttp.open(g.port(), 15_000)) {
            OutputStream out = s.getOutputStream();
            out.write("HEAD /svc?wsdl HTTP/1.1\r\nHost: gw.example\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            String head = headOf(in);
            assertTrue(head.startsWith("HTTP/1.1 200 "), head);
            out.write(RawHttp.post("/svc", "", Soap.envelope11("after")).getBytes(StandardCharsets.UTF_8));
            RawHttp.Response r = RawHttp.read(in);
            assertEquals(200, r.status());
            assertTrue(r.body().contains("<ns:after "), "the next answer starts right after HEAD's head: " + r.body());
        }
        assertBalanced(g);
    }

    @Test
    void http10_answeredAndClosed_chunkedBody_forwardedWithItsLength() throws Exception {
        TestBackend b = backend();
        Gateway g = gateway(b);
        String body = Soap.envelope11("chunky");
        String half = body.substring(0, body.length() / 2);
        String rest = body.substring(body.length() / 2);
        String chunked = "POST /svc HTTP/1.1\r\nHost: gw.example\r\nContent-Type: text/xml\r\nSOAPAction: \"urn:x\"\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(half.length()) + ";ext=1\r\n" + half + "\r\n"
                + Integer.toHexString(rest.length()) + "\r\n" + rest + "\r\n0\r\n\r\n";
        RawHttp.Response r = RawHttp.exchange(g.port(), chunked);
        assertEquals(200, r.status());
        assertEquals(body, r.body());
        assertEquals(String.valueOf(body.length()), b.lastHeaders().get("Content-Length"), "a whole body goes upstream with its length");
        assertNull(b.lastHeaders().get("Transfer-Encoding"));

        try (Socket s = RawHttp.open(g.port(), 15_000)) {
            String post10 = RawHttp.post("/svc", "", body).replaceFirst("HTTP/1.1", "HTTP/1.0");
            s.getOutputStream().write(post10.getBytes(StandardCharsets.UTF_8));
            InputStream in = s.getInputStream();
            RawHttp.Response r10 = RawHttp.read(in);
            assertEquals(200, r10.status());
            assertEquals(body, r10.body());
            assertEquals(-1, in.read(), "HTTP/1.0 without keep-alive: closed after its answer");
        }
        assertBalanced(g);
    }

    private static String headOf(InputStream in) throws Exception {
        StringBuilder h = new StringBuilder();
        while (!h.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            h.append((char) c);
        }
        return h.toString();
    }
}
