package io.slagate.gateway;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import io.slagate.gateway.testing.TestConfigs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where the two client listeners could answer the same bytes differently, the choice made and pinned on both (the
 * build runs this once on each): obs-text in a field value taken, as Jetty does; an Expect in an HTTP/1.0 request
 * ignored (RFC 9110 10.1.1); a request line past the head's bound 414; an absolute-form target whose authority is not
 * the Host field refused (RFC 9112 3.2.2); requests pipelined before the client shut its side each answered; a body
 * past the limit refused while its client still sends, without a reset under it.
 */
class ListenerChoicesTest {
    private static final String BODY = Soap.envelope11("getQuote");
    private TestBackend backend;
    private Gateway gw;

    @BeforeEach
    void start() throws Exception {
        backend = new TestBackend();
        backend.behave(TestBackend.echo());
        gw = new Gateway(TestConfigs.parse("""
                gateway: { listen: "127.0.0.1:0", admin: "127.0.0.1:0" }
                servers: [ { id: s1, url: "%s", concurrency: 4 } ]
                classes: [ { name: basic, target: 1s } ]
                """.formatted(backend.url()), "choices")).start();
    }

    @AfterEach
    void stop() throws Exception {
        gw.stop(Duration.ofSeconds(1));
        backend.close();
    }

    private String raw(String request, boolean halfClose) throws Exception {
        try (Socket s = RawHttp.open(gw.port(), 3000)) {
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            if (halfClose) {
                s.shutdownOutput();
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            InputStream in = s.getInputStream();
            byte[] b = new byte[8192];
            try {
                int n;
                while ((n = in.read(b)) > 0) {
                    out.write(b, 0, n);
                }
            } catch (java.net.SocketTimeoutException idle) {
                out.write("[open]".getBytes());
            }
            return out.toString(StandardCharsets.ISO_8859_1).replaceAll("(?s)<\\?xml.*?Envelope>", "<body>");
        }
    }

    private static String status(String answer) {
        return answer.lines().findFirst().orElse("");
    }

    @Test
    void obsTextInAValue_isTakenAndForwarded() throws Exception {
        assertEquals("HTTP/1.1 200 OK", status(raw(RawHttp.post("/svc", "X-Note: caf\u00e9\r\n", BODY), false)));
        assertEquals("caf\u00e9", backend.lastHeaders().get("X-Note"), "the byte 0xE9 reached the server as it came");
    }

    @Test
    void anExpectationInHttp10_isIgnored() throws Exception {
        for (String expect : new String[] {"100-continue", "fancy"}) {
            String answer = raw(RawHttp.post("/svc", "Expect: " + expect + "\r\n", BODY).replace("HTTP/1.1\r\n", "HTTP/1.0\r\n"), true);
            assertEquals(true, status(answer).matches("HTTP/1\\.[01] 200 OK"), expect + ": " + answer);
            assertEquals(false, answer.contains("100 Continue"), "no interim answer to a 1.0 client: " + answer);
        }
    }

    @Test
    void aRequestLineLongerThanTheHeadBound_is414() throws Exception {
        assertEquals("HTTP/1.1 414 URI Too Long", status(raw("GET /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: a\r\n\r\n", true)));
    }

    @Test
    void anAbsoluteTarget_mustNameTheHostsAuthority() throws Exception {
        String post = RawHttp.post("/svc", "", BODY);
        int before = backend.received();
        assertEquals("HTTP/1.1 400 Bad Request", status(raw(post.replace("POST /svc", "POST http://other.example/svc"), true)));
        assertEquals(before, backend.received(), "refused before any server");
        assertEquals("HTTP/1.1 200 OK", status(raw(post.replace("POST /svc", "POST http://gw.example/svc"), true)));
    }

    @Test
    void requestsPipelinedBeforeAHalfClose_areEachAnswered_thenTheConnectionEnds() throws Exception {
        String post = RawHttp.post("/svc", "", BODY);
        String answers = raw(post + post + post, true);
        assertEquals(3, answers.split("HTTP/1.1 200 OK", -1).length - 1, answers);
        assertEquals(false, answers.endsWith("[open]"), "closed once the last is answered");
    }

    /**
     * A body past the limit is refused (request-too-large) while its client is still sending, and the connection is
     * not reset under it: the gateway shuts its side and drops what still comes, so the client writes its body to the
     * end and reads its answer (a close with unread bytes sends a reset, and the client's next write fails with a
     * broken pipe, its answer possibly lost with it).
     */
    @Test
    void aBodyPastTheLimit_refusedWhileTheClientStillSends_withoutAReset() throws Exception {
        Gateway g = new Gateway(TestConfigs.parse("""
                gateway: { listen: "127.0.0.1:0", admin: "127.0.0.1:0", maxRequestBytes: 16KiB }
                servers: [ { id: s1, url: "%s", concurrency: 4 } ]
                classes: [ { name: basic, target: 1s } ]
                """.formatted(backend.url()), "limit")).start();
        try {
            byte[] chunk = ("4000\r\n" + "x".repeat(0x4000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            byte[] data = "x".repeat(0x4000).getBytes(StandardCharsets.US_ASCII);
            String chunkedHead = "POST /svc HTTP/1.1\r\nHost: gw.example\r\nContent-Type: text/xml\r\nSOAPAction: \"urn:x\"\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n";
            String lengthHead = "POST /svc HTTP/1.1\r\nHost: gw.example\r\nContent-Type: text/xml\r\nSOAPAction: \"urn:x\"\r\n"
                    + "Content-Length: " + 256 * data.length + "\r\n\r\n";
            for (String[] wire : new String[][] {{chunkedHead, "0\r\n\r\n"}, {lengthHead, ""}}) {
                try (Socket s = RawHttp.open(g.port(), 15_000)) {
                    OutputStream out = s.getOutputStream();
                    CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                        try {
                            out.write(wire[0].getBytes(StandardCharsets.US_ASCII));
                            for (int i = 0; i < 256; i++) { // 4 MiB: far past what the socket buffers hold
                                out.write(wire[1].isEmpty() ? data : chunk);
                            }
                            out.write(wire[1].getBytes(StandardCharsets.US_ASCII));
                            s.shutdownOutput();
                        } catch (IOException x) {
                            throw new UncheckedIOException(x);
                        }
                    });
                    RawHttp.Response r = RawHttp.read(s.getInputStream());
                    assertEquals("request-too-large", r.header("X-Slagate-Fault"), r.status() + " " + r.body());
                    sent.get(15, TimeUnit.SECONDS); // the body written whole: no reset under the client
                    assertEquals(-1, s.getInputStream().read(), "closed after the answer, once the client is done");
                }
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().inFlight() == 0);
            assertEquals(2, g.metrics().totals().faulted(), "both refusals counted");
        } finally {
            g.stop(Duration.ofSeconds(1));
        }
    }
}
