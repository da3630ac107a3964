package io.slagate.gateway;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.micrometer.core.instrument.FunctionCounter;
import io.slagate.gateway.stats.SlaLedger;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import io.slagate.gateway.testing.TestConfigs;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.junit.jupiter.api.Test;

/**
 * What counts toward a class's objective, over real HTTP and a clock the test moves: a server's answer within the
 * goal is good; one past it, a server's 5xx and a fault the customer did not cause are bad; what the client caused
 * is not counted; a class that states no objective is not counted at all. Per customer, as /metrics exports it.
 */
class SlaObjectiveCountsTest {
    private static final String CONFIG = """
            gateway: { listen: "127.0.0.1:0", admin: "127.0.0.1:0" }
            servers: [ { id: s1, url: "%s", concurrency: 4 } ]
            classes:
              - { name: gold, target: 1s, objective: 99%%, period: calendar-month }
              - { name: free, target: 1s }
            classification:
              customerFrom: "header:X-Customer"
              subscriptions: { acme: { "*": gold }, initech: { "*": gold }, umbrella: { "*": gold } }
              rules: [ { service: "/services/Free", class: free }, { grade: gold, class: gold } ]
              defaultClass: gold
            """;

    private static RawHttp.Response post(Gateway g, String path, String customer) throws Exception {
        return RawHttp.exchange(g.port(), RawHttp.post(path, "X-Customer: " + customer + "\r\n", Soap.envelope11("getQuote")));
    }

    private static CompletableFuture<RawHttp.Response> postAsync(Gateway g, String customer) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return post(g, "/services/Quote", customer);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static double counter(Gateway g, String name, String customer) {
        FunctionCounter c = g.registry().find(name).tags("class", "gold", "customer", customer).functionCounter();
        return c == null ? -1 : c.count();
    }

    private static long total(Gateway g, String customer) {
        SlaLedger.Counts c = g.sla().counted("gold", customer);
        return c == null ? 0 : c.total();
    }

    @Test
    void goodBadAndNotCounted_perCustomer() throws Exception {
        AtomicLong clock = new AtomicLong();
        try (TestBackend b = new TestBackend();
             Gateway g = new Gateway(TestConfigs.parse(CONFIG.formatted(b.url()), "objective.yaml"), clock::get).start()) {
            for (int i = 0; i < 3; i++) {
                assertEquals(200, post(g, "/services/Quote", "acme").status());
            }
            // late: the clock moves 2 s while the server holds the request
            b.behave(b.hold());
            CompletableFuture<RawHttp.Response> late = postAsync(g, "acme");
            TestBackend.Held held = b.takeHeld(10_000);
            clock.addAndGet(Duration.ofSeconds(2).toNanos());
            held.reply("<late/>");
            assertEquals(200, late.get(10, TimeUnit.SECONDS).status());
            // a server failure, in time
            b.behave(new Handler.Abstract() {
                @Override
                public boolean handle(org.eclipse.jetty.server.Request request, org.eclipse.jetty.server.Response response,
                                      org.eclipse.jetty.util.Callback callback) {
                    response.setStatus(500);
                    Content.Sink.write(response, true, "<fault/>", callback);
                    return true;
                }
            });
            assertEquals(500, post(g, "/services/Quote", "initech").status());
            // the client's own doing: not a SOAP message
            String json = "POST /services/Quote HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\nX-Customer: acme\r\n"
                    + "Content-Length: 2\r\n\r\n{}";
            RawHttp.Response malformed = RawHttp.exchange(g.port(), json);
            assertTrue(malformed.status() != 200 && malformed.body().contains("malformed-request"), malformed.body());
            // a class without an objective
            assertEquals(500, post(g, "/services/Free", "acme").status());

            // the answer reaches the client a moment before the gateway counts it done
            await().atMost(Duration.ofSeconds(5)).until(() -> total(g, "acme") == 4 && total(g, "initech") == 1);
            SlaLedger.Counts acme = g.sla().counted("gold", "acme");
            assertEquals(4, acme.total(), "three in time, one late; the malformed one is not counted");
            assertEquals(3, acme.good());
            SlaLedger.Counts initech = g.sla().counted("gold", "initech");
            assertEquals(1, initech.total());
            assertEquals(0, initech.good(), "a 5xx is a server failure, however fast");
            assertNull(g.sla().counted("free", "acme"), "a class stating no objective is not counted");
            await().atMost(Duration.ofSeconds(5)).until(() -> counter(g, "slagate.sla.requests", "acme") == 4);
            assertEquals(3, counter(g, "slagate.sla.requests.good", "acme"));
            assertEquals(1, counter(g, "slagate.sla.requests", "initech"));
            String scrape = g.registry().scrape();
            assertTrue(Pattern.compile("(?m)^slagate_sla_requests_good_total\\{[^}]*customer=\"acme\"[^}]*\\} 3\\.0$")
                    .matcher(scrape).find(), scrape.lines().filter(l -> l.contains("sla")).toList().toString());
        }
    }

    @Test
    void claimedNamesTheConfigurationDoesNotKnow_areCountedAsOther() throws Exception {
        try (TestBackend b = new TestBackend();
             Gateway g = new Gateway(TestConfigs.parse(CONFIG.formatted(b.url()), "claims.yaml")).start()) {
            // names are claimed here (no authentication): a client inventing them gets no series of its own
            for (int i = 0; i < 5; i++) {
                assertEquals(200, post(g, "/services/Quote", "mallory-" + i).status());
            }
            assertEquals(200, post(g, "/services/Quote", "acme").status());
            await().atMost(Duration.ofSeconds(5)).until(() -> total(g, SlaLedger.OTHER) == 5 && total(g, "acme") == 1);
            assertNull(g.sla().counted("gold", "mallory-0"));
            assertEquals(-1, counter(g, "slagate.sla.requests", "mallory-0"), "no series for an invented name");
        }
    }

    @Test
    void aQueueTimeout_isTheGatewaysFault_andCountsAsBad() throws Exception {
        AtomicLong clock = new AtomicLong();
        String config = CONFIG.replace("concurrency: 4", "concurrency: 1").replace("period: calendar-month",
                "period: 30d, queueTimeout: 200ms");
        try (TestBackend b = new TestBackend();
             Gateway g = new Gateway(TestConfigs.parse(config.formatted(b.url()), "timeout.yaml"), clock::get).start()) {
            b.behave(b.hold());
            CompletableFuture<RawHttp.Response> first = postAsync(g, "acme");
            TestBackend.Held held = b.takeHeld(10_000);
            CompletableFuture<RawHttp.Response> queued = postAsync(g, "umbrella");
            await().atMost(Duration.ofSeconds(10)).until(() -> g.queues().counts().waiting(0) == 1);
            clock.addAndGet(Duration.ofMillis(1500).toNanos()); // past the queue timeout: the sweep answers it
            RawHttp.Response timedOut = queued.get(10, TimeUnit.SECONDS);
            assertTrue(timedOut.status() != 200 && timedOut.body().contains("queue-timeout"), timedOut.status() + " " + timedOut.body());
            held.reply("<ok/>");
            assertEquals(200, first.get(10, TimeUnit.SECONDS).status());
            await().atMost(Duration.ofSeconds(5)).until(() -> total(g, "acme") == 1 && total(g, "umbrella") == 1);
            assertEquals(0, g.sla().counted("gold", "umbrella").good());
            assertEquals(0, g.sla().counted("gold", "acme").good(), "answered 1.5 s after it came, past the 1 s goal");
        }
    }
}
