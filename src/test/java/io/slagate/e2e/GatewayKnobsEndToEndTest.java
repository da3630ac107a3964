package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.ControlBus;
import io.slagate.bus.EmbeddedBroker;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.agent.GatewayAgent;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import io.slagate.rm.ControlLoop;
import io.slagate.rm.Overrides;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.awaitility.Awaitility;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gateway-side knobs end to end, on a real broker over TCP, a real gateway and a real HTTP backend. The
 * manager's queue timeout for class {@code trial} (what its tuner's queueTimeout knob writes) reaches the gateway with
 * the next allocation. With the server's one slot held, a {@code trial} request is shed at that timeout, with its own
 * queue-timeout fault, while a {@code safe} request queued before it, under the configured 30 s, waits on and is
 * answered; the gateway reports the shed request as a failure of its class (what the tuner is charged), and its
 * counters balance. The manager's statistics window (the window knob) shortens the gateway's, and goes back.
 */
class GatewayKnobsEndToEndTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    void theManagersTimeout_shedsOnlyItsClass_atThatTimeout_andIsReportedAsAFailure() throws Exception {
        String listen;
        try (ServerSocket s = new ServerSocket(0)) {
            listen = "tcp://127.0.0.1:" + s.getLocalPort();
        }
        EmbeddedBroker broker = EmbeddedBroker.start("e2e-queue-timeout", listen, null, null);
        open.add(broker);
        TestBackend backend = new TestBackend();
        open.add(backend);
        backend.behave(backend.hold());
        SlagateConfig config = ConfigLoader.parse("""
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  stats: { reportingInterval: 200ms, window: 10s }
                servers:
                  - { id: s1, url: "%s", concurrency: 1 }
                classes:
                  - { name: safe, target: 1s }
                  - { name: trial, target: 1s }
                classification: { rules: [ { operation: "urn:trial", class: trial } ], defaultClass: safe }
                bus: { url: "%s", embedded: false }
                controller: { cycle: 200ms }
                """.formatted(backend.url(), listen), "e2e-queue-timeout");
        Gateway gateway = new Gateway(config).start();
        open.add(() -> gateway.stop(Duration.ofSeconds(2)));
        ControlBus gwBus = new ControlBus(listen, null, null, "gw1");
        GatewayAgent agent = new GatewayAgent(gateway, gwBus);
        gwBus.start();
        open.add(gwBus);
        open.add(agent);
        Overrides overrides = new Overrides();
        ControlBus rmBus = new ControlBus(listen, null, null, "rm");
        ControlLoop rm = new ControlLoop("rm", config, rmBus, overrides, new SimpleMeterRegistry());
        rmBus.start();
        rm.start();
        open.add(rmBus);
        open.add(rm);

        overrides.setQueueTimeout("trial", 300); // as QueueTimeoutKnob.apply(0.3) does
        await("the timeout reaches the gateway with an allocation").atMost(DEADLINE)
                .until(() -> gateway.queues().timeouts().nanos(1) == 300_000_000L);
        assertEquals(30_000_000_000L, gateway.queues().timeouts().nanos(0), "the other class keeps its configured timeout");
        String stats = java.net.http.HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.adminPort() + "/stats")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        JsonNode shown = new ObjectMapper().readTree(stats)
                .path("allocation").path("queueTimeouts");
        assertEquals(0.3, shown.path("trial").path("seconds").asDouble(), 1e-9, "the operator sees the timeout in force: " + shown);
        assertEquals(30, shown.path("trial").path("configured").asDouble(), 1e-9);
        assertTrue(shown.path("safe").isMissingNode(), "only the classes the manager changed: " + shown);

        HttpClient client = new HttpClient();
        client.start();
        open.add(client::stop);
        CompletableFuture<ContentResponse> running = send(client, gateway, "urn:safe");
        TestBackend.Held first = backend.takeHeld(10_000);
        assertNotNull(first, "the one slot is taken");
        CompletableFuture<ContentResponse> waitingSafe = send(client, gateway, "urn:safe");
        long queuedAt = System.nanoTime();
        CompletableFuture<ContentResponse> waitingTrial = send(client, gateway, "urn:trial");
        ContentResponse shed = waitingTrial.get(10, TimeUnit.SECONDS);
        double waitedSeconds = (System.nanoTime() - queuedAt) / 1e9;
        assertEquals(500, shed.getStatus(), "a SOAP 1.1 fault (WS-I Basic Profile, the default faultStatus)");
        assertEquals("queue-timeout", shed.getHeaders().get("X-Slagate-Fault"));
        assertEquals("trial", Soap.parseFault(shed.getContent()).className(), "its own fault");
        assertTrue(waitedSeconds >= 0.3 && waitedSeconds < 10, "shed at the manager's timeout, not the configured 30 s: " + waitedSeconds);
        assertTrue(!waitingSafe.isDone(), "the safe request queued before it waits on");

        first.reply("<r1/>");
        assertEquals(200, running.get(10, TimeUnit.SECONDS).getStatus());
        TestBackend.Held second = backend.takeHeld(10_000);
        assertNotNull(second, "the safe request is admitted when the slot frees");
        second.reply("<r2/>");
        assertEquals(200, waitingSafe.get(10, TimeUnit.SECONDS).getStatus());

        assertEquals(1, gateway.metrics().faulted(FaultReason.QUEUE_TIMEOUT));
        // a completion is counted once its last write's callback ran, which may be just after the client read it
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gateway.metrics().inFlight() == 0);
        assertEquals(gateway.metrics().totals().arrived(), gateway.metrics().totals().completed() + gateway.metrics().totals().faulted(),
                "every request ended once");
        await("the report counts the shed request as the trial class's failure").atMost(DEADLINE).until(() -> {
            FlowStatsMessage trial = agent.statsMessage().flows().get(1);
            return trial.failureRate() > 0 && trial.failureRate() == trial.rejectionRate();
        });
        assertEquals(0, agent.statsMessage().flows().get(0).failureRate(), "the safe class failed nothing");

        assertEquals(50, gateway.metrics().windowIntervals(), "the configured 10 s of 200 ms intervals");
        overrides.setStatsWindow(400); // as WindowKnob.apply(0.4) does
        await("the window reaches the gateway with an allocation").atMost(DEADLINE).until(() -> gateway.metrics().windowIntervals() == 2);
        await("and its reports span it").atMost(DEADLINE).until(() -> Math.abs(gateway.flowStats().get(0).windowSeconds() - 0.4) < 1e-9);
        overrides.setStatsWindow(0);
        await("back to the configured window").atMost(DEADLINE).until(() -> gateway.metrics().windowIntervals() == 50);
    }

    private static CompletableFuture<ContentResponse> send(HttpClient client, Gateway g, String action) {
        return new CompletableResponseListener(client.newRequest("http://127.0.0.1:" + g.port() + "/services/Quotes")
                .method(HttpMethod.POST).headers(h -> h.put("SOAPAction", action))
                .body(new StringRequestContent("text/xml", Soap.envelope11("getQuote"))).timeout(20, TimeUnit.SECONDS)).send();
    }
}
