package io.slagate.experiment;

import io.slagate.experiment.paper.ExperimentSetup;
import io.slagate.config.ConfigLoader;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.SecondSample;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import io.slagate.load.service.StockUtility;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ramp ({@code slagate experiment ahead}): open-loop arrivals on one server of 10 slots, basic
 * steady, premium from 2× to 10× its base rate over the ramp; the controller with {@code forecast: auto} and
 * with {@code forecast: none}, {@value #PAIRS} pairs in ABBA order, each pair on its own seed. The figure is the seconds
 * of the ramp and the hold after it in which premium's mean response time was above its target.
 */
final class AheadExperiment {
    private static final double SCALE = 0.02;
    /** Premium's base rate (requests/s); basic's steady rate. The server takes 500/s (10 slots of 20 ms). */
    private static final double PREMIUM_BASE = 25;
    private static final double BASIC = 400;
    private static final int PAIRS = 4;

    private final boolean quick;
    private final PrintStream log;
    /** Each ramp run's premium means per second, for the report. */
    private final List<String> seriesLines = new ArrayList<>();

    AheadExperiment(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    List<String> run(Path out, String command) throws Exception {
        int settle = quick ? 12 : 20; // at least a window, so that the first cycles see the base rates
        int ramp = quick ? 30 : 60; // a forecaster learns a trend over its first cycles: a 20 s ramp is half learning
        int hold = quick ? 6 : 20;
        int[] with = new int[PAIRS];
        int[] without = new int[PAIRS];
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(SCALE, Experiments.SLEEPY_CPU))) {
            String url = backend.urls().get(0);
            for (int i = 0; i < 2 * PAIRS; i++) {
                int pair = i / 2;
                if (Spread.aAt(i)) {
                    with[pair] = violations(url, "auto", settle, ramp, hold, 100 + pair);
                } else {
                    without[pair] = violations(url, "none", settle, ramp, hold, 100 + pair);
                }
            }
        }
        String line = String.format(Locale.ROOT, "ramp-violation-seconds forecast %d none %d (sums over %d ABBA pairs; per run forecast %s "
                + "none %s)", sum(with), sum(without), PAIRS, Spread.of(asDoubles(with)).format("%.1f"),
                Spread.of(asDoubles(without)).format("%.1f"));
        if (Boolean.getBoolean("slagate.ahead.rampOnly")) { // a development aid: the ramp alone, nothing written
            seriesLines.forEach(log::println);
            return List.of(line);
        }
        int calm = 15; // past the detector's 10 s warm-up
        int crowdSeconds = 60;
        Crowd defended = null;
        Crowd undefended = null;
        if (!quick) { // a 15 s crowd read 0 and 0 seconds above target with the defence and without: it told nothing
            try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(SCALE, Experiments.SLEEPY_CPU))) {
                defended = crowd(backend.urls().get(0), true, calm, crowdSeconds, 7);
                undefended = crowd(backend.urls().get(0), false, calm, crowdSeconds, 7);
            }
        }
        PoolsExperiment pools = new PoolsExperiment(quick, log);
        PoolsExperiment.Result poolsResult = pools.run();
        Path dir = out.resolve("ahead");
        Files.createDirectories(dir);
        StringBuilder md = rampReport(command, settle, ramp, hold, with, without, line);
        List<String> lines = new ArrayList<>();
        if (defended != null) {
            String crowdLine = String.format(Locale.ROOT, "flash-crowd premium-violation-seconds defence %d none %d (of %d), lost %d and %d",
                    defended.premiumViolations(), undefended.premiumViolations(), crowdSeconds, defended.lost(), undefended.lost());
            md.append(crowdReport(defended, undefended, calm, crowdSeconds)).append("\n```\n").append(crowdLine).append("\n```\n");
            lines.add(crowdLine);
        }
        String poolsLine = poolsResult.line();
        md.append(poolsResult.report()).append("\n```\n").append(poolsLine).append("\n```\n");
        ResultsFile.write(dir.resolve(quick ? "RESULTS-short.md" : "RESULTS.md"), md);
        lines.add(line);
        lines.add(poolsLine);
        return lines;
    }

    /** What one flash-crowd run measured. */
    private record Crowd(List<SecondSample> samples, long sent, long answered, long lost, Map<String, Long> basicFaults,
                         Map<String, Long> premiumFaults, long peakHeapBytes, long flashCycles, int premiumViolations) {
    }

    private static final double CROWD_PREMIUM = 100;
    private static final double CROWD_BASIC = 60;

    /**
     * The flash crowd: one server of 10 slots (20 ms each: 500 req/s), premium steady at 100/s, basic from
     * 60/s to 600/s within 5 s (10×, beyond the server) for {@code crowd} s, then back; the controller on a 5 s cycle.
     * With the gateway's defence ({@code flashCrowd}: the alarm, a cycle at once, basic held to its share) or without.
     */
    private Crowd crowd(String url, boolean defence, int calm, int crowd, long seed) throws Exception {
        String yaml = String.format(Locale.ROOT, """
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  faultStatus: http
                  stats: { reportingInterval: 1s, window: 5s }
                %s
                servers: [ { id: s1, url: "%s", concurrency: 10 } ]
                classes:
                  - { name: premium, target: 40ms, queueBound: 2000, queueTimeout: 5s }
                  - { name: basic, target: 60ms, queueBound: 200, queueTimeout: 1s }
                classification:
                  subscriptions: { %s: { "*": gold } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                allocation: { weights: { premium: 3, basic: 7 } }
                bus: { url: "vm://slagate-flash-crowd", listen: "" }
                controller: { cycle: 5s, combining: min, resolution: 0.1 }
                """, defence ? "  flashCrowd: { factor: 5, minRate: 5 }" : "", url, ExperimentSetup.PREMIUM_USER);
        List<LoadSpec.Phase> phases = new ArrayList<>();
        phases.add(new LoadSpec.Phase(Duration.ofSeconds(calm), List.of(CROWD_PREMIUM, CROWD_BASIC)));
        for (int i = 1; i <= 5; i++) { // 10x within 5 s
            phases.add(new LoadSpec.Phase(Duration.ofSeconds(1), List.of(CROWD_PREMIUM, CROWD_BASIC * (1 + 9.0 * i / 5))));
        }
        phases.add(new LoadSpec.Phase(Duration.ofSeconds(crowd - 5), List.of(CROWD_PREMIUM, 10 * CROWD_BASIC)));
        phases.add(new LoadSpec.Phase(Duration.ofSeconds(calm), List.of(CROWD_PREMIUM, CROWD_BASIC)));
        try (RunningSystem sys = RunningSystem.start(ConfigLoader.parse(yaml, "flash crowd"), true)) {
            LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", sys.statsUrl(),
                    List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, Duration.ofMillis(40)),
                            new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, Duration.ofMillis(60))),
                    phases, true, Duration.ZERO, Duration.ZERO, seed, Duration.ofSeconds(30), null);
            AtomicLong peak = new AtomicLong();
            ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
            sampler.scheduleAtFixedRate(() -> peak.accumulateAndGet(
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max),
                    0, 100, TimeUnit.MILLISECONDS);
            LoadGenerator g = new LoadGenerator(spec, null);
            Summary s;
            try {
                s = g.run();
            } finally {
                sampler.shutdownNow();
            }
            int v = 0;
            for (SecondSample x : g.samples()) {
                if (x.className().equals("premium") && x.second() >= calm && x.second() < calm + crowd && x.meanMs() > 40) {
                    v++;
                }
            }
            log.printf(Locale.ROOT, "ahead: flash crowd, defence %s: premium above target %d s of %d, lost %d%n", defence, v, crowd, s.lost());
            return new Crowd(g.samples(), s.sent(), s.answered(), s.lost(), s.classes().get("basic").errors(),
                    s.classes().get("premium").errors(), peak.get(), sys.flashCrowdCycles(), v);
        }
    }

    private String crowdReport(Crowd with, Crowd without, int calm, int crowd) {
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, """

                ## Flash crowd (item 2)

                One server of N_s = 10 (20 ms per request: 500 req/s), open-loop arrivals: premium steady at %.0f/s, basic at
                %.0f/s, then 10× within 5 s (%.0f/s, beyond the server) for %d s, then back. Premium τ = 40 ms, basic τ = 60 ms;
                basic's queue holds 200 and waits at most 1 s (then 503 faults). The controller on a 5 s cycle (statistics every
                1 s over 5 s). With `gateway.flashCrowd: {factor: 5, minRate: 5}` (the alarm, a cycle at once, basic held to its
                share of the allocation in force while it lasts) and without, the same seed. Second 0 is the crowd's start.

                | | with the defence | without |
                |---|---:|---:|
                | seconds of the crowd with premium's mean above 40 ms | %d of %d | %d of %d |
                | requests sent / answered / lost | %d / %d / %d | %d / %d / %d |
                | premium faults | %s | %s |
                | basic faults (shed by its queue bound and timeout) | %s | %s |
                | control cycles run at once for the alarm | %d | %d |
                | peak heap (MiB, whole JVM: load generator, gateway, manager, backend) | %.0f | %.0f |

                Per second (ms): premium p50 / p95, basic p50 / p95, basic answered.

                | second | with: P p50 | P p95 | B p50 | B p95 | B/s | without: P p50 | P p95 | B p50 | B p95 | B/s |
                |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
                """, CROWD_PREMIUM, CROWD_BASIC, 10 * CROWD_BASIC, crowd, with.premiumViolations(), crowd, without.premiumViolations(), crowd,
                with.sent(), with.answered(), with.lost(), without.sent(), without.answered(), without.lost(), with.premiumFaults(),
                without.premiumFaults(), with.basicFaults(), without.basicFaults(), with.flashCycles(), without.flashCycles(),
                with.peakHeapBytes() / 1048576.0, without.peakHeapBytes() / 1048576.0));
        for (int sec = calm - 5; sec < calm + crowd + 5; sec++) {
            md.append(String.format(Locale.ROOT, "| %d | %s | %s |%n", sec - calm, crowdRow(with, sec), crowdRow(without, sec)));
        }
        return md.toString();
    }

    private static String crowdRow(Crowd c, int sec) {
        SecondSample p = null;
        SecondSample b = null;
        for (SecondSample x : c.samples()) {
            if ((int) Math.floor(x.second()) == sec) {
                if (x.className().equals("premium")) {
                    p = x;
                } else if (x.className().equals("basic")) {
                    b = x;
                }
            }
        }
        return String.join(" | ", ms(p == null ? Double.NaN : p.p50Ms()), ms(p == null ? Double.NaN : p.p95Ms()),
                ms(b == null ? Double.NaN : b.p50Ms()), ms(b == null ? Double.NaN : b.p95Ms()),
                b == null ? "–" : String.valueOf(b.completed()));
    }

    private static String ms(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.1f", v) : "–";
    }

    private static List<Double> asDoubles(int[] v) {
        List<Double> out = new ArrayList<>();
        for (int x : v) {
            out.add((double) x);
        }
        return out;
    }

    private static int sum(int[] v) {
        int s = 0;
        for (int x : v) {
            s += x;
        }
        return s;
    }

    /** The controller's cadence in the ramp runs: a 2 s cycle over a 10 s window, slow beside 20 ms requests, as deployed. */
    static final String CYCLE = "2s";
    static final String WINDOW = "10s";

    /** The report's first part: the ramp's setup, each run's violation seconds, premium's series. */
    private StringBuilder rampReport(String command, int settle, int ramp, int hold, int[] with, int[] without, String line) {
        StringBuilder md = ResultsFile.header("Experiment ahead — a ramp with the load forecast and without", command);
        md.append(String.format(Locale.ROOT, "One server of N_s = 10, exponential service of mean %.0f ms (500 requests/s); open-loop "
                + "arrivals: basic steady at %.0f/s (always more than the server has left for it: its queue holds 50 and "
                + "waits at most 200 ms, the rest is shed with 503 faults), premium at %.0f/s for %d s, then from %.0f/s to "
                + "%.0f/s over %d s (2× to 10× its base), then %d s at the top. Premium τ = %.0f ms with importance 1 (its goal "
                + "is met first), basic τ = %.0f ms. Since basic is always backlogged, premium executes on exactly the slots "
                + "its weight gives it: an allocation decided on a rate that lags the ramp is one slot short, and premium's "
                + "queue grows until the next decision. The controller as shipped (`auto` model, adaptive damping from 0.5, "
                + "whole slots, a change-point test on each report's last interval that runs a cycle at once and restarts the "
                + "damping; runs before 2026-11-28, under History, configured it apart: M/M/m, `damping: 1`, after a first "
                + "result that went against the forecast) on a %s cycle over a %s statistics window (reported every 500 ms): slow beside the requests, as deployed, "
                + "so the window's mean lags a ramp by half a window; with `forecast: auto` (the highest rate during the next "
                + "cycle: at its end, (window/2 + cycle)/cycle cycles ahead of the window's mean, for a rising rate; by Holt's "
                + "trend or a 5-cycle regression, "
                + "whichever's recent one-cycle error is smaller, trusted while that error is under 20%%) and with "
                + "`forecast: none`, in ABBA order, both sides of a pair on the same seed. Violation seconds: seconds of the ramp and the hold in which "
                + "premium's mean response time was above its target (the %d per-second samples of answers that cover them: not the settle's "
                + "last second, nor the drain of the requests still in flight when the load stops).%n%n",
                SCALE * 1000, BASIC, 2 * PREMIUM_BASE, settle, 2 * PREMIUM_BASE, 10 * PREMIUM_BASE, ramp, hold,
                2 * SCALE * 1000, 3 * SCALE * 1000, CYCLE, WINDOW, ramp + hold));
        md.append("| pair (seed) | first | forecast: auto | forecast: none |\n|---:|---|---:|---:|\n");
        for (int r = 0; r < PAIRS; r++) {
            md.append(String.format(Locale.ROOT, "| %d | %s | %d | %d |%n", 100 + r, Spread.aAt(2 * r) ? "auto" : "none", with[r], without[r]));
        }
        md.append(String.format(Locale.ROOT, "| all | %d | %d |%n", sum(with), sum(without))).append("\n```\n").append(line).append("\n```\n");
        md.append("\nPremium's mean response time per second (paper-seconds; τ = 2) from the ramp's start; in brackets, the "
                + "forecaster premium's flow used at the end of the run and each candidate's recent one-cycle relative error "
                + "(the measured forecast error by which the manager picks):\n\n")
                .append(String.join("\n", seriesLines)).append("\n");
        return md;
    }

    /**
     * Basic always wants more than the server has left (it is shed by its bound and timeout), so premium gets exactly the
     * slots the allocation in force gives it: a share decided on a lagging rate is a share too small. Premium's goals come
     * first (importance); open-loop arrivals, so the open model (M/M/m) predicts.
     */
    private static String rampYaml(String url, String forecast) {
        return String.format(Locale.ROOT, """
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  serverTimeout: 1m
                  faultStatus: http
                  stats: { reportingInterval: 500ms, window: %s }
                servers: [ { id: s1, url: "%s", concurrency: 10 } ]
                classes:
                  - { name: premium, target: 40ms, importance: 1, queueBound: 100000, queueTimeout: 1m }
                  - { name: basic, target: 60ms, queueBound: 50, queueTimeout: 200ms }
                classification:
                  subscriptions: { %s: { "*": gold } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                allocation: { weights: { premium: 5, basic: 5 } }
                bus: { url: "vm://slagate-ahead", listen: "" }
                controller: { cycle: %s, combining: min, forecast: %s }
                """, WINDOW, url, ExperimentSetup.PREMIUM_USER, CYCLE, forecast);
    }

    /**
     * Premium's mean per second (paper-seconds) over the ramp and the hold: the first {@code seconds} samples after the
     * settle. Each sample covers the answers of the second before it, so the one at the settle's end is the settle's,
     * and the last, taken once the requests still in flight at the load's end have drained, is neither.
     */
    static List<Double> rampSeries(List<SecondSample> samples, int settle, int seconds) {
        List<Double> series = new ArrayList<>();
        for (SecondSample s : samples) {
            if (s.className().equals("premium") && s.second() > settle + 0.5 && series.size() < seconds) {
                series.add(s.meanMs() / 1000 / SCALE);
            }
        }
        return series;
    }

    /** The seconds whose mean is above premium's target (2 paper-seconds); a second without answers is none. */
    static int violationSeconds(List<Double> series) {
        int v = 0;
        for (double t : series) {
            v += t > 2 ? 1 : 0;
        }
        return v;
    }

    private int violations(String url, String forecast, int settle, int ramp, int hold, long seed) throws Exception {
        ExperimentSetup setup = new ExperimentSetup(SCALE, 10, "wrr", 0.1, "auto", 5);
        List<LoadSpec.Phase> phases = new ArrayList<>();
        phases.add(new LoadSpec.Phase(Duration.ofSeconds(settle), List.of(2 * PREMIUM_BASE, BASIC)));
        for (int i = 0; i < ramp; i++) {
            double premium = 2 * PREMIUM_BASE + (8 * PREMIUM_BASE) * (i + 1) / ramp;
            phases.add(new LoadSpec.Phase(Duration.ofSeconds(1), List.of(premium, BASIC)));
        }
        phases.add(new LoadSpec.Phase(Duration.ofSeconds(hold), List.of(10 * PREMIUM_BASE, BASIC)));
        String yaml = rampYaml(url, forecast);
        try (RunningSystem sys = RunningSystem.start(ConfigLoader.parse(yaml, "ahead"), true)) {
            LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", sys.statsUrl(),
                    List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, setup.paper(2)),
                            new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, setup.paper(3))),
                    phases, true, Duration.ZERO, Duration.ZERO, seed, Duration.ofMinutes(5), null);
            LoadGenerator g = new LoadGenerator(spec, null);
            g.run();
            List<Double> series = rampSeries(g.samples(), settle, ramp + hold);
            int v = violationSeconds(series);
            log.printf(Locale.ROOT, "ahead: forecast %s, seed %d: premium above target %d s; premium (paper-s) per second %s%n", forecast,
                    seed, v, series);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "- forecast %s, seed %d: premium above target %d s:",
                    forecast, seed, v));
            series.forEach(x -> line.append(String.format(Locale.ROOT, " %.1f", x)));
            Map<String, String> errors = sys.forecastErrors();
            if (!errors.isEmpty()) { // the forecaster premium's flow used last, and each one's recent one-cycle error
                line.append(" (forecaster at the end: ").append(errors.getOrDefault("gw1/premium", "none")).append(')');
            }
            seriesLines.add(line.toString());
            return v;
        }
    }
}
