package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.stats.GatewayMetrics;
import io.slagate.gateway.testing.LateTail;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.ScriptedBackend;
import io.slagate.gateway.testing.Soap;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which requests share a server connection ({@code gateway.upstreamReuse}), against two servers that
 * write a forged answer 50 ms after each answer to a {@code ?mode=late_tail} request. HTTP/1.1 cannot
 * tell that answer from the next request's on the same connection, so where it lands is decided by
 * who may share the connection: with {@code client-connection} no other client, with {@code customer}
 * no other customer; with {@code shared}, any client, until the server is distrusted.
 */
class UpstreamReuseTest {
    private static final String BODY = Soap.envelope11("getQuote");
    private static final int CLIENTS = 8;
    private static final int GOOD_PER_CLIENT = 25;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private Gateway gateway(String reuse, String s1, String s2, int maxUpstream) throws Exception {
        String yaml = "gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\", serverTimeout: 5s, loadBalancing: round-robin, upstreamReuse: " + reuse
                + (maxUpstream > 0 ? ", maxUpstreamConnections: " + maxUpstream : "") + " }\n"
                + "servers:\n  - { id: s1, url: \"" + s1 + "\", concurrency: 10 }\n  - { id: s2, url: \"" + s2 + "\", concurrency: 10 }\n"
                + "classes:\n  - { name: basic, target: 1s, queueBound: 10000, queueTimeout: 60s }\n";
        Gateway g = new Gateway(TestConfigs.parse(yaml, "test.yaml")).start();
        closeables.add(() -> g.stop(Duration.ofSeconds(2)));
        return g;
    }

    private ScriptedBackend lateTailServer() throws Exception {
        ScriptedBackend b = new ScriptedBackend();
        closeables.add(b);
        LateTail.misbehave(b);
        return b;
    }

    /** 8 clients, 25 late_tail/good pairs each, every request on its own connection. */
    private static LateTail.Outcome run(int port) throws Exception {
        return LateTail.run(port, "/services/S", CLIENTS, GOOD_PER_CLIENT, BODY);
    }

    /**
     * Good requests only, until both servers proved themselves (a connection stayed quiet after an
     * answer) and their connections are reused: the state in which a first stray answer can cross.
     */
    private static void earnReuse(Gateway g) {
        await("both servers earn connection reuse").atMost(Duration.ofSeconds(30)).until(() -> {
            RawHttp.exchange(g.port(), RawHttp.post("/services/S", "X-Req: 99.warm.0\r\n", BODY));
            return g.dataPlane().reusesConnections(0) && g.dataPlane().reusesConnections(1);
        });
    }

    private static void assertBalanced(Gateway g) {
        await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().inFlight() == 0);
        assertEquals(g.metrics().totals().arrived(), g.metrics().totals().completed() + g.metrics().totals().faulted(), "arrived = completed + faulted");
    }

    @Test
    void clientConnection_noAnswerCrossesBetweenClientConnections() throws Exception {
        Gateway g = gateway("client-connection", lateTailServer().url(), lateTailServer().url(), 0);
        earnReuse(g);
        LateTail.Outcome o = run(g.port());
        System.out.println("upstreamReuse client-connection: " + o);
        assertEquals(0, o.crossedClients(), "answers of another client connection: " + o);
        assertEquals(CLIENTS * GOOD_PER_CLIENT * 2, o.own() + o.other(), o.toString());
        assertBalanced(g);
        long reusedBefore = g.dataPlane().upstreamConnections(0).reused() + g.dataPlane().upstreamConnections(1).reused();
        RawHttp.exchange(g.port(), RawHttp.post("/services/S", "X-Req: 99.after.0\r\nConnection: close\r\n", BODY));
        assertEquals(reusedBefore, g.dataPlane().upstreamConnections(0).reused() + g.dataPlane().upstreamConnections(1).reused(),
                "a client on Connection: close gets a fresh server connection");
        for (int s = 0; s < 2; s++) {
            GatewayMetrics.UpstreamConnections u = g.dataPlane().upstreamConnections(s);
            assertEquals("client-connection", u.reuseMode());
            int server = s;
            await().atMost(Duration.ofSeconds(10)).until(() -> g.dataPlane().upstreamConnections(server).open() == 0);
            assertEquals(u.opened(), u.closedConnections(), "every connection closed with its client connection");
        }
    }

    @Test
    void customer_noAnswerCrossesBetweenCustomers() throws Exception {
        Gateway g = gateway("customer", lateTailServer().url(), lateTailServer().url(), 0);
        earnReuse(g);
        LateTail.Outcome o = run(g.port());
        System.out.println("upstreamReuse customer: " + o);
        assertEquals(0, o.crossedCustomers(), "answers of another customer: " + o);
        assertBalanced(g);
        assertEquals("customer", g.dataPlane().upstreamConnections(0).reuseMode());
    }

    /**
     * Shared connections: every connection reused within 50 ms of a late_tail answer carries the forged
     * answer to whoever's request it took next, until the first stray bytes are seen and the server is
     * distrusted (no reuse for 60 s). How many cross first depends on how many connections were reused
     * in that window (one per server at low concurrency; dozens here), which is why the other modes
     * exist. After the distrust, none crosses.
     */
    @Test
    void shared_crossesUntilDistrusted_thenNone() throws Exception {
        Gateway g = gateway("shared", lateTailServer().url(), lateTailServer().url(), 0);
        earnReuse(g);
        LateTail.Outcome first = run(g.port());
        System.out.println("upstreamReuse shared: " + first);
        assertTrue(!g.dataPlane().reusesConnections(0) && !g.dataPlane().reusesConnections(1), "both misbehaving servers distrusted");
        LateTail.Outcome after = run(g.port());
        System.out.println("upstreamReuse shared, distrusted: " + after);
        assertEquals(0, after.crossedClients(), "no answer crosses once the servers are distrusted: " + after);
        assertBalanced(g);
    }

    /**
     * Eight keep-alive client connections on servers of N_s = 2 with at most 3 connections each: every
     * client connection needs a server connection of its own, so at the bound an idle one of another
     * client connection is closed (evicted), never lent; every answer is its own and counters balance.
     */
    @Test
    void atTheBound_idleConnectionsOfOtherGroupsAreClosed_neverLent() throws Exception {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            ScriptedBackend b = new ScriptedBackend();
            closeables.add(b);
            LateTail.answerOwnId(b);
            urls.add(b.url());
        }
        String yaml = "gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\", loadBalancing: round-robin, upstreamReuse: client-connection,"
                + " maxUpstreamConnections: 3 }\n"
                + "servers:\n  - { id: s1, url: \"" + urls.get(0) + "\", concurrency: 2 }\n  - { id: s2, url: \"" + urls.get(1)
                + "\", concurrency: 2 }\n"
                + "classes:\n  - { name: basic, target: 1s, queueBound: 10000, queueTimeout: 60s }\n";
        Gateway g = new Gateway(TestConfigs.parse(yaml, "test.yaml")).start();
        closeables.add(() -> g.stop(Duration.ofSeconds(2)));
        earnReuse(g); // until then every connection is single-use, and none is ever idle
        int own = LateTail.ownAnswersOnKeepAlive(g.port(), "/services/S", CLIENTS, 20, BODY);
        assertEquals(CLIENTS * 20, own, "every answer its own");
        assertBalanced(g);
        long evicted = g.dataPlane().upstreamConnections(0).evicted() + g.dataPlane().upstreamConnections(1).evicted();
        assertTrue(evicted > 0, "8 client connections on 2 × 3 server connections: some idle ones closed to make room");
    }
}
