package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.node.EmbeddedSystem;
import io.slagate.config.ConfigLoader;
import io.slagate.gateway.Gateway;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import io.slagate.rm.tune.Tuner;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The safe/experimental split end to end: one JVM with the broker, the manager and a gateway, two synthetic
 * Axis2-compatible servers (50 ms exponential), real HTTP, open-loop load of 60 requests/s split half and half between
 * the class and its twin. The tuner's only knob is slagate's N_s in [1, 2], from 2: every trial it can make is N_s 1,
 * where its side gets 30 requests/s of what one slot serves at 20/s, so the side's queue grows without bound. Each
 * such trial must be aborted before its period ends; the safe side must stay on N_s 2 all along; every request sent
 * must get exactly one answer; and the gateway's counters must balance.
 */
class TuningSplitEndToEndTest {
    private static final Duration DEADLINE = Duration.ofSeconds(40);

    @Test
    void aBadTrial_isAbortedWithinItsPeriod_theSafeSideKeepsItsConfiguration_everyRequestAnsweredOnce() throws Exception {
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0, 0), ServiceTime.of(Duration.ofMillis(50), 0))) {
            String yaml = """
                    gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", stats: { reportingInterval: 250ms, window: 1s } }
                    servers:
                      - { id: s1, url: "%s", concurrency: 2, pool: a }
                      - { id: s2, url: "%s", concurrency: 2, pool: a-trial }
                    classes:
                      - { name: premium, target: 300ms, pool: a, queueBound: 100000, queueTimeout: 10s }
                      - { name: premium-trial, target: 300ms, pool: a-trial, queueBound: 100000, queueTimeout: 10s }
                    classification: { defaultClass: premium }
                    bus: { url: "vm://tuning-split-test", listen: "" }
                    controller:
                      cycle: 250ms
                      tuning: { safe: a, experimental: a-trial, share: 0.5, twins: { premium: premium-trial },
                        period: 4s, settle: 1s, minGain: 0.01, abortDrop: 0.3, stallTrials: 50,
                        knobs: [ { name: concurrency, min: 1, max: 2 } ] }
                    """.formatted(backend.urls().get(0), backend.urls().get(1));
            try (EmbeddedSystem system = EmbeddedSystem.start(ConfigLoader.parse(yaml, "tuning-split"), EmbeddedSystem.Parts.CORE)) {
                Gateway gateway = system.gateway();
                LoadSpec spec = new LoadSpec("http://127.0.0.1:" + gateway.port(), "/services/StockUtility", null,
                        List.of(new LoadSpec.ClassSpec("premium", "getQuote", null, false, Duration.ofMillis(300))),
                        List.of(new LoadSpec.Phase(Duration.ofSeconds(25), List.of(60.0))),
                        true, Duration.ZERO, Duration.ZERO, 18, Duration.ofSeconds(30), null);
                CompletableFuture<Summary> load = CompletableFuture.supplyAsync(() -> {
                    try {
                        return new LoadGenerator(spec, null).run();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });

                await("a trial of N_s 1 is aborted").atMost(DEADLINE).pollInterval(Duration.ofMillis(100)).until(() ->
                        system.controlLoop().tuner() != null
                                && system.controlLoop().tuner().trials().stream().anyMatch(t -> t.outcome().startsWith("aborted")));
                Tuner.Trial aborted = system.controlLoop().tuner().trials().stream()
                        .filter(t -> t.outcome().startsWith("aborted")).findFirst().orElseThrow();
                assertEquals(1.0, aborted.values()[0], "the only trial there is: " + aborted);
                // aborted before the period ended: "means so far" is the tuner's word for a period cut short
                assertTrue(aborted.outcome().contains("means so far"), aborted.outcome());
                for (Tuner.Trial t : system.controlLoop().tuner().trials()) {
                    assertTrue(!t.outcome().startsWith("promoted"), "N_s 1 must never reach the safe side: " + t);
                }
                assertEquals(List.of(2.0), Arrays.stream(system.controlLoop().tuner().bestValues()).boxed().toList());

                Summary s = load.get(60, TimeUnit.SECONDS);
                assertEquals(0, s.lost(), "every request sent was answered: " + s);
                assertEquals(s.sent(), s.answered());
                assertTrue(s.sent() > 1000, "the load ran: " + s.sent());
                await("the gateway drains").atMost(DEADLINE).until(() -> gateway.metrics().inFlight() == 0);
                assertEquals(gateway.metrics().totals().arrived(), gateway.metrics().totals().completed() + gateway.metrics().totals().faulted(),
                        "the gateway's counters balance");
                assertEquals(s.sent(), gateway.metrics().totals().arrived(), "each request reached the gateway once");
            }
        }
    }
}
