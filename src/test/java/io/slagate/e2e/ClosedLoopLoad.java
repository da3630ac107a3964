package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import io.slagate.gateway.testing.Soap;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpMethod;

/**
 * Closed-loop SOAP clients without think time against one gateway, on Jetty's async client (no
 * thread per client). Counts what was sent and what was answered, by outcome, so that a test can
 * check that every request got exactly one response.
 */
final class ClosedLoopLoad implements AutoCloseable {
    private final HttpClient client;
    private final String url;
    private final String action;
    private volatile boolean running = true;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong ok = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicInteger outstanding = new AtomicInteger();
    private volatile String lastFailure;

    ClosedLoopLoad(HttpClient client, int port, String action, int clients) {
        this(client, "127.0.0.1", port, action, clients);
    }

    ClosedLoopLoad(HttpClient client, String host, int port, String action, int clients) {
        this.client = client;
        this.url = "http://" + host + ":" + port + "/services/StockUtility";
        this.action = action;
        for (int i = 0; i < clients; i++) {
            next();
        }
    }

    private void next() {
        if (!running) {
            return;
        }
        sent.incrementAndGet();
        outstanding.incrementAndGet();
        client.newRequest(url).method(HttpMethod.POST)
                .headers(h -> h.put("SOAPAction", action))
                .body(new StringRequestContent("text/xml", Soap.envelope11("getQuote")))
                .timeout(30, TimeUnit.SECONDS)
                .send(result -> {
                    if (result.isFailed() || result.getResponse().getStatus() != 200) {
                        failed.incrementAndGet();
                        lastFailure = result.isFailed() ? String.valueOf(result.getFailure())
                                : "HTTP " + result.getResponse().getStatus();
                    } else {
                        ok.incrementAndGet();
                    }
                    outstanding.decrementAndGet();
                    next();
                });
    }

    long ok() {
        return ok.get();
    }

    long failed() {
        return failed.get();
    }

    long sent() {
        return sent.get();
    }

    String lastFailure() {
        return lastFailure;
    }

    /** Stops issuing requests and waits (polling, bounded) until every one sent was answered. */
    @Override
    public void close() {
        running = false;
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(10)).until(() -> outstanding.get() == 0);
    }
}
