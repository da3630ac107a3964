package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.stats.GatewayMetrics.ServerError;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.ScriptedBackend;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.StrayAnswers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The gateway → server boundary, against servers that misbehave: what a server sends
 * outside its answer reaches no client, an answer that breaks HTTP is the server's fault
 * ({@code server-failed}), and nothing of it is relayed. Every case checks the reason, that the
 * server was the one blamed, and the counters.
 */
class ServerBoundaryTest {
    private static final String BODY = Soap.envelope11("getQuote");
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private ScriptedBackend backend() throws Exception {
        ScriptedBackend b = new ScriptedBackend();
        closeables.add(b);
        return b;
    }

    private Gateway gateway(String url, int concurrency) throws Exception {
        String yaml = "gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\", serverTimeout: 5s }\n"
                + "servers:\n  - { id: s1, url: \"" + url + "\", concurrency: " + concurrency + " }\n"
                + "classes:\n  - { name: basic, target: 1s, queueBound: 10000, queueTimeout: 60s }\n";
        Gateway g = new Gateway(TestConfigs.parse(yaml, "test.yaml")).start();
        closeables.add(() -> g.stop(Duration.ofSeconds(2)));
        return g;
    }

    private static void assertBalanced(Gateway g) {
        await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().inFlight() == 0);
        assertEquals(g.metrics().totals().arrived(), g.metrics().totals().completed() + g.metrics().totals().faulted(), "arrived = completed + faulted");
    }


    /**
     * A server that writes a second, complete (forged) answer 50 ms after each real one. Over 500
     * requests, 32 at a time: no client receives another client's answer, nor the forged one. The
     * gateway reuses a server's connections only after one stayed quiet after an answer; this server's
     * first quiet check hears the forged answer, and its connections are never reused.
     */
    @Test
    void strayAnswerAfterEach_noCrossedAnswers() throws Exception {
        ScriptedBackend b = backend();
        StrayAnswers.misbehave(b);
        Gateway g = gateway(b.url(), 16);
        StrayAnswers.Outcome o = StrayAnswers.run(g.port(), 500, 32, n -> RawHttp.post("/services/S", "X-Req: " + n + "\r\n", BODY));
        System.out.println("stray-answer server: 500 requests, " + o + ", connections " + b.connectionsAccepted());
        assertEquals(0, o.crossed(), "answers that were another client's");
        assertEquals(0, o.forged(), "a connection is reused only once the server proved it speaks when asked: none was");
        assertEquals(500, o.own() + g.metrics().totals().faulted(), "every request answered once");
        assertFalse(g.dataPlane().reusesConnections(0), "the server that spoke out of turn is distrusted");
        assertTrue(g.queues().server(0).inRotation());
        assertBalanced(g);
    }

    private void assertServerFailed(String answer, String mustNotLeak) throws Exception {
        ScriptedBackend b = backend();
        b.answer(new ScriptedBackend.Answer(answer, false));
        Gateway g = gateway(b.url(), 2);
        for (int i = 0; i < 4; i++) {
            RawHttp.Response r = RawHttp.exchange(g.port(), RawHttp.post("/services/S", "", BODY));
            assertEquals("server-failed", r.header("X-Slagate-Fault"), "status " + r.status() + " " + r.headers());
            assertTrue(r.body().contains("<faultcode>soap:Server</faultcode>"), r.body());
            if (mustNotLeak != null) {
                assertFalse(r.headers().toString().contains(mustNotLeak) || r.body().contains(mustNotLeak), r.headers().toString());
            }
        }
        assertEquals(4, g.metrics().faulted(FaultReason.SERVER_FAILED));
        assertEquals(4, g.metrics().servers().errors(0, ServerError.BROKEN), "the server is the one charged");
        assertTrue(g.queues().server(0).inRotation(), "a server that answers, however badly, is not unreachable");
        assertBalanced(g);
    }

    @Test
    void unrequested101_serverFailed() throws Exception {
        assertServerFailed("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nraw bytes", "websocket");
    }

    @Test
    void statusOutsideHttp_serverFailed() throws Exception {
        assertServerFailed("HTTP/1.1 999 Odd\r\nContent-Length: 4\r\n\r\n<ok>", null);
    }

    @Test
    void bareLfInsideHeader_serverFailed_noInjectedHeader() throws Exception {
        assertServerFailed("HTTP/1.1 200 OK\r\nX-Note: a\nSet-Cookie: session=evil\r\nContent-Length: 4\r\n\r\n<ok>", "session=evil");
    }

    @Test
    void hugeResponseHead_serverFailed() throws Exception {
        assertServerFailed("HTTP/1.1 200 OK\r\nX-Big: " + "a".repeat(48 * 1024) + "\r\nContent-Length: 4\r\n\r\n<ok>", null);
    }

    @Test
    void fiveThousandHeaderLines_serverFailed() throws Exception {
        assertServerFailed("HTTP/1.1 200 OK\r\n" + "X-L: 1\r\n".repeat(5000) + "Content-Length: 4\r\n\r\n<ok>", null);
    }

    /**
     * Answers a client's parser could frame otherwise than the gateway (a length twice, listed or signed, a length
     * beside chunked, a coding other than chunked, chunked in HTTP/1.0, a chunk size that is not hexadecimal) or that
     * fold: the server is charged, the client gets a fault, never the answer's bytes.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nContent-Length: 4\r\n\r\n<ok>",
        "HTTP/1.1 200 OK\r\nContent-Length: 4, 4\r\n\r\n<ok>",
        "HTTP/1.1 200 OK\r\nContent-Length: +4\r\n\r\n<ok>",
        "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<ok>\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n4\r\n<ok>\r\n0\r\n\r\n",
        "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<ok>\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0x4\r\n<ok>\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX-Note: a\r\n folded: evil\r\nContent-Length: 4\r\n\r\n<ok>",
    })
    void answersFramedTwoWays_serverFailed(String answer) throws Exception {
        assertServerFailed(answer, "<ok>");
    }

    @Test
    void resetMidBody_serverFailedFault_notATruncatedSuccess() throws Exception {
        ScriptedBackend b = backend();
        b.answer(new ScriptedBackend.Answer("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n<partial", true));
        Gateway g = gateway(b.url(), 1);
        RawHttp.Response r = RawHttp.exchange(g.port(), RawHttp.post("/services/S", "", BODY));
        assertEquals("server-failed", r.header("X-Slagate-Fault"));
        assertEquals(1, g.metrics().servers().errors(0, ServerError.BROKEN));
        assertBalanced(g);
    }

    /**
     * A 204 or 304 that announces a body and sends it: relayed without it (the server, not the client, is
     * blamed: a protocol error, never malformed-request), the bytes reach no one, the connection is not reused.
     */
    @ParameterizedTest
    @ValueSource(strings = {"204 No Content", "304 Not Modified"})
    void bodilessStatusWithAnnouncedBody_relayedWithoutIt_serverBlamed(String statusLine) throws Exception {
        ScriptedBackend b = backend();
        b.answer(new ScriptedBackend.Answer("HTTP/1.1 " + statusLine + "\r\nContent-Length: 5\r\nX-Kept: yes\r\n\r\nhello", false));
        Gateway g = gateway(b.url(), 1);
        int status = Integer.parseInt(statusLine.substring(0, 3));
        for (int i = 0; i < 3; i++) {
            RawHttp.Response r = RawHttp.exchange(g.port(), RawHttp.post("/services/S", "", BODY));
            assertEquals(status, r.status(), "the server's status, not a fault");
            assertEquals("", r.body());
            assertEquals("yes", r.header("X-Kept"));
        }
        assertEquals(3, b.connectionsAccepted(), "a connection with bytes left after the answer is never reused");
        assertEquals(3, g.metrics().servers().errors(0, ServerError.PROTOCOL), "the server's protocol error, each time");
        assertEquals(0, g.metrics().faulted(FaultReason.MALFORMED_REQUEST), "the client is not blamed");
        assertBalanced(g); // a completion is counted once the last write's callback ran, maybe just after the client read it
        assertEquals(3, g.metrics().totals().completed(), "every answer relayed");
    }

    /** 204 with a body: the 204 is relayed, the body bytes reach no one, the connection is not reused. */
    @Test
    void noContentWithBody_bodyDropped_connectionNotReused() throws Exception {
        ScriptedBackend b = backend();
        b.answer(new ScriptedBackend.Answer("HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n<forged>", false));
        Gateway g = gateway(b.url(), 1);
        for (int i = 0; i < 3; i++) {
            RawHttp.Response r = RawHttp.exchange(g.port(), RawHttp.post("/services/S", "", BODY));
            assertEquals(204, r.status());
            assertEquals("", r.body());
        }
        assertEquals(3, b.connectionsAccepted(), "a connection with bytes left after the answer is never reused");
        assertTrue(g.metrics().servers().errors(0, ServerError.PROTOCOL) >= 1);
        assertBalanced(g);
    }
}
