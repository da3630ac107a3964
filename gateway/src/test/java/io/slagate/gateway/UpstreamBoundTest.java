package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.config.UpstreamSettings;
import io.slagate.gateway.stats.GatewayMetrics;
import io.slagate.gateway.testing.LateTail;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.ScriptedBackend;
import io.slagate.gateway.testing.Soap;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The connections a server sees from a gateway of several event loops: each loop keeps its own idle connections, and
 * without a bound across loops a gateway of L loops could hold L × N_{g,s}. By default the bound is the cap in force
 * plus the cap again and 2 (the connection a quiet check holds, one idle): 2·N_{g,s} + 2 whatever L is (N_{g,s} + 2 on
 * a single loop).
 */
class UpstreamBoundTest {
    private static final String BODY = Soap.envelope11("getQuote");
    private static final int LOOPS = 4;
    private static final int CAP = 4;
    private static final int CLIENTS = 16;
    private static final int PER_CLIENT = 40;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    @Test
    void fourLoops_holdAtMostTheCapAndItsSlack_andStillReuse() throws Exception {
        ScriptedBackend b = new ScriptedBackend();
        closeables.add(b);
        b.answerWith(head -> {
            try {
                Thread.sleep(2); // long enough for the cap to fill
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return LateTail.ownAnswer(head);
        });
        String yaml = "gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\", loops: " + LOOPS + " }\n"
                + "servers:\n  - { id: s1, url: \"" + b.url() + "\", concurrency: " + CAP + " }\n"
                + "classes:\n  - { name: basic, target: 1s, queueBound: 10000, queueTimeout: 60s }\n";
        Gateway g = new Gateway(TestConfigs.parse(yaml, "test.yaml")).start();
        closeables.add(() -> g.stop(Duration.ofSeconds(2)));
        await("the server earns connection reuse").atMost(Duration.ofSeconds(30)).until(() -> {
            RawHttp.exchange(g.port(), RawHttp.post("/services/S", "X-Req: 99.warm.0\r\n", BODY));
            return g.dataPlane().reusesConnections(0);
        });
        GatewayMetrics.UpstreamConnections pool = g.dataPlane().upstreamConnections(0);
        long openedBefore = pool.opened();
        long reusedBefore = pool.reused();

        AtomicInteger peakHere = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread watch = new Thread(() -> { // the gateway's own count, sampled: the bound must hold there exactly
            while (running.get()) {
                peakHere.accumulateAndGet(pool.open(), Math::max);
                Thread.onSpinWait();
            }
        }, "open-watch");
        watch.start();
        int own;
        try {
            own = LateTail.ownAnswersOnKeepAlive(g.port(), "/services/S", CLIENTS, PER_CLIENT, BODY); // spread over the loops
        } finally {
            running.set(false);
            watch.join();
        }
        assertEquals(CLIENTS * PER_CLIENT, own, "every answer its own");
        await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().inFlight() == 0);
        assertEquals(g.metrics().totals().arrived(), g.metrics().totals().completed() + g.metrics().totals().faulted(), "arrived = completed + faulted");
        int bound = CAP + UpstreamSettings.idleSlack(CAP, LOOPS);
        assertTrue(peakHere.get() <= bound, "the gateway held " + peakHere.get() + " connections at once; bound " + bound);
        // what the server holds once the closes have reached it (without the bound each of the 4 loops keeps up to 4 idle)
        await("the server sees the gateway's connections").atMost(Duration.ofSeconds(10)).until(() -> b.connectionsOpen() == pool.open());
        assertTrue(b.connectionsOpen() <= bound, "the server holds " + b.connectionsOpen() + " connections; bound " + bound);
        // the price: every loop's clients alone could fill the cap here, so connections move between loops (16 to 36
        // opened for 640 requests in three runs; at the cap + 2 it was one request in five); most still reuse one
        long opened = pool.opened() - openedBefore;
        long reused = pool.reused() - reusedBefore;
        assertTrue(reused >= 8 * opened, "connections are still reused: opened " + opened + ", reused " + reused);
    }

    @Test
    void theDefaultBound_followsTheCap_andAConfiguredOneIsFixed() {
        UpstreamSettings byDefault = UpstreamSettings.DEFAULT;
        assertEquals(4 + 4 + 2, byDefault.maxConnections(4, 4), "twice the cap and two");
        assertEquals(10 + 10 + 2, byDefault.maxConnections(10, 16), "twice the cap and two, not 16 pools of 10");
        assertEquals(10 + 2, byDefault.maxConnections(10, 1), "one loop: the cap and two");
        assertEquals(0 + 2, byDefault.maxConnections(0, 16), "a server with no slots here keeps only the two");
        UpstreamSettings fixed = new UpstreamSettings(UpstreamSettings.DEFAULT.reuse(), java.util.Map.of(), 7);
        assertEquals(7, fixed.maxConnections(100, 16));
    }
}
