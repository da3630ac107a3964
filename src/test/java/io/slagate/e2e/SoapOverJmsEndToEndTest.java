package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.EmbeddedBroker;
import io.slagate.config.ConfigLoader;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.load.SoapEnvelopes;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.JmsEndpoint;
import io.slagate.load.service.ServiceTime;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamRequestContent;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpMethod;
import org.junit.jupiter.api.Test;

/**
 * SOAP over JMS end to end: HTTP clients → gateway → a JMS queue on a real broker →
 * the synthetic Axis2 service on Axis2's JMS transport → reply → client. Caps and counters are
 * those of an HTTP server; a SOAP fault comes back as one; when the service stops consuming,
 * requests end with server-timeout faults, never hang.
 */
class SoapOverJmsEndToEndTest {
    @Test
    void httpClients_jmsServer_capsHold_faultsRelayed_timeoutsAnswered() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start("jms-e2e", "tcp://127.0.0.1:0", null, null)) {
            BackendServer backend = BackendServer.start("127.0.0.1", List.of(0),
                    new ServiceTime(Map.of(), Duration.ofMillis(5), 0.2, Duration.ofMillis(1)), new JmsEndpoint(broker.tcpUrl(), 8, null, null));
            Gateway gw = new Gateway(ConfigLoader.parse("""
                    gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", serverTimeout: 2s, maxRequestBytes: 16KiB }
                    servers: [ { id: q1, url: "jms:queue:StockUtility", concurrency: 3 } ]
                    classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                    bus: { url: "%s", embedded: false }
                    """.formatted(broker.tcpUrl()), "jms")).start();
            HttpClient client = new HttpClient();
            client.start();
            String url = "http://127.0.0.1:" + gw.port() + "/services/StockUtility";
            try {
                // closed loop, 10 clients for 3 slots: every request answered by the service, the cap never passed
                AtomicLong sent = new AtomicLong();
                AtomicLong ok = new AtomicLong();
                AtomicLong bad = new AtomicLong();
                AtomicReference<String> lastBad = new AtomicReference<>();
                AtomicInteger maxOutstanding = new AtomicInteger();
                AtomicInteger outstanding = new AtomicInteger();
                Runnable[] next = new Runnable[1];
                AtomicBoolean running = new AtomicBoolean(true);
                next[0] = () -> {
                    if (!running.get()) {
                        return;
                    }
                    sent.incrementAndGet();
                    outstanding.incrementAndGet();
                    client.newRequest(url).method(HttpMethod.POST).headers(h -> h.put("SOAPAction", "urn:getQuote"))
                            .body(new StringRequestContent("text/xml; charset=UTF-8", SoapEnvelopes.request11("getQuote", "IBM")))
                            .timeout(20, TimeUnit.SECONDS)
                            .send(new BufferingResponseListener() {
                                @Override
                                public void onComplete(Result r) {
                                    maxOutstanding.accumulateAndGet(gw.queues().server(0).outstanding(), Math::max);
                                    if (!r.isFailed() && r.getResponse().getStatus() == 200 && getContentAsString().contains("getQuoteResponse")) {
                                        ok.incrementAndGet();
                                    } else {
                                        lastBad.set(r.isFailed() ? String.valueOf(r.getFailure())
                                                : r.getResponse().getStatus() + " " + getContentAsString());
                                        bad.incrementAndGet();
                                    }
                                    outstanding.decrementAndGet();
                                    next[0].run();
                                }
                            });
                };
                for (int i = 0; i < 10; i++) {
                    next[0].run();
                }
                await().atMost(Duration.ofSeconds(60)).until(() -> ok.get() >= 500 || bad.get() > 0);
                running.set(false);
                await().atMost(Duration.ofSeconds(30)).until(() -> outstanding.get() == 0);
                assertEquals(0, bad.get(), "every request answered by the service over JMS: " + lastBad.get());
                assertEquals(sent.get(), ok.get());
                assertTrue(maxOutstanding.get() <= 3, "N_{g,s} = 3 held for the JMS server: " + maxOutstanding.get());

                // an unknown operation: Axis2's SOAP fault relayed with 500
                ContentResponse fault = client.newRequest(url).method(HttpMethod.POST).headers(h -> h.put("SOAPAction", "urn:noSuchOperation"))
                        .body(new StringRequestContent("text/xml; charset=UTF-8", SoapEnvelopes.request11("noSuchOperation", "IBM")))
                        .timeout(20, TimeUnit.SECONDS).send();
                assertEquals(500, fault.getStatus(), fault.getContentAsString());
                assertTrue(fault.getContentAsString().contains("Fault"), fault.getContentAsString());

                // a chunked body over the limit (its length not announced, so read before it is known too large)
                ContentResponse big = client.newRequest(url).method(HttpMethod.POST).headers(h -> h.put("SOAPAction", "urn:getQuote"))
                        .body(new InputStreamRequestContent("text/xml; charset=UTF-8",
                                new ByteArrayInputStream(new byte[64 * 1024])))
                        .timeout(20, TimeUnit.SECONDS).send();
                assertEquals(FaultReason.REQUEST_TOO_LARGE.code(), big.getHeaders().get("X-Slagate-Fault"), big.getContentAsString());

                // the service stops consuming: requests end with server-timeout faults after 2 s
                backend.close();
                ContentResponse late = client.newRequest(url).method(HttpMethod.POST).headers(h -> h.put("SOAPAction", "urn:getQuote"))
                        .body(new StringRequestContent("text/xml; charset=UTF-8", SoapEnvelopes.request11("getQuote", "IBM")))
                        .timeout(20, TimeUnit.SECONDS).send();
                assertEquals(FaultReason.SERVER_TIMEOUT.code(), late.getHeaders().get("X-Slagate-Fault"), late.getContentAsString());

                // the broker goes away: requests for the JMS server fail fast with server-unreachable (no send
                // blocks a thread while the failover transport looks for the broker)
                broker.close();
                await("the gateway notices").atMost(Duration.ofSeconds(20)).until(() -> {
                    ContentResponse r = client.newRequest(url).method(HttpMethod.POST).headers(h -> h.put("SOAPAction", "urn:getQuote"))
                            .body(new StringRequestContent("text/xml; charset=UTF-8", SoapEnvelopes.request11("getQuote", "IBM")))
                            .timeout(20, TimeUnit.SECONDS).send();
                    return FaultReason.SERVER_UNREACHABLE.code().equals(r.getHeaders().get("X-Slagate-Fault"));
                });
                List<CompletableFuture<ContentResponse>> burst = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    burst.add(new CompletableResponseListener(client.newRequest(url).method(HttpMethod.POST)
                            .headers(h -> h.put("SOAPAction", "urn:getQuote"))
                            .body(new StringRequestContent("text/xml; charset=UTF-8", SoapEnvelopes.request11("getQuote", "IBM")))
                            .timeout(20, TimeUnit.SECONDS)).send());
                }
                for (var f : burst) {
                    assertEquals(FaultReason.SERVER_UNREACHABLE.code(), f.get(20, TimeUnit.SECONDS).getHeaders().get("X-Slagate-Fault"));
                }

                // a completion is counted once its last write's callback ran, which may be just after the client read it
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gw.metrics().inFlight() == 0);
                assertEquals(gw.metrics().totals().arrived(), gw.metrics().totals().completed() + gw.metrics().totals().faulted()
                        + gw.metrics().inFlight(), "the counters balance");
                assertEquals(0, gw.metrics().inFlight());
                System.out.printf("SOAP/JMS: %d requests through the JMS server, max outstanding %d (cap 3)%n", ok.get(), maxOutstanding.get());
            } finally {
                client.stop();
                gw.stop(Duration.ofSeconds(3));
                backend.close();
            }
        }
    }
}
