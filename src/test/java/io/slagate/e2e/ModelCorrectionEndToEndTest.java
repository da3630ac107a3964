package io.slagate.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.node.EmbeddedSystem;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The online model correction on the real system: the paper's M/M/1 model, which assumes that a flow's
 * arrivals do not depend on its share, drives a closed-loop load (clients with think time), whose
 * arrivals rise with the share. So the backend answers a share change more slowly than the model
 * assumes: M/M/1 over-predicts how much the response time moves (known independently: in a closed loop
 * part of every added slot goes to the extra requests it draws). The correction must learn a gain below
 * 1 for a flow whose share moved, keep the model error it reports small at steady state, and never put
 * a non-finite weight into force.
 */
class ModelCorrectionEndToEndTest {
    private static final double SCALE = 0.02;

    private static final String YAML = """
            gateway:
              id: gw1
              listen: "127.0.0.1:0"
              admin: "127.0.0.1:0"
              scheduler: wrr
              stats: { reportingInterval: 100ms, window: 600ms }
            servers: [ { id: s1, url: "%s", concurrency: 10 } ]
            classes:
              - { name: premium, target: 40ms, queueBound: 10000, queueTimeout: 1m }
              - { name: basic, target: 60ms, queueBound: 10000, queueTimeout: 1m }
            classification:
              subscriptions: { gold-customer: { "*": gold } }
              rules: [ { grade: gold, class: premium } ]
              defaultClass: basic
            allocation: { weights: { premium: 5, basic: 5 } }
            bus: { url: "vm://model-correction-e2e", listen: "" }
            controller: { cycle: 100ms, combining: min, resolution: 0.1, model: mm1, correctionBound: 4 }
            """;

    @Test
    void mm1OnClosedLoopClients_learnsAGainBelowOne_andItsErrorStaysSmall() throws Exception {
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(SCALE, 0.02))) {
            SlagateConfig config = ConfigLoader.parse(String.format(Locale.ROOT, YAML, backend.urls().get(0)), "e2e");
            try (EmbeddedSystem system = EmbeddedSystem.start(config, EmbeddedSystem.Parts.CORE)) {
                LoadSpec spec = new LoadSpec("http://127.0.0.1:" + system.gateway().port(), "/services/StockUtility", null,
                        List.of(new LoadSpec.ClassSpec("premium", "getQuote", "gold-customer", false, Duration.ofMillis(40)),
                                new LoadSpec.ClassSpec("basic", "getQuote", "silver-customer", false, Duration.ofMillis(60))),
                        List.of(new LoadSpec.Phase(Duration.ofSeconds(60), List.of(16.0, 16.0))),
                        false, Duration.ofMillis(20), Duration.ZERO, 5, Duration.ofMinutes(1), null);
                LoadGenerator load = new LoadGenerator(spec, null);
                CompletableFuture<Summary> running = CompletableFuture.supplyAsync(() -> {
                    try {
                        return load.run();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                try {
                    // 1. the gain of some flow falls below 1 (the correction learned that M/M/1 over-reacts here)
                    long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
                    double lowestGain = 1;
                    DecisionMessage d = null;
                    while (System.nanoTime() < deadline && lowestGain >= 0.9) {
                        d = system.controlLoop().status().lastDecision();
                        if (d != null) {
                            for (DecisionMessage.FlowDecision f : d.flows()) {
                                assertFinite(f);
                                lowestGain = Math.min(lowestGain, f.modelGain());
                            }
                        }
                        Thread.sleep(50); // polling interval, not a wait for a condition: the deadline bounds it
                    }
                    assertTrue(lowestGain < 0.9, "a flow's gain fell below 1 within 40 s: lowest " + lowestGain + ", last " + d);
                    // 2. the model error it reports over 30 decisions after the next 10 (each decision counted once)
                    List<Double> errors = new ArrayList<>();
                    long seen = -1;
                    int skip = 10;
                    long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
                    while (errors.size() < 30 && System.nanoTime() < until) {
                        d = system.controlLoop().status().lastDecision();
                        if (d.version() != seen) {
                            seen = d.version();
                            if (skip-- > 0) {
                                continue;
                            }
                            for (DecisionMessage.FlowDecision f : d.flows()) {
                                assertFinite(f);
                                assertTrue(f.modelGain() >= 0.25 - 1e-9 && f.modelGain() <= 4 + 1e-9, "gain within its bound: " + f);
                                if (Double.isFinite(f.modelError())) {
                                    errors.add(f.modelError());
                                }
                            }
                        }
                        Thread.sleep(20);
                    }
                    assertTrue(errors.size() >= 30, "30 model errors reported within 15 s: " + errors.size());
                    List<Double> sorted = errors.stream().sorted().toList();
                    double median = sorted.get(sorted.size() / 2);
                    System.out.printf(Locale.ROOT, "lowest gain %.2f; median model error %.1f%% over %d flow-decisions%n",
                            lowestGain, 100 * median, errors.size());
                    assertTrue(median < 0.25, "median model error at steady state under 25%: " + sorted);
                } finally {
                    load.stop();
                    assertEquals(0, running.get().lost(), "every request answered");
                }
            }
        }
    }

    private static void assertFinite(DecisionMessage.FlowDecision f) {
        assertTrue(Double.isFinite(f.weight()) && f.weight() >= 0, "a finite weight in force: " + f);
    }
}
