package io.slagate.experiment;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.slagate.bus.ControlBus;
import io.slagate.bus.EmbeddedBroker;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.agent.GatewayAgent;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import io.slagate.rm.ControlLoop;
import io.slagate.rm.Overrides;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.ToDoubleFunction;

/**
 * Experiment quota: a subscription quota held across three gateways. A resource manager and three
 * gateways on one broker, one server with room to spare. The noisy customer has a quota of
 * {@value #QUOTA}/s and sends three times that, unevenly: 60%, 30% and 10% of it through the three
 * gateways (open loop, Poisson). A calm customer sends {@value #CALM}/s spread evenly. Phases
 * alternate (calm alone, calm with the noisy one, then the other way round): the accepted rate is
 * the noisy customer's answered requests per second while it sends, summed over the gateways, after
 * the split has settled; the calm customer's rise is its p95 with the noisy one over its p95 alone,
 * minus one (the p95 of each phase: the gateways' p95s weighted by their answers).
 */
final class QuotaExperiment {
    static final double QUOTA = 30;
    static final double CALM = 24;
    private static final double[] NOISY_SPLIT = {0.6, 0.3, 0.1};
    private static final Duration SERVICE = Duration.ofMillis(20);

    private final boolean quick;
    private final PrintStream log;

    QuotaExperiment(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    /** One phase's outcome: whether the noisy customer sent, its answered rate, the calm customer's p95 (ms). */
    record Phase(boolean noisy, double acceptedPerSecond, double offeredPerSecond, double calmP95Ms, long calmErrors, long lost) {
    }

    List<String> run(Path out, String command) throws Exception {
        Duration settle = Duration.ofSeconds(quick ? 6 : 10);
        Duration measure = Duration.ofSeconds(quick ? 12 : 30);
        int pairs = quick ? 2 : 3;
        List<Phase> phases = new ArrayList<>();
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.of(SERVICE, Experiments.SLEEPY_CPU));
             Cluster cluster = new Cluster(backend.urls().get(0))) {
            run(cluster, true, Duration.ofSeconds(quick ? 8 : 20), Duration.ofSeconds(2)); // warm-up, not kept
            for (int p = 0; p < 2 * pairs; p++) {
                boolean noisyFirst = p % 2 == 1; // calm alone first, then the other way round (ABBA)
                for (boolean noisy : noisyFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    Phase ph = run(cluster, noisy, settle, measure);
                    phases.add(ph);
                    log.printf(Locale.ROOT, "quota: phase %d noisy %s: accepted %.1f/s of %.1f/s offered, calm p95 %.1f ms%n",
                            phases.size(), noisy ? "on" : "off", ph.acceptedPerSecond(), ph.offeredPerSecond(), ph.calmP95Ms());
                }
            }
        }
        double accepted = mean(phases, true, Phase::acceptedPerSecond);
        double rise = mean(phases, true, Phase::calmP95Ms) / mean(phases, false, Phase::calmP95Ms) - 1;
        String line = String.format(Locale.ROOT, "quota accepted-rate %.1f of %.1f other-customer-p95-rise %.3f", accepted, QUOTA, rise);
        Path dir = out.resolve("quota");
        Files.createDirectories(dir);
        ResultsFile.write(dir.resolve(quick ? "RESULTS-short.md" : "RESULTS.md"), report(command, phases, settle, measure, line));
        return List.of(line);
    }

    private static double mean(List<Phase> phases, boolean noisy, ToDoubleFunction<Phase> f) {
        return phases.stream().filter(p -> p.noisy() == noisy).mapToDouble(f).average().orElse(Double.NaN);
    }

    private static String spread(List<Phase> phases, boolean noisy, ToDoubleFunction<Phase> f) {
        var s = phases.stream().filter(p -> p.noisy() == noisy).mapToDouble(f).summaryStatistics();
        return String.format(Locale.ROOT, "%.1f [%.1f..%.1f]", s.getAverage(), s.getMin(), s.getMax());
    }

    private String report(String command, List<Phase> phases, Duration settle, Duration measure, String line) {
        StringBuilder md = ResultsFile.header("Experiment quota: a subscription quota across three gateways", command);
        md.append(String.format(Locale.ROOT, """
                A resource manager and three gateways on one in-VM broker (cycle 1 s, reporting interval 500 ms), one \
                server (N_s = 40, %d ms service). The noisy customer's quota is %.0f/s; it sends %.0f/s (3×) through the \
                gateways as 60%%, 30%% and 10%%; the calm customer sends %.0f/s evenly (no quota of its own is near). \
                Open-loop Poisson arrivals. Phases alternate calm alone / calm with the noisy customer (ABBA), each \
                %d s to settle (the split follows the demand each cycle) and %d s measured.

                `%s`

                | phase | noisy customer | its answers /s | offered /s | calm p95 ms | calm errors | lost |
                |---:|---|---:|---:|---:|---:|---:|
                """, SERVICE.toMillis(), QUOTA, 3 * QUOTA, CALM, settle.toSeconds(), measure.toSeconds(), line));
        for (int i = 0; i < phases.size(); i++) {
            Phase p = phases.get(i);
            md.append(String.format(Locale.ROOT, "| %d | %s | %.1f | %.1f | %.1f | %d | %d |%n", i + 1, p.noisy() ? "on" : "off",
                    p.acceptedPerSecond(), p.offeredPerSecond(), p.calmP95Ms(), p.calmErrors(), p.lost()));
        }
        md.append(String.format(Locale.ROOT, "%nMeans [min..max]: accepted %s /s (quota %.0f); calm p95 alone %s ms, with the noisy "
                        + "customer %s ms.%n", spread(phases, true, Phase::acceptedPerSecond), QUOTA,
                spread(phases, false, Phase::calmP95Ms), spread(phases, true, Phase::calmP95Ms)));
        return md.toString();
    }

    /** One phase: the three gateways' loads in parallel, the noisy customer on or off. */
    private Phase run(Cluster cluster, boolean noisy, Duration settle, Duration measure) throws Exception {
        List<CompletableFuture<Summary>> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            double noisyRate = noisy ? 3 * QUOTA * NOISY_SPLIT[i] : 0;
            LoadSpec spec = new LoadSpec(cluster.url(i), "/services/StockUtility", null,
                    List.of(new LoadSpec.ClassSpec("calm", "getQuote", "calm", false, null),
                            new LoadSpec.ClassSpec("noisy", "getQuote", "noisy", false, null)),
                    List.of(new LoadSpec.Phase(settle.plus(measure), List.of(CALM / 3, noisyRate))), true, Duration.ZERO, settle,
                    31L * i + (noisy ? 7 : 0), Duration.ofSeconds(30), null);
            runs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return new LoadGenerator(spec, null).run();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        double accepted = 0;
        double offered = 0;
        double p95Weighted = 0;
        long calmAnswers = 0;
        long calmErrors = 0;
        long lost = 0;
        for (CompletableFuture<Summary> f : runs) {
            Summary s = f.get();
            Summary.ClassSummary n = s.classes().get("noisy");
            Summary.ClassSummary c = s.classes().get("calm");
            accepted += n.throughput();
            offered += n.sent() / Math.max(1e-9, s.durationSeconds());
            if (c.completed() > 0) {
                p95Weighted += c.p95Ms() * c.completed();
                calmAnswers += c.completed();
            }
            calmErrors += c.errors().values().stream().mapToLong(Long::longValue).sum();
            lost += s.lost();
        }
        return new Phase(noisy, accepted, offered, calmAnswers == 0 ? Double.NaN : p95Weighted / calmAnswers, calmErrors, lost);
    }

    /** A broker, a resource manager and three gateways with their agents, in this JVM. */
    private static final class Cluster implements AutoCloseable {
        private final List<AutoCloseable> open = new ArrayList<>();
        private final Gateway[] gateways = new Gateway[3];

        Cluster(String server) throws Exception {
            try {
                EmbeddedBroker broker = EmbeddedBroker.start("quota", "", null, null);
                open.add(broker);
                String url = "vm://quota?create=false";
                for (int i = 0; i < 3; i++) {
                    SlagateConfig c = ConfigLoader.parse(yaml("gw" + (i + 1), server), "experiment quota");
                    Gateway g = new Gateway(c);
                    ControlBus bus = new ControlBus(url, null, null, "gw" + (i + 1));
                    GatewayAgent agent = new GatewayAgent(g, bus);
                    g.start();
                    bus.start();
                    open.add(() -> g.stop(Duration.ofSeconds(5)));
                    open.add(bus);
                    open.add(agent);
                    gateways[i] = g;
                }
                SlagateConfig rmConfig = ConfigLoader.parse(yaml("rm", server), "experiment quota");
                ControlBus rmBus = new ControlBus(url, null, null, "rm");
                ControlLoop rm = new ControlLoop("rm", rmConfig, rmBus, new Overrides(), new SimpleMeterRegistry());
                rmBus.start();
                rm.start();
                open.add(rmBus);
                open.add(rm);
            } catch (Exception e) {
                close();
                throw e;
            }
        }

        static String yaml(String id, String server) {
            return String.format(Locale.ROOT, """
                    gateway: { id: %s, listen: "127.0.0.1:0", admin: "127.0.0.1:0", faultStatus: http,
                               stats: { reportingInterval: 500ms, window: 2s } }
                    servers: [ { id: s1, url: "%s", concurrency: 40 } ]
                    classes: [ { name: gold, target: 1s, queueBound: 10000 }, { name: basic, target: 2s } ]
                    classification:
                      subscriptions: { noisy: { "*": gold }, calm: { "*": gold } }
                      customers: { noisy: { rate: %.0f/s } }
                      rules: [ { grade: gold, class: gold } ]
                      defaultClass: basic
                    bus: { url: "vm://quota?create=false", embedded: false }
                    controller: { cycle: 1s }
                    """, id, server, QUOTA);
        }

        String url(int i) {
            return "http://127.0.0.1:" + gateways[i].port();
        }

        @Override
        public void close() throws Exception {
            for (int i = open.size() - 1; i >= 0; i--) {
                try {
                    open.get(i).close();
                } catch (Exception e) {
                    // the others still close
                }
            }
        }
    }
}
