package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpMethod;
import org.junit.jupiter.api.Test;

/**
 * Classes and servers added and deleted while requests are held on the servers: new requests use
 * the new classes and servers at once, the requests accepted before finish normally, nothing is
 * dropped, and the counters balance across the change.
 */
class ReconfigureTest {
    private static SlagateConfig config(String gateway, String servers, String classes, String rules) {
        return TestConfigs.parse("""
                gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0"%s }
                servers: [ %s ]
                classes: [ %s ]
                classification: { customerFrom: "header:X-Customer", rules: [ %s ] }
                """.formatted(gateway, servers, classes, rules), "reconfigure");
    }

    private static CompletableFuture<ContentResponse> send(HttpClient client, Gateway gw, String customer) {
        return new CompletableResponseListener(client.newRequest("http://127.0.0.1:" + gw.port() + "/svc").method(HttpMethod.POST)
                .headers(h -> h.put("X-Customer", customer).put("SOAPAction", "urn:getQuote"))
                .body(new StringRequestContent("text/xml", Soap.envelope11("getQuote"))).timeout(20, TimeUnit.SECONDS)).send();
    }

    @Test
    void classesAndServersChangeLive_heldRequestsFinish_nothingDropped() throws Exception {
        try (TestBackend s1 = new TestBackend(); TestBackend s2 = new TestBackend()) {
            s1.behave(s1.hold());
            s2.behave(TestBackend.echo());
            String before = "{ name: premium, target: 1s }, { name: basic, target: 2s }";
            String oneServer = "{ id: s1, url: \"%s\", concurrency: 2 }".formatted(s1.url());
            Gateway gw = new Gateway(config("", oneServer, before, "{ customer: \"p*\", class: premium }")).start();
            HttpClient client = new HttpClient();
            client.start();
            try {
                // two requests held on s1 (its cap), a third waiting in basic's queue
                List<CompletableFuture<ContentResponse>> old = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    old.add(send(client, gw, "bob"));
                }
                await().atMost(Duration.ofSeconds(10)).until(() -> s1.heldCount() == 2 && gw.queues().counts().waiting(1) == 1);

                // add class gold (first), delete basic, add server s2 with s1 kept
                String after = "{ name: gold, target: 500ms }, { name: premium, target: 1s }";
                String twoServers = oneServer + ", { id: s2, url: \"%s\", concurrency: 4 }".formatted(s2.url());
                assertTrue(gw.reconfigure(config("", twoServers, after, "{ customer: \"g*\", class: gold }, { customer: \"p*\", class: premium }")));
                assertEquals(List.of("gold", "premium"), gw.config().classes().stream().map(c -> c.name()).toList());
                assertEquals(2, gw.queues().serverCount());

                ContentResponse gold = send(client, gw, "gina").get(20, TimeUnit.SECONDS);
                assertEquals(200, gold.getStatus(), "a request of the new class is served (by the new server: s1 is full)");
                assertEquals("gold", gold.getHeaders().get("X-Slagate-Class"));
                ContentResponse unmatched = send(client, gw, "bob").get(20, TimeUnit.SECONDS);
                assertEquals("premium", unmatched.getHeaders().get("X-Slagate-Class"),
                        "basic is gone: an unmatched request gets the default class, the last one");
                assertTrue(s2.received() >= 2, "the new server takes requests");

                assertEquals(2, gw.queues().server(0).outstanding(), "s1 still counts the two held before the change");

                // the requests accepted before the change finish on the old queues and slots; the one
                // queued in the deleted class is admitted when a slot frees
                s1.behave(TestBackend.echo());
                for (int i = 0; i < 2; i++) {
                    TestBackend.Held h = s1.takeHeld(10_000);
                    assertNotNull(h);
                    h.reply("<ok/>");
                }
                for (CompletableFuture<ContentResponse> f : old) {
                    ContentResponse r = f.get(20, TimeUnit.SECONDS);
                    assertEquals(200, r.getStatus());
                    assertEquals("basic", r.getHeaders().get("X-Slagate-Class"));
                }
                String metrics = client.GET("http://127.0.0.1:" + gw.adminPort() + "/metrics").getContentAsString();
                assertTrue(metrics.contains("slagate_queue_length{class=\"gold\""), "the new class has its gauges");
                assertFalse(metrics.contains("slagate_queue_length{class=\"basic\""), "the deleted class's gauges are gone");
                assertEquals(5, gw.metrics().totals().arrived());
                // every request was answered; the last completion may still be counting when its client has the answer
                await().atMost(Duration.ofSeconds(10)).until(() -> gw.metrics().inFlight() == 0);
                assertEquals(gw.metrics().totals().arrived(), gw.metrics().totals().completed() + gw.metrics().totals().faulted(),
                        "the counters balance across the change");
                assertEquals(0, gw.metrics().inFlight());

                // a change of the gateway's own listener needs a restart: the rest is applied, the answer says so
                assertFalse(gw.reconfigure(config(", maxConnections: 7", twoServers, after, "")));
                assertEquals(10_000, gw.config().gateway().maxConnections(), "the listener settings stay");
                assertEquals("premium", send(client, gw, "gina").get(20, TimeUnit.SECONDS).getHeaders().get("X-Slagate-Class"),
                        "the new (empty) rules are in force");
            } finally {
                client.stop();
                gw.stop(Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void twoChangesInARow_aSlotFreedByTheFirstConfigurationWakesTheLatest() throws Exception {
        try (TestBackend s1 = new TestBackend(); TestBackend s2 = new TestBackend()) {
            s1.behave(s1.hold());
            s2.behave(TestBackend.echo());
            String classes = "{ name: premium, target: 1s }, { name: basic, target: 2s }";
            String oneServer = "{ id: s1, url: \"%s\", concurrency: 2 }".formatted(s1.url());
            Gateway gw = new Gateway(config("", oneServer, classes, "")).start();
            HttpClient client = new HttpClient();
            client.start();
            try {
                List<CompletableFuture<ContentResponse>> first = List.of(send(client, gw, "a"), send(client, gw, "b"));
                await().atMost(Duration.ofSeconds(10)).until(() -> s1.heldCount() == 2);
                // second configuration: s2 added; third: s2 removed again, and a new class
                assertTrue(gw.reconfigure(config("", oneServer + ", { id: s2, url: \"%s\", concurrency: 2 }".formatted(s2.url()),
                        classes, "")));
                assertTrue(gw.reconfigure(config("", oneServer, classes + ", { name: gold, target: 1s }", "")));
                // the third configuration's request waits: s1's two slots are held by the first configuration
                CompletableFuture<ContentResponse> latest = send(client, gw, "c");
                await().atMost(Duration.ofSeconds(10)).until(() -> gw.queues().counts().waiting(2) == 1);
                s1.behave(TestBackend.echo());
                s1.takeHeld(10_000).reply("<one/>");
                assertEquals(200, latest.get(20, TimeUnit.SECONDS).getStatus(),
                        "the slot freed by the first configuration went to the third one's waiting request");
                s1.takeHeld(10_000).reply("<two/>");
                for (CompletableFuture<ContentResponse> f : first) {
                    assertEquals(200, f.get(20, TimeUnit.SECONDS).getStatus());
                }
                await().atMost(Duration.ofSeconds(10)).until(() -> gw.metrics().inFlight() == 0);
                assertEquals(gw.metrics().totals().arrived(), gw.metrics().totals().completed() + gw.metrics().totals().faulted(),
                        "the counters balance across both changes");
            } finally {
                client.stop();
                gw.stop(Duration.ofSeconds(2));
            }
        }
    }
}
