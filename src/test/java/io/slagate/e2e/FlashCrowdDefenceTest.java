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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flash-crowd defence through the whole system: the controller's cycle is 60 s, so
 * any decision within the run comes from the alarm. Basic surges tenfold beyond the server: the gateway
 * raises the alarm and reports at once, the resource manager runs a cycle at once, basic is held to its
 * share while premium is answered, and every request gets exactly one response.
 */
class FlashCrowdDefenceTest {
    @TempDir
    Path dir;

    @Test
    void aSurge_raisesTheAlarm_theManagerDecidesAtOnce_andNothingIsLost() throws Exception {
        try (TestBackend backend = new TestBackend()) {
            backend.behave(backend.delayed(20)); // 10 slots of 20 ms: ~500 req/s
            String yaml = """
                    gateway:
                      id: gw1
                      listen: "127.0.0.1:0"
                      admin: "127.0.0.1:0"
                      faultStatus: http
                      stats: { reportingInterval: 1s, window: 5s }
                      flashCrowd: { factor: 5, minRate: 5 }
                    servers: [ { id: s1, url: "%s", concurrency: 10 } ]
                    classes:
                      - { name: premium, target: 100ms, queueBound: 2000, queueTimeout: 5s }
                      - { name: basic, target: 300ms, queueBound: 100, queueTimeout: 1s }
                    classification: { rules: [ { operation: "urn:premium", class: premium } ], defaultClass: basic }
                    allocation: { weights: { premium: 3, basic: 7 } }
                    bus: { url: "vm://flash-crowd-defence", listen: "" }
                    controller: { cycle: 60s, combining: min, resolution: 0.1 }
                    """.formatted(backend.url());
            try (EmbeddedSystem system = EmbeddedSystem.start(ConfigLoader.parse(yaml, "flash-crowd-defence"), EmbeddedSystem.Parts.CORE)) {
                Gateway gw = system.gateway();
                LoadSpec spec = new LoadSpec("http://127.0.0.1:" + gw.port(), "/services/StockUtility", null,
                        List.of(new LoadSpec.ClassSpec("premium", "premium", null, false, Duration.ofMillis(100)),
                                new LoadSpec.ClassSpec("basic", "basic", null, false, Duration.ofMillis(300))),
                        List.of(new LoadSpec.Phase(Duration.ofSeconds(12), List.of(50.0, 40.0)), // past the 10 s warm-up
                                new LoadSpec.Phase(Duration.ofSeconds(6), List.of(50.0, 1500.0))),
                        true, Duration.ZERO, Duration.ZERO, 23, Duration.ofSeconds(20), dir.resolve("out"));
                Summary s = new LoadGenerator(spec, null).run();

                assertTrue(system.controlLoop().status().counts().flashCrowdCycles() >= 1, "a cycle ran at once for the alarm, 60 s before its time");
                JsonNode stats = new ObjectMapper().readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + gw.adminPort() + "/stats")).build(), HttpResponse.BodyHandlers.ofString()).body());
                JsonNode events = stats.path("flashCrowd").path("events");
                assertTrue(events.size() >= 1 && "basic".equals(events.get(0).path("class").asText())
                        && "raised".equals(events.get(0).path("event").asText()), "the alarm is shown: " + stats.path("flashCrowd"));
                assertEquals(0, s.lost(), "every request got exactly one response");
                assertEquals(0, s.classes().get("premium").errors().size(), "premium is never shed: " + s.classes().get("premium").errors());
                long shed = s.classes().get("basic").errors().getOrDefault("queue-full", 0L)
                        + s.classes().get("basic").errors().getOrDefault("queue-timeout", 0L);
                assertEquals(s.classes().get("basic").errors().values().stream().mapToLong(Long::longValue).sum(), shed,
                        "basic's only faults are its queue's: " + s.classes().get("basic").errors());
                assertTrue(shed > 0, "basic beyond the server is shed with faults");
                assertTrue(s.classes().get("premium").p95Ms() < 100, "premium within its target: p95 " + s.classes().get("premium").p95Ms());
                long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                while (gw.metrics().inFlight() > 0 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                // a completion is counted once its last write's callback ran, which may be just after the client read it
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gw.metrics().inFlight() == 0);
                assertEquals(gw.metrics().totals().arrived(), gw.metrics().totals().completed() + gw.metrics().totals().faulted()
                        + gw.metrics().inFlight(), "the gateway's counters balance");
            }
        }
    }
}
