package io.slagate.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.node.EmbeddedSystem;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.sched.Allocation;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The whole system in scaled time (1 paper-second = 20 ms): load generator → gateway → the Axis2
 * StockUtility service, with and without the resource manager. Premium's target is 1 paper-second,
 * Basic's 10; 15 clients of each with exponential think and service times of 1 paper-second keep
 * the 10 slots contended. Under `fcfs` both classes see the same response time and Premium misses
 * its target; with the controller (min combining) Premium holds more weight throughout the measured
 * window and gets a clearly lower response time, paid for by Basic, which has room to spare.
 */
class DifferentiationEndToEndTest {
    private static final double SCALE = 0.02;

    private static String yaml(String backendUrl, String scheduler) {
        return String.format(Locale.ROOT, """
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  scheduler: %s
                  stats: { reportingInterval: 100ms, window: 600ms }
                servers: [ { id: s1, url: "%s", concurrency: 10 } ]
                classes:
                  - { name: premium, target: 20ms, queueBound: 10000, queueTimeout: 1m }
                  - { name: basic, target: 200ms, queueBound: 10000, queueTimeout: 1m }
                classification:
                  subscriptions: { gold-customer: { "*": gold } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                allocation: { weights: { premium: 5, basic: 5 } }
                bus: { url: "vm://differentiation-e2e", listen: "" }
                controller: { cycle: 100ms, combining: min, resolution: 0.1 }
                """, scheduler, backendUrl);
    }

    /**
     * The load's summary and the allocations in force during its measured window (after the warm-up, before the load
     * ends), sampled every 100 ms: the allocation after the run answers the load's end (premium's clients stop first
     * and a change-triggered cycle gives an idle class the minimum), not the load.
     */
    private record Outcome(Summary summary, List<Allocation> held) {
        double mean(String cls) {
            return summary.classes().get(cls).meanMs();
        }

        /** The share of the window's samples in which premium held more weight than basic. */
        double premiumAhead() {
            return (double) held.stream().filter(a -> a.weight(0) > a.weight(1)).count() / held.size();
        }

        Allocation last() {
            return held.get(held.size() - 1);
        }
    }

    private static final Duration WARMUP = Duration.ofSeconds(6);
    private static final Duration LOAD = Duration.ofSeconds(14);

    private static Outcome run(String backendUrl, boolean controller) throws Exception {
        SlagateConfig config = ConfigLoader.parse(yaml(backendUrl, controller ? "wrr" : "fcfs"), "e2e");
        EmbeddedSystem system = controller ? EmbeddedSystem.start(config, EmbeddedSystem.Parts.CORE) : null;
        Gateway gateway = controller ? system.gateway() : new Gateway(config).start();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        try {
            LoadSpec spec = new LoadSpec("http://127.0.0.1:" + gateway.port(), "/services/StockUtility", null,
                    List.of(new LoadSpec.ClassSpec("premium", "getQuote", "gold-customer", false, Duration.ofMillis(20)),
                            new LoadSpec.ClassSpec("basic", "getQuote", "silver-customer", false, Duration.ofMillis(200))),
                    List.of(new LoadSpec.Phase(LOAD, List.of(15.0, 15.0))),
                    false, Duration.ofMillis(20), WARMUP, 11, Duration.ofMinutes(1), null);
            List<Allocation> held = new CopyOnWriteArrayList<>();
            long start = System.nanoTime();
            sampler.scheduleAtFixedRate(() -> {
                long at = System.nanoTime() - start;
                if (at >= WARMUP.toNanos() && at < LOAD.minusMillis(500).toNanos()) {
                    held.add(gateway.queues().caps().allocation());
                }
            }, 0, 100, TimeUnit.MILLISECONDS);
            Summary s = new LoadGenerator(spec, null).run();
            sampler.shutdownNow();
            assertTrue(held.size() >= 10, "the measured window was sampled: " + held.size());
            return new Outcome(s, List.copyOf(held));
        } finally {
            sampler.shutdownNow();
            if (system != null) {
                system.close();
            } else {
                gateway.stop(Duration.ofSeconds(5));
            }
        }
    }

    @Test
    void controller_givesTheTighterTargetMoreWeight_andALowerResponseTimeThanFcfs() throws Exception {
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(SCALE, 0.02))) {
            String url = backend.urls().get(0);
            Outcome fcfs = run(url, false);
            Outcome controlled = run(url, true);
            System.out.printf(Locale.ROOT, "fcfs: premium %.1f ms, basic %.1f ms; controller: premium %.1f ms, basic %.1f ms,"
                            + " premium ahead in %.2f of the window, last weights in it %s%n",
                    fcfs.mean("premium"), fcfs.mean("basic"), controlled.mean("premium"), controlled.mean("basic"),
                    controlled.premiumAhead(), controlled.last());
            assertEquals(0, fcfs.summary().lost(), "every request answered (fcfs)");
            assertEquals(0, controlled.summary().lost(), "every request answered (controller)");
            assertTrue(controlled.held().stream().allMatch(a -> a.version() > 0), "the resource manager's allocation was applied");
            assertTrue(controlled.premiumAhead() >= 0.9, "premium (tighter target) has more weight throughout the measured window: "
                    + controlled.premiumAhead() + " of " + controlled.held());
            assertTrue(controlled.mean("premium") < 0.8 * fcfs.mean("premium"),
                    "premium is clearly faster than under fcfs: " + controlled.mean("premium") + " vs " + fcfs.mean("premium"));
            assertTrue(controlled.mean("premium") < controlled.mean("basic"), "and faster than basic");
        }
    }
}
