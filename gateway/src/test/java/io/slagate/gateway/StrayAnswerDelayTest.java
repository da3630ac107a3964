package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.testing.LateTail;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.ScriptedBackend;
import io.slagate.gateway.testing.Soap;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Stray answers that come long after the real one: 0.4 s (after the 250 ms quiet check has passed)
 * and 3 s, from a server that does so after every {@code ?mode=late_tail} answer, under eight
 * keep-alive clients of two customers. A stray that arrives while its connection is idle distrusts the
 * server at once (the idle connection is read); one that arrives while the connection already carries
 * the next request is that request's answer, and HTTP/1.1 cannot tell. Where those land is what the
 * reuse mode decides: {@code shared} anyone's until the server is distrusted, {@code customer} only the
 * same customer's, {@code client-connection} only the same client's.
 *
 * <p>Each case prints one row of bench/results/stray-answers.md (bench/stray-answers.sh collects them).
 */
class StrayAnswerDelayTest {
    private static final String BODY = Soap.envelope11("getQuote");
    private static final int CLIENTS = 8;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private String server(long delayMillis) throws Exception {
        ScriptedBackend b = new ScriptedBackend();
        closeables.add(b);
        LateTail.misbehave(b, delayMillis);
        return b.url();
    }

    private Gateway gateway(String reuse, long delayMillis) throws Exception {
        String yaml = "gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\", serverTimeout: 10s, "
                + " upstreamReuse: " + reuse + " }\n"
                + "servers:\n  - { id: s1, url: \"" + server(delayMillis) + "\", concurrency: 16 }\n"
                + "classes:\n  - { name: basic, target: 1s, queueBound: 10000, queueTimeout: 60s }\n";
        Gateway g = new Gateway(TestConfigs.parse(yaml, "test.yaml")).start();
        closeables.add(() -> g.stop(Duration.ofSeconds(2)));
        await("both servers earn connection reuse").atMost(Duration.ofSeconds(30)).until(() -> {
            RawHttp.exchange(g.port(), RawHttp.post("/services/S", "X-Req: 99.warm.0\r\n", BODY));
            return g.dataPlane().reusesConnections(0);
        });
        return g;
    }

    /**
     * One late_tail request, then nothing: its stray comes 0.4 s later to a connection idle in the pool,
     * and is seen when it arrives (the server is distrusted and the connection closed), not when the
     * next request takes that connection.
     */
    @ParameterizedTest(name = "upstreamReuse {0}")
    @CsvSource({"shared", "customer", "client-connection"})
    void strayOnAnIdleConnection_distrustsWithoutAnotherRequest(String reuse) throws Exception {
        Gateway g = gateway(reuse, 400);
        long closedBefore = g.dataPlane().upstreamConnections(0).closedConnections();
        try (Socket client = RawHttp.open(g.port(), 15_000)) { // kept open: its server connection stays idle in its group
            client.getOutputStream().write(RawHttp.post("/services/S?mode=late_tail", "X-Req: 1.tail.0\r\n", BODY)
                    .getBytes(StandardCharsets.ISO_8859_1));
            assertEquals("<answer>1.tail.0</answer>", RawHttp.read(client.getInputStream()).body());
            await("the stray distrusts its server with no request after it").atMost(Duration.ofSeconds(10))
                    .until(() -> !g.dataPlane().reusesConnections(0));
            await("the connection it came on is closed").atMost(Duration.ofSeconds(10)).until(() ->
                    g.dataPlane().upstreamConnections(0).closedConnections() > closedBefore);
        }
    }

    @ParameterizedTest(name = "stray {0} ms after the answer, upstreamReuse {1}")
    @CsvSource({"400, shared", "400, customer", "400, client-connection",
            "3000, shared", "3000, customer", "3000, client-connection"})
    void lateStrays_detected_andCrossOnlyWithinTheReuseGroup(long delayMillis, String reuse) throws Exception {
        Gateway g = gateway(reuse, delayMillis);
        int pairs = delayMillis >= 1000 ? 4 : 10;
        LateTail.Outcome o = LateTail.run(g.port(), "/services/S", CLIENTS, pairs, BODY, true);
        await("a stray arriving on an idle connection distrusts its server").atMost(Duration.ofMillis(delayMillis + 10_000))
                .until(() -> !g.dataPlane().reusesConnections(0));
        System.out.printf("| %.1f s | %s | %d | %d | %d | %d | %d | yes |%n", delayMillis / 1000.0, reuse, CLIENTS * pairs * 2,
                o.notOwn(), o.crossedClients(), o.crossedCustomers(), o.other());
        assertEquals(CLIENTS * pairs * 2, o.own() + o.notOwn() + o.other(), "every request got one answer: " + o);
        switch (reuse) {
            case "customer" -> assertEquals(0, o.crossedCustomers(), "answers of another customer: " + o);
            case "client-connection" -> assertEquals(0, o.crossedClients(), "answers of another client: " + o);
            default -> {
                LateTail.Outcome after = LateTail.run(g.port(), "/services/S", CLIENTS, 2, BODY, true);
                assertEquals(0, after.notOwn(), "once distrusted, a server's strays reach nobody: " + after);
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().inFlight() == 0);
        assertEquals(g.metrics().totals().arrived(), g.metrics().totals().completed() + g.metrics().totals().faulted(), "arrived = completed + faulted");
        assertTrue(o.own() > 0, "the servers answered: " + o);
    }
}
