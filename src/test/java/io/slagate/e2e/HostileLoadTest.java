package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.ConfigLoader;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpMethod;
import org.junit.jupiter.api.Test;

/**
 * Everything hostile at once, under load: while closed-loop clients run through the
 * gateway, one of the two servers answers very slowly (40 times slower than the other, still inside
 * the server timeout), hundreds of slowloris connections trickle headers, and clients keep posting
 * bodies sixteen times the size limit. Every normal request is answered, every oversized one gets a
 * {@code request-too-large} fault, every slowloris connection is cut after the header timeout, the
 * slow server stays in rotation (it is slow, not failing) while the fast one carries the load, and
 * the counters balance. The figures are printed for docs/RELIABILITY.md.
 */
class HostileLoadTest {
    private static final int LORIS = 300;
    private static final int OVERSIZED_BYTES = 1 << 20;

    /** Closed-loop posting of bodies over the limit; counts the answers that are the right fault. */
    private static final class OversizedSenders {
        private final HttpClient client;
        private final String url;
        private final byte[] body = new byte[OVERSIZED_BYTES];
        private volatile boolean running = true;
        final AtomicLong sent = new AtomicLong();
        final AtomicLong rightFault = new AtomicLong();
        final AtomicLong otherAnswer = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        volatile String lastOther;

        OversizedSenders(HttpClient client, int port, int senders) {
            this.client = client;
            this.url = "http://127.0.0.1:" + port + "/services/StockUtility";
            Arrays.fill(body, (byte) 'x');
            for (int i = 0; i < senders; i++) {
                next();
            }
        }

        private void next() {
            if (!running) {
                return;
            }
            sent.incrementAndGet();
            Request r = client.newRequest(url).method(HttpMethod.POST).headers(h -> h.put("SOAPAction", "urn:buyShares"))
                    .body(new BytesRequestContent("text/xml", body)).timeout(30, TimeUnit.SECONDS);
            r.send(new BufferingResponseListener(64 * 1024) {
                @Override
                public void onComplete(Result result) {
                    Response response = result.getResponse();
                    if (response != null && response.getStatus() == 500 && getContentAsString().contains("request-too-large")) {
                        rightFault.incrementAndGet();
                    } else if (result.isFailed()) {
                        failed.incrementAndGet();
                        lastOther = String.valueOf(result.getFailure());
                    } else {
                        otherAnswer.incrementAndGet();
                        lastOther = response.getStatus() + " " + getContentAsString();
                    }
                    next();
                }
            });
        }

        long answered() {
            return rightFault.get() + otherAnswer.get() + failed.get();
        }

        void stop() {
            running = false;
            await().atMost(Duration.ofSeconds(40)).until(() -> answered() == sent.get());
        }
    }

    @Test
    void slowServer_slowloris_oversizedBodies_underLoad_nothingLost() throws Exception {
        TestBackend fast = new TestBackend();
        TestBackend slow = new TestBackend();
        fast.behave(fast.delayed(10));
        slow.behave(slow.delayed(400));
        Gateway gw = new Gateway(ConfigLoader.parse("""
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  serverTimeout: 2s
                  headerTimeout: 1s
                  maxRequestBytes: 64KiB
                  maxConnections: 2000
                servers:
                  - { id: fast, url: "%s", concurrency: 4 }
                  - { id: slow, url: "%s", concurrency: 4 }
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                """.formatted(fast.url(), slow.url()), "hostile")).start();
        HttpClient client = new HttpClient();
        client.setMaxConnectionsPerDestination(64);
        client.start();
        AtomicLong peakHeap = new AtomicLong();
        ScheduledExecutorService heapWatch = Executors.newSingleThreadScheduledExecutor();
        heapWatch.scheduleAtFixedRate(() -> peakHeap.accumulateAndGet(
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max), 0, 100, TimeUnit.MILLISECONDS);
        try {
            ClosedLoopLoad load = new ClosedLoopLoad(client, gw.port(), "urn:getQuote", 8);
            long baselineStart = System.nanoTime();
            await().atMost(Duration.ofSeconds(60)).until(() -> load.ok() >= 1500);
            double baselineRate = load.ok() / ((System.nanoTime() - baselineStart) / 1e9);

            long okBefore = load.ok();
            long fastBefore = fast.received();
            long slowBefore = slow.received();
            long hostileStart = System.nanoTime();
            SlowlorisSwarm loris = new SlowlorisSwarm(gw.port(), LORIS);
            OversizedSenders oversized = new OversizedSenders(client, gw.port(), 4);
            await("the swarm has been cut and replaced at least twice over, under load").atMost(Duration.ofSeconds(60))
                    .until(() -> loris.closedByServer() >= 2L * LORIS && load.ok() >= okBefore + 1500 && oversized.sent.get() >= 200);
            double hostileSeconds = (System.nanoTime() - hostileStart) / 1e9;
            double hostileRate = (load.ok() - okBefore) / hostileSeconds;
            long fastServed = fast.received() - fastBefore;
            long slowServed = slow.received() - slowBefore;
            loris.close();
            oversized.stop();
            load.close();

            System.out.printf(Locale.ROOT, "hostile load: normal sent %d, ok %d, faults %d; %.0f req/s before, %.0f req/s during"
                            + " (%.2fx); fast server %d, slow server %d; slowloris opened %d, cut %d, longest %.2f s;"
                            + " oversized sent %d, request-too-large %d, other %d, failed %d; peak heap %d MiB%n",
                    load.sent(), load.ok(), load.failed(), baselineRate, hostileRate, hostileRate / baselineRate, fastServed,
                    slowServed, loris.opened(), loris.closedByServer(), loris.longestLifeSeconds(), oversized.sent.get(),
                    oversized.rightFault.get(), oversized.otherAnswer.get(), oversized.failed.get(), peakHeap.get() >> 20);
            assertEquals(load.sent(), load.ok(), "every normal request answered by a server: " + load.lastFailure());
            assertEquals(oversized.sent.get(), oversized.rightFault.get(),
                    "every oversized body answered with a request-too-large fault: " + oversized.lastOther);
            assertTrue(loris.longestLifeSeconds() < 5, "no slowloris connection outlives a few header timeouts: " + loris.longestLifeSeconds());
            assertTrue(gw.queues().server(1).inRotation(), "a slow server that answers stays in rotation");
            assertTrue(fastServed > slowServed, "least-outstanding dispatch sends most requests to the fast server: "
                    + fastServed + " vs " + slowServed);
            assertTrue(peakHeap.get() < 1024L << 20, "heap bounded: " + (peakHeap.get() >> 20) + " MiB");
            // a completion is counted once its last write's callback ran, which may be just after the client read it
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gw.metrics().inFlight() == 0);
            assertEquals(gw.metrics().totals().arrived(), gw.metrics().totals().completed() + gw.metrics().totals().faulted()
                    + gw.metrics().inFlight(), "the gateway's counters balance");
            assertEquals(0, gw.metrics().inFlight(), "nothing left in flight");
        } finally {
            heapWatch.shutdownNow();
            client.stop();
            gw.stop(Duration.ofSeconds(3));
            fast.close();
            slow.close();
        }
    }
}
