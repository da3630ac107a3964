package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

/**
 * Many concurrent clients through a real gateway to three real backends that answer after random
 * times, sometimes with a 500, sometimes by breaking the connection: each backend never sees more
 * than its N_{g,s} at once, every request gets exactly one response, the counters balance.
 */
class GatewayStressTest {
    @Test
    void stress_randomDelaysAndFailures_capsHold_oneResponseEach() throws Exception {
        ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);
        TestBackend[] backends = {new TestBackend(), new TestBackend(), new TestBackend()};
        // Executing = from arrival until just before the answer leaves: the gateway cannot learn that
        // a request finished before that, so a correct gateway never makes this exceed N_{g,s}.
        Map<Integer, AtomicInteger> executing = new ConcurrentHashMap<>();
        Map<Integer, AtomicInteger> maxExecuting = new ConcurrentHashMap<>();
        Handler chaotic = new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                int port = Request.getLocalPort(request);
                AtomicInteger now = executing.computeIfAbsent(port, p -> new AtomicInteger());
                maxExecuting.computeIfAbsent(port, p -> new AtomicInteger()).accumulateAndGet(now.incrementAndGet(), Math::max);
                Content.Source.consumeAll(request, Callback.from(() -> {
                    int roll = ThreadLocalRandom.current().nextInt(100);
                    long delay = ThreadLocalRandom.current().nextLong(0, 15);
                    timer.schedule(() -> {
                        now.decrementAndGet();
                        if (roll < 5) {
                            request.getConnectionMetaData().getConnection().getEndPoint().close(); // broken
                            callback.failed(new RuntimeException("chaos"));
                            return;
                        }
                        response.setStatus(roll < 10 ? 500 : 200);
                        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/xml");
                        response.write(true, ByteBuffer.wrap("<r/>".getBytes(StandardCharsets.UTF_8)), callback);
                    }, delay, TimeUnit.MILLISECONDS);
                }, x -> {
                    now.decrementAndGet();
                    callback.failed(x);
                }));
                return true;
            }
        };
        for (TestBackend b : backends) {
            b.behave(chaotic);
        }
        String yaml = "gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\", serverTimeout: 5s }\nservers:\n"
                + "  - { id: s1, url: \"" + backends[0].url() + "\", concurrency: 4 }\n"
                + "  - { id: s2, url: \"" + backends[1].url() + "\", concurrency: 2 }\n"
                + "  - { id: s3, url: \"" + backends[2].url() + "\", concurrency: 3 }\n"
                + "classes:\n  - { name: a, target: 1s, queueBound: 40, queueTimeout: 2s }\n"
                + "  - { name: b, target: 1s, queueBound: 40, queueTimeout: 2s }\n"
                + "classification: { rules: [ { operation: \"urn:a\", class: a } ], defaultClass: b }\n"
                + "allocation: { weights: { a: 6, b: 3 } }\n";
        Gateway g = new Gateway(TestConfigs.parse(yaml, "stress")).start();
        HttpClient client = new HttpClient();
        client.setMaxConnectionsPerDestination(64);
        client.start();
        int total = 3000;
        Semaphore window = new Semaphore(48);
        CountDownLatch done = new CountDownLatch(total);
        AtomicInteger responses = new AtomicInteger();
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        try {
            for (int i = 0; i < total; i++) {
                window.acquire();
                String op = (i % 3 == 0) ? "urn:b" : "urn:a";
                client.newRequest("http://127.0.0.1:" + g.port() + "/services/S").method(HttpMethod.POST)
                        .headers(h -> h.put("SOAPAction", op))
                        .body(new StringRequestContent("text/xml", Soap.envelope11("x")))
                        .timeout(20, TimeUnit.SECONDS)
                        .send(result -> {
                            int status = result.getResponse() == null ? -1 : result.getResponse().getStatus();
                            statuses.merge(result.isFailed() ? -status : status, 1, Integer::sum);
                            responses.incrementAndGet();
                            window.release();
                            done.countDown();
                        });
            }
            assertTrue(done.await(2, TimeUnit.MINUTES), "every request got an answer");
            assertEquals(total, responses.get());
            int[] caps = {4, 2, 3};
            for (int i = 0; i < 3; i++) {
                int max = maxExecuting.get(backends[i].port()).get();
                assertTrue(max <= caps[i], "N_{g,s" + (i + 1) + "} = " + caps[i] + " exceeded: " + max);
                assertTrue(max >= 1);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().inFlight() == 0);
            assertEquals(total, g.metrics().totals().arrived());
            assertEquals(g.metrics().totals().arrived(), g.metrics().totals().completed() + g.metrics().totals().faulted(), statuses.toString());
            assertTrue(statuses.getOrDefault(200, 0) > total / 2, statuses.toString());
        } finally {
            client.stop();
            g.stop(Duration.ofSeconds(2));
            for (TestBackend b : backends) {
                b.close();
            }
            timer.shutdownNow();
        }
    }
}
