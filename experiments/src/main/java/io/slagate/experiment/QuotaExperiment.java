package io.slagate.experiment;

import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Experiment quota: a subscription quota held across three gateways. A resource manager and three
 * gateways on one broker, one server. The noisy customer has a quota of {@value #QUOTA}/s and sends
 * three times that, unevenly: 60%, 30% and 10% of it through the three gateways (open loop, Poisson).
 * A calm customer sends {@value #CALM}/s spread evenly; both are of one class, fair by customer as
 * shipped. Phases alternate (calm alone, calm with the noisy one, then the other way round): the
 * accepted rate is the noisy customer's answered requests per second while it sends, summed over the
 * gateways, after the split has settled; the calm customer's rise is its p95 with the noisy one over
 * its p95 alone, minus one (each phase's p95: the gateways' p95s weighted by their answers). The same
 * phases run on a cluster without the quota, where only the class's fairness between customers stands
 * between the calm customer and a server offered three quarters of what it can serve.
 */
final class QuotaExperiment {
    static final double QUOTA = 30;
    static final double CALM = 24;
    private static final double[] NOISY_SPLIT = {0.6, 0.3, 0.1};
    private static final Duration SERVICE = Duration.ofMillis(20);
    /**
     * One server of 6 slots (300 requests/s), split over the three gateways: with the quota a gateway's share is lightly
     * loaded; without it, the gateway that takes 60% of the noisy customer's requests runs its slots at over half. At 3
     * slots (one a gateway) even the quota's 30/s more raised the calm customer's p95 by a third (the results' history).
     */
    private static final int N_S = 6;

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
        List<Phase> phases;
        List<Phase> baseline;
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.of(SERVICE, Experiments.SLEEPY_CPU))) {
            phases = phases(backend.urls().get(0), true, pairs, settle, measure);
            baseline = phases(backend.urls().get(0), false, pairs, settle, measure);
        }
        double accepted = mean(phases, true, Phase::acceptedPerSecond);
        String line = String.format(Locale.ROOT, "quota accepted-rate %.1f of %.1f other-customer-p95-rise %.3f", accepted, QUOTA,
                rise(phases));
        String without = String.format(Locale.ROOT, "without the quota: noisy answered %.1f/s, other-customer-p95-rise %.3f",
                mean(baseline, true, Phase::acceptedPerSecond), rise(baseline));
        Path dir = out.resolve("quota");
        Files.createDirectories(dir);
        ResultsFile.write(dir.resolve(quick ? "RESULTS-short.md" : "RESULTS.md"),
                report(command, phases, baseline, settle, measure, line, without));
        return List.of(without, line);
    }

    private static double rise(List<Phase> phases) {
        return mean(phases, true, Phase::calmP95Ms) / mean(phases, false, Phase::calmP95Ms) - 1;
    }

    /** Alternating phases (ABBA pairs) on one cluster, with the noisy customer's quota configured or not. */
    private List<Phase> phases(String server, boolean quota, int pairs, Duration settle, Duration measure) throws Exception {
        List<Phase> phases = new ArrayList<>();
        try (GatewayCluster cluster = new GatewayCluster("quota", 3, id -> yaml(id, server, quota))) {
            run(cluster, true, Duration.ofSeconds(quick ? 8 : 20), Duration.ofSeconds(2)); // warm-up, not kept
            for (int p = 0; p < 2 * pairs; p++) {
                boolean noisyFirst = p % 2 == 1; // calm alone first, then the other way round
                for (boolean noisy : noisyFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    Phase ph = run(cluster, noisy, settle, measure);
                    phases.add(ph);
                    log.printf(Locale.ROOT, "quota %s: phase %d noisy %s: answered %.1f/s of %.1f/s offered, calm p95 %.1f ms%n",
                            quota ? "on" : "off", phases.size(), noisy ? "on" : "off", ph.acceptedPerSecond(), ph.offeredPerSecond(),
                            ph.calmP95Ms());
                }
            }
        }
        return phases;
    }

    private static double mean(List<Phase> phases, boolean noisy, ToDoubleFunction<Phase> f) {
        return phases.stream().filter(p -> p.noisy() == noisy).mapToDouble(f).average().orElse(Double.NaN);
    }

    private static String spread(List<Phase> phases, boolean noisy, ToDoubleFunction<Phase> f) {
        var s = phases.stream().filter(p -> p.noisy() == noisy).mapToDouble(f).summaryStatistics();
        return String.format(Locale.ROOT, "%.1f [%.1f..%.1f]", s.getAverage(), s.getMin(), s.getMax());
    }

    private String report(String command, List<Phase> phases, List<Phase> baseline, Duration settle, Duration measure,
                          String line, String without) {
        double capacity = N_S * 1000.0 / SERVICE.toMillis();
        StringBuilder md = ResultsFile.header("Experiment quota: a subscription quota across three gateways", command);
        md.append(String.format(Locale.ROOT, "A resource manager and three gateways on one in-VM broker (cycle 1 s, reporting "
                        + "interval 500 ms), one server (N_s = %d, %d ms service: %.0f requests/s at most). The noisy customer's "
                        + "quota is %.0f/s; it sends %.0f/s (3×) through the gateways as 60%%, 30%% and 10%%; the calm customer "
                        + "sends %.0f/s evenly. Both are of one class, fair by customer as shipped. Open-loop Poisson arrivals. "
                        + "Phases alternate calm alone / calm with the noisy customer (ABBA), each %d s to settle (the split "
                        + "follows the demand each cycle) and %d s measured; then the same on a cluster whose configuration has "
                        + "no quota: what the quota is compared with, the class's fairness between customers alone, %.0f "
                        + "requests/s offered to a server of %.0f.%n%n`%s`%n%n`%s`%n%n",
                N_S, SERVICE.toMillis(), capacity, QUOTA, 3 * QUOTA, CALM, settle.toSeconds(), measure.toSeconds(),
                3 * QUOTA + CALM, capacity, line, without));
        table(md, "With the quota", phases);
        table(md, "Without the quota", baseline);
        return md.toString();
    }

    private static void table(StringBuilder md, String title, List<Phase> phases) {
        md.append("## ").append(title).append("\n\n| phase | noisy customer | its answers /s | offered /s | calm p95 ms | calm errors | lost |\n")
                .append("|---:|---|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < phases.size(); i++) {
            Phase p = phases.get(i);
            md.append(String.format(Locale.ROOT, "| %d | %s | %.1f | %.1f | %.1f | %d | %d |%n", i + 1, p.noisy() ? "on" : "off",
                    p.acceptedPerSecond(), p.offeredPerSecond(), p.calmP95Ms(), p.calmErrors(), p.lost()));
        }
        md.append(String.format(Locale.ROOT, "%nMeans [min..max]: noisy answered %s /s; calm p95 alone %s ms, with the noisy "
                + "customer %s ms.%n%n", spread(phases, true, Phase::acceptedPerSecond), spread(phases, false, Phase::calmP95Ms),
                spread(phases, true, Phase::calmP95Ms)));
    }

    /** One phase: the three gateways' loads in parallel, the noisy customer on or off. */
    private Phase run(GatewayCluster cluster, boolean noisy, Duration settle, Duration measure) throws Exception {
        List<Summary> runs = cluster.load(i -> new LoadSpec(cluster.url(i), "/services/StockUtility", null,
                List.of(new LoadSpec.ClassSpec("calm", "getQuote", "calm", false, null),
                        new LoadSpec.ClassSpec("noisy", "getQuote", "noisy", false, null)),
                List.of(new LoadSpec.Phase(settle.plus(measure), List.of(CALM / 3, noisy ? 3 * QUOTA * NOISY_SPLIT[i] : 0))), true,
                Duration.ZERO, settle, 31L * i + (noisy ? 7 : 0), Duration.ofSeconds(30), null));
        double accepted = 0;
        double offered = 0;
        double p95Weighted = 0;
        long calmAnswers = 0;
        long calmErrors = 0;
        long lost = 0;
        for (Summary s : runs) {
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

    private static String yaml(String id, String server, boolean quota) {
        return String.format(Locale.ROOT, """
                gateway: { id: %s, listen: "127.0.0.1:0", admin: "127.0.0.1:0", faultStatus: http,
                           stats: { reportingInterval: 500ms, window: 2s } }
                servers: [ { id: s1, url: "%s", concurrency: %d } ]
                classes: [ { name: gold, target: 1s, queueBound: 10000 }, { name: basic, target: 2s } ]
                classification:
                  subscriptions: { noisy: { "*": gold }, calm: { "*": gold } }
                  %s
                  rules: [ { grade: gold, class: gold } ]
                  defaultClass: basic
                bus: { url: "vm://quota?create=false", embedded: false }
                controller: { cycle: 1s }
                """, id, server, N_S, quota ? String.format(Locale.ROOT, "customers: { noisy: { rate: %.0f/s } }", QUOTA) : "");
    }
}
