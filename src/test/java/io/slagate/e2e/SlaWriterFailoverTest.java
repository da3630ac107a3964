package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.bus.ControlBus;
import io.slagate.bus.EmbeddedBroker;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.agent.GatewayAgent;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import io.slagate.sla.SlaStore;
import io.slagate.sla.SlaStores;
import io.slagate.sla.SlaWriter;
import io.slagate.rm.ControlLoop;
import io.slagate.rm.Overrides;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two resource managers, each with its SLA writer on one store, as an active manager and its standby run: one writes,
 * the other stands by; when the first stops, the second takes over (the control and the writing), and the store's
 * counts over both spans equal what the clients of two gateways were answered, not one lost or counted twice.
 */
class SlaWriterFailoverTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    private SlagateConfig config(String id, String backend) {
        return ConfigLoader.parse("""
                gateway: { id: %s, listen: "127.0.0.1:0", admin: "127.0.0.1:0", stats: { reportingInterval: 1s, window: 5s } }
                servers: [ { id: s1, url: "%s", concurrency: 8 } ]
                classes: [ { name: gold, target: 1s, objective: 99%% } ]
                classification: { subscriptions: { acme: { "*": gold } }, rules: [ { grade: gold, class: gold } ], defaultClass: gold }
                sla: { store: "jdbc:sqlite:%s" }
                """.formatted(id, backend, dir.resolve("sla.db")), id + ".yaml");
    }

    /** Requests answered within the class's 1 s target as the clients timed them (the gateway's time is a little less). */
    private int within;

    private int send(int[] ports, int requests) throws Exception {
        int ok = 0;
        String auth = "Basic " + Base64.getEncoder().encodeToString("acme:x".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < requests; i++) {
            long start = System.nanoTime();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports[i % ports.length] + "/svc"))
                    .timeout(Duration.ofSeconds(10)).header("Content-Type", "text/xml").header("SOAPAction", "\"urn:getQuote\"")
                    .header("Authorization", auth).POST(HttpRequest.BodyPublishers.ofString(Soap.envelope11("getQuote"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            ok += r.statusCode() == 200 ? 1 : 0;
            within += r.statusCode() == 200 && System.nanoTime() - start <= 1_000_000_000L ? 1 : 0;
        }
        return ok;
    }

    private static long[] stored(SlagateConfig config) throws Exception {
        try (SlaStore s = SlaStores.of(config).open()) {
            long now = System.currentTimeMillis();
            long requests = 0;
            long good = 0;
            for (SlaStore.Totals t : s.totals(now - 600_000, now + 1, null, now)) {
                requests += t.requests();
                good += t.good();
            }
            return new long[] {requests, good};
        }
    }

    @Test
    void theStandbyWriterTakesOver_andTheStoreHoldsEveryAnswerOnce() throws Exception {
        List<AutoCloseable> open = new ArrayList<>();
        try (EmbeddedBroker broker = EmbeddedBroker.start("sla-failover", "", null, null); TestBackend backend = new TestBackend()) {
            backend.behave(TestBackend.echo());
            SlagateConfig gw1 = config("gw1", backend.url());
            int[] ports = new int[2];
            for (int g = 0; g < 2; g++) {
                Gateway gateway = new Gateway(config("gw" + (g + 1), backend.url())).start();
                ControlBus bus = new ControlBus(broker.vmUrl(), null, null, "gw" + (g + 1));
                GatewayAgent agent = new GatewayAgent(gateway, bus);
                bus.start();
                open.add(() -> gateway.stop(Duration.ofSeconds(1)));
                open.add(bus);
                open.add(agent);
                ports[g] = gateway.port();
            }
            ControlBus busA = new ControlBus(broker.vmUrl(), null, null, "rm-a");
            ControlBus busB = new ControlBus(broker.vmUrl(), null, null, "rm-b");
            open.add(busA);
            open.add(busB);
            // each manager's process: its control loop and its writer on its own bus connection
            ControlLoop loopA = new ControlLoop("rm-a", gw1, busA, new Overrides(), new SimpleMeterRegistry());
            ControlLoop loopB = new ControlLoop("rm-b", gw1, busB, new Overrides(), new SimpleMeterRegistry());
            SlaWriter a = SlaWriter.start("rm-a", gw1, busA);
            SlaWriter b = SlaWriter.start("rm-b", gw1, busB);
            open.add(loopA);
            open.add(loopB);
            open.add(a);
            open.add(b);
            busA.start();
            busB.start();
            loopA.start();
            loopB.start();

            int first = send(ports, 60);
            assertEquals(60, first);
            await("the first writer's counts").atMost(DEADLINE).until(() -> stored(gw1)[0] == 60);
            await("one writes, the other stands by").atMost(DEADLINE).until(() -> a.standingBy() != b.standingBy());
            // the one that writes stops with its manager: the last flush, then the lease given up
            boolean aWrites = !a.standingBy();
            SlaWriter writing = aWrites ? a : b;
            SlaWriter standby = aWrites ? b : a;
            writing.close();
            (aWrites ? loopA : loopB).close();
            (aWrites ? busA : busB).close();
            int second = send(ports, 40);
            assertEquals(40, second);
            await("the standby takes over and writes the rest").atMost(DEADLINE).until(() -> stored(gw1)[0] == 100);
            await("the standby writes now").atMost(DEADLINE).until(() -> !standby.standingBy());
            long[] k = stored(gw1);
            assertEquals(100, k[0], "every answer counted once");
            assertEquals(within, k[1], 1, "good as the clients timed it, within one request (the gateway's clock starts later)");
            assertEquals(0, a.refused() + b.refused() + a.dropped() + b.dropped() + a.refusedRows() + b.refusedRows());
            assertTrue(a.written() > 0 && b.written() > 0, "both wrote, each in its turn: " + a.written() + ", " + b.written());
        } finally {
            for (int i = open.size() - 1; i >= 0; i--) {
                open.get(i).close();
            }
        }
    }
}
