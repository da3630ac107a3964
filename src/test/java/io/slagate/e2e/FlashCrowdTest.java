package io.slagate.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.node.EmbeddedSystem;
import io.slagate.config.ConfigLoader;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.testing.TestBackend;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.SecondSample;
import io.slagate.load.Summary;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flash crowd: the servers can take ~500 req/s; Premium asks 150 req/s
 * throughout, Basic jumps from 100 req/s to 3,000 req/s (about 6× capacity) for 12 s, then drops
 * back. Open loop, so the crowd does not slow itself down. Bounded queues shed Basic with 503
 * queue-full faults; Premium keeps its target; heap stays bounded; Basic recovers within a few
 * cycles of the crowd leaving; every request gets exactly one response and the counters balance.
 */
class FlashCrowdTest {
    @TempDir
    Path dir;

    @Test
    void flood_premiumMeetsTarget_basicShed_heapBounded_recovers() throws Exception {
        try (TestBackend backend = new TestBackend()) {
            backend.behave(backend.delayed(20)); // 20 ms per request, 10 slots: ~500 req/s
            Path file = dir.resolve("slagate.yaml");
            Files.writeString(file, """
                    gateway:
                      id: gw1
                      listen: "127.0.0.1:0"
                      admin: "127.0.0.1:0"
                      faultStatus: http
                      stats: { reportingInterval: 250ms, window: 1500ms }
                    servers: [ { id: s1, url: "%s", concurrency: 10 } ]
                    classes:
                      - { name: premium, target: 100ms, queueBound: 2000, queueTimeout: 5s }
                      - { name: basic, target: 300ms, queueBound: 100, queueTimeout: 2s }
                    classification: { rules: [ { operation: "urn:premium", class: premium } ], defaultClass: basic }
                    allocation: { weights: { premium: 5, basic: 5 } }
                    bus: { url: "vm://flash-crowd", listen: "" }
                    controller: { cycle: 250ms, combining: min, resolution: 0.1 }
                    """.formatted(backend.url()));
            try (EmbeddedSystem system = EmbeddedSystem.start(ConfigLoader.load(file), EmbeddedSystem.Parts.CORE)) {
                Gateway gw = system.gateway();
                LoadSpec spec = new LoadSpec("http://127.0.0.1:" + gw.port(), "/services/StockUtility",
                        "http://127.0.0.1:" + gw.adminPort() + "/stats",
                        List.of(new LoadSpec.ClassSpec("premium", "premium", null, false, Duration.ofMillis(100)),
                                new LoadSpec.ClassSpec("basic", "basic", null, false, Duration.ofMillis(300))),
                        List.of(new LoadSpec.Phase(Duration.ofSeconds(6), List.of(150.0, 100.0)),
                                new LoadSpec.Phase(Duration.ofSeconds(12), List.of(150.0, 3000.0)),
                                new LoadSpec.Phase(Duration.ofSeconds(8), List.of(150.0, 100.0))),
                        true, Duration.ZERO, Duration.ZERO, 17, Duration.ofSeconds(20), dir.resolve("out"));
                AtomicLong peakHeap = new AtomicLong();
                ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
                sampler.scheduleAtFixedRate(() -> peakHeap.accumulateAndGet(
                        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max), 0, 100, TimeUnit.MILLISECONDS);
                LoadGenerator load = new LoadGenerator(spec, null);
                Summary s;
                try {
                    s = load.run();
                } finally {
                    sampler.shutdownNow();
                }
                List<SecondSample> samples = load.samples();
                double premiumFloodMs = meanOverTail(samples, "premium", 2, 0);
                long basicShed = s.classes().get("basic").errors().getOrDefault("queue-full", 0L)
                        + s.classes().get("basic").errors().getOrDefault("queue-timeout", 0L);
                double basicAfterMs = meanOverTail(samples, "basic", 3, 4);
                long basicErrorsAfter = samples.stream().filter(x -> x.phase() == 3 && x.className().equals("basic"))
                        .skip(4).mapToLong(SecondSample::errors).sum();
                System.out.printf(Locale.ROOT, "flash crowd: sent %d answered %d; premium during flood %.1f ms (p99 overall %.1f ms);"
                                + " basic shed %d; basic after %.1f ms; peak heap %d MiB%n", s.sent(), s.answered(), premiumFloodMs,
                        s.classes().get("premium").p99Ms(), basicShed, basicAfterMs, peakHeap.get() >> 20);
                assertEquals(0, s.lost(), "every request got exactly one response");
                assertTrue(premiumFloodMs < 100, "premium meets its 100 ms target during the flood: " + premiumFloodMs);
                assertEquals(0, s.classes().get("premium").errors().size(), "premium is never shed: " + s.classes().get("premium").errors());
                assertTrue(basicShed > 1000, "basic is shed with 503 faults: " + s.classes().get("basic").errors());
                assertTrue(basicAfterMs < 300 && basicErrorsAfter == 0, "basic recovers within a few cycles: " + basicAfterMs
                        + " ms, errors " + basicErrorsAfter);
                assertTrue(peakHeap.get() < 1024L << 20, "heap stays bounded (load generator, gateway and backend together): "
                        + (peakHeap.get() >> 20) + " MiB");
                // a completion is counted once its last write's callback ran, which may be just after the client read it
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gw.metrics().inFlight() == 0);
                assertEquals(gw.metrics().totals().arrived(), gw.metrics().totals().completed() + gw.metrics().totals().faulted()
                        + gw.metrics().inFlight(), "the gateway's counters balance");
            }
        }
    }

    /** Completion-weighted mean response time of a class over a phase, after its first seconds. */
    private static double meanOverTail(List<SecondSample> samples, String cls, int phase, int skipSeconds) {
        return SecondSample.weightedMeanMs(samples.stream().filter(x -> x.phase() == phase && x.className().equals(cls))
                .skip(skipSeconds).toList());
    }
}
