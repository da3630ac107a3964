package io.slagate.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.ConfigLoader;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The gateway's weighted round-robin end to end: a backend with N_s = 10 slots and exponential
 * service times, two classes of closed-loop clients that keep both queues non-empty, weights
 * w_P : w_B. At saturation the completed throughputs follow the weights, fractional ones included.
 */
class WeightedSharesEndToEndTest {
    @ParameterizedTest(name = "weights {0}:{1}")
    @CsvSource({"8, 2", "8.3, 1.7"})
    void saturated_throughputRatioFollowsWeights(double wP, double wB) throws Exception {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        TestBackend backend = new TestBackend();
        backend.behave(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                Content.Source.consumeAll(request, Callback.from(() -> {
                    long micros = (long) (-Math.log(1 - ThreadLocalRandom.current().nextDouble()) * 10_000); // mean 10 ms
                    timer.schedule(() -> {
                        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/xml");
                        response.write(true, ByteBuffer.wrap("<ok/>".getBytes(StandardCharsets.UTF_8)), callback);
                    }, micros, TimeUnit.MICROSECONDS);
                }, callback::failed));
                return true;
            }
        });
        String yaml = "gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\" }\n"
                + "servers: [ { id: s1, url: \"" + backend.url() + "\", concurrency: 10 } ]\n"
                + "classes:\n  - { name: premium, target: 1s, queueBound: 1000 }\n  - { name: basic, target: 1s, queueBound: 1000 }\n"
                + "classification: { rules: [ { operation: \"urn:premium\", class: premium } ], defaultClass: basic }\n"
                + "allocation: { weights: { premium: " + wP + ", basic: " + wB + " } }\n";
        Gateway gateway = new Gateway(ConfigLoader.parse(yaml, "e2e")).start();
        HttpClient client = new HttpClient();
        client.setMaxConnectionsPerDestination(100);
        client.start();
        int warmup = 1000;
        // 12,000 completions: the ratio of counts has a standard deviation of about 2% here, so the 8% band is ~4 sd
        int measured = 12000;
        AtomicInteger completions = new AtomicInteger();
        AtomicIntegerArray counted = new AtomicIntegerArray(2);
        AtomicInteger failures = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        String[] actions = {"urn:premium", "urn:basic"};
        try {
            // 15 closed-loop clients per class, no think time: both queues stay non-empty
            for (int c = 0; c < 2; c++) {
                for (int i = 0; i < 15; i++) {
                    loop(client, gateway.port(), actions[c], c, completions, counted, failures, warmup, measured, done);
                }
            }
            assertTrue(done.await(3, TimeUnit.MINUTES), "the run finished");
            assertEquals(0, failures.get(), "no request failed");
            double ratio = (double) counted.get(0) / counted.get(1);
            double expected = wP / wB;
            System.out.printf("weights %s:%s → completed %d:%d, ratio %.3f (expected %.3f)%n",
                    wP, wB, counted.get(0), counted.get(1), ratio, expected);
            assertEquals(expected, ratio, expected * 0.08, "throughput ratio follows the weights");
        } finally {
            client.stop();
            gateway.stop(Duration.ofSeconds(2));
            backend.close();
            timer.shutdownNow();
        }
    }

    private static void loop(HttpClient client, int port, String action, int cls, AtomicInteger completions,
                             AtomicIntegerArray counted, AtomicInteger failures, int warmup, int measured, CountDownLatch done) {
        if (done.getCount() == 0) {
            return;
        }
        client.newRequest("http://127.0.0.1:" + port + "/services/StockUtility").method(HttpMethod.POST)
                .headers(h -> h.put("SOAPAction", action))
                .body(new StringRequestContent("text/xml", Soap.envelope11("getQuote")))
                .timeout(30, TimeUnit.SECONDS)
                .send(result -> {
                    if (result.isFailed() || result.getResponse().getStatus() != 200) {
                        failures.incrementAndGet();
                    }
                    int n = completions.incrementAndGet();
                    if (n > warmup && n <= warmup + measured) {
                        counted.incrementAndGet(cls);
                    }
                    if (n == warmup + measured) {
                        done.countDown();
                    }
                    loop(client, port, action, cls, completions, counted, failures, warmup, measured, done);
                });
    }
}
