package io.slagate.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.node.EmbeddedSystem;
import io.slagate.config.ConfigLoader;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.testing.TestBackend;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Server-pool reconfiguration through the whole system: pool a saturated, pool b with capacity to
 * spare and a server that may serve a. The resource manager moves it; the gateway sends a's requests to it, b keeps
 * its other server; no request is lost on the way and the counters balance.
 */
class PoolReconfigurationEndToEndTest {
    @TempDir
    Path dir;

    @Test
    void aSaturatedPool_getsTheSpareServer_andNothingIsLost() throws Exception {
        TestBackend[] b = new TestBackend[4];
        try {
            for (int i = 0; i < b.length; i++) {
                b[i] = new TestBackend();
                b[i].behave(b[i].delayed(20)); // 5 slots of 20 ms: 250 req/s a server
            }
            String yaml = fourServers(b, "pool-reconfiguration");
            try (EmbeddedSystem system = EmbeddedSystem.start(ConfigLoader.parse(yaml, "pools-e2e"), EmbeddedSystem.Parts.CORE)) {
                Gateway gw = system.gateway();
                int trades2Before = b[3].received();
                // quotes at 600/s on pool a's 500/s; trades at 40/s on pool b's 500/s
                Summary s = saturatePoolA(gw);

                assertEquals(1, system.controlLoop().status().pools().moves(), "one move, and the dwell keeps it: " + system.controlLoop().status().pools().moveLog());
                assertEquals("a", system.controlLoop().status().serverPools().get("b2"));
                assertEquals("a", gw.queues().pools().servingPool(3), "the gateway sends pool a's requests to b2");
                assertTrue(b[3].received() > trades2Before, "b2 served");
                assertEquals(0, s.lost(), "every request got exactly one response");
                assertEquals(0, s.classes().get("trades").errors().size(), "pool b, one server left, still serves trades: "
                        + s.classes().get("trades").errors());
                assertCountersBalance(gw);
            }
        } finally {
            for (TestBackend x : b) {
                if (x != null) {
                    x.close();
                }
            }
        }
    }

    @Test
    void aServerThatRefusesItsNewPool_isMovedBack_theManagerReverts_andEveryRequestIsAnswered() throws Exception {
        TestBackend[] b = new TestBackend[4];
        try {
            for (int i = 0; i < b.length; i++) {
                b[i] = new TestBackend();
                b[i].behave(b[i].delayed(20));
            }
            // b2 may serve pool a by configuration, but it has no such service: every quote gets 404 there
            Handler serves = b[3].delayed(20);
            AtomicInteger refusedThere = new AtomicInteger();
            b[3].behave(new Handler.Abstract() {
                @Override
                public boolean handle(Request request, Response response,
                                      Callback callback) throws Exception {
                    String action = request.getHeaders().get("SOAPAction");
                    if (action != null && action.contains("quotes")) {
                        refusedThere.incrementAndGet();
                        response.setStatus(404);
                        response.write(true, ByteBuffer.wrap("no such service".getBytes()), callback);
                        return true;
                    }
                    return serves.handle(request, response, callback);
                }
            });
            String yaml = fourServers(b, "pool-refused");
            try (EmbeddedSystem system = EmbeddedSystem.start(ConfigLoader.parse(yaml, "pools-refused"), EmbeddedSystem.Parts.CORE)) {
                Gateway gw = system.gateway();
                Summary s = saturatePoolA(gw);

                assertEquals(1, system.controlLoop().status().pools().moves(), "the manager moved b2 once: " + system.controlLoop().status().pools().moveLog());
                assertEquals(1, system.controlLoop().status().pools().refusedMoves(), "and reverted it: " + system.controlLoop().status().pools().moveLog());
                assertEquals("b", system.controlLoop().status().serverPools().get("b2"), "the manager has b2 back in b");
                assertEquals("b", gw.queues().pools().servingPool(3), "the gateway sends b2 pool b's requests again");
                long refusals = s.classes().get("quotes").errors().getOrDefault("http-404", 0L);
                assertEquals(refusedThere.get(), refusals, "each 404 went to its own client, and only those");
                assertTrue(refusals >= 3 && refusals <= 3 + 5, "three refusals decide; at most b2's 5 slots were in flight then: "
                        + refusals);
                assertEquals(0, s.lost(), "every request got exactly one response");
                assertCountersBalance(gw);
            }
        } finally {
            for (TestBackend x : b) {
                if (x != null) {
                    x.close();
                }
            }
        }
    }

    /** a1, a2 in pool a; b1 and b2 in b, b2 movable to a; a move considered every second, a moved server dwelling 60 s. */
    private static String fourServers(TestBackend[] b, String busName) {
        return """
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  faultStatus: http
                  stats: { reportingInterval: 250ms, window: 2s }
                servers:
                  - { id: a1, url: "%s", concurrency: 5, pool: a }
                  - { id: a2, url: "%s", concurrency: 5, pool: a }
                  - { id: b1, url: "%s", concurrency: 5, pool: b }
                  - { id: b2, url: "%s", concurrency: 5, pool: b, pools: [b, a] }
                classes:
                  - { name: quotes, target: 100ms, pool: a, queueBound: 500, queueTimeout: 2s }
                  - { name: trades, target: 100ms, pool: b, queueBound: 500, queueTimeout: 2s }
                classification: { rules: [ { operation: "urn:trades", class: trades } ], defaultClass: quotes }
                bus: { url: "vm://%s", listen: "" }
                controller: { cycle: 250ms, combining: min, resolution: 0.1, reconfiguration: { every: 1s, dwell: 60s } }
                """.formatted(b[0].url(), b[1].url(), b[2].url(), b[3].url(), busName);
    }

    /** Quotes at 600/s on pool a's 500/s, trades at 40/s on pool b's 500/s, for 8 s. */
    private Summary saturatePoolA(Gateway gw) throws Exception {
        LoadSpec spec = new LoadSpec("http://127.0.0.1:" + gw.port(), "/services/StockUtility", null,
                List.of(new LoadSpec.ClassSpec("quotes", "quotes", null, false, Duration.ofMillis(100)),
                        new LoadSpec.ClassSpec("trades", "trades", null, false, Duration.ofMillis(100))),
                List.of(new LoadSpec.Phase(Duration.ofSeconds(8), List.of(600.0, 40.0))),
                true, Duration.ZERO, Duration.ZERO, 31, Duration.ofSeconds(20), dir.resolve("out"));
        return new LoadGenerator(spec, null).run();
    }

    /** Once nothing is in flight (a client may hold its answer before the completion is counted): arrived = answered. */
    private static void assertCountersBalance(Gateway gw) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (gw.metrics().inFlight() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(gw.metrics().totals().arrived(), gw.metrics().totals().completed() + gw.metrics().totals().faulted()
                + gw.metrics().inFlight(), "the gateway's counters balance");
    }
}
