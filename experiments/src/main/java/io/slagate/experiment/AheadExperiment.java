package io.slagate.experiment;

import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.SecondSample;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Issue 19's ramp ({@code slagate experiment ahead}): open-loop arrivals on one server of 10 slots, basic
 * steady, premium from 2× to 10× its base rate over the ramp; the controller with {@code forecast: auto} and
 * with {@code forecast: none}, three runs each, alternating, the same seeds. The figure is the seconds of the
 * ramp and the hold after it in which premium's mean response time was above its target.
 */
final class AheadExperiment {
    private static final double SCALE = 0.02;
    /** Premium's base rate (requests/s); basic's steady rate. The server takes 500/s (10 slots of 20 ms). */
    private static final double PREMIUM_BASE = 25;
    private static final double BASIC = 200;
    private static final int RUNS = 3;

    private final boolean quick;
    private final PrintStream log;

    AheadExperiment(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    List<String> run(Path out, String command) throws Exception {
        int settle = quick ? 10 : 20;
        int ramp = quick ? 30 : 60;
        int hold = quick ? 10 : 20;
        int[] with = new int[RUNS];
        int[] without = new int[RUNS];
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(SCALE, Experiments.SLEEPY_CPU))) {
            String url = backend.urls().get(0);
            for (int r = 0; r < RUNS; r++) {
                with[r] = violations(url, "auto", settle, ramp, hold, 100 + r);
                without[r] = violations(url, "none", settle, ramp, hold, 100 + r);
            }
        }
        int f = sum(with);
        int n = sum(without);
        Path dir = out.resolve("ahead");
        Files.createDirectories(dir);
        StringBuilder md = new StringBuilder("# Experiment ahead — a ramp with the load forecast and without (issue 19)\n\n");
        md.append("Produced by `").append(command).append("` on ").append(Experiments.cores()).append(", ")
                .append(java.time.LocalDate.now()).append(".\n\n");
        md.append(String.format(Locale.ROOT, "One server of N_s = 10, exponential service of mean %.0f ms (500 requests/s); open-loop "
                + "arrivals: basic steady at %.0f/s, premium at %.0f/s for %d s, then from %.0f/s to %.0f/s over %d s (2× to 10× its "
                + "base), then %d s at the top. Premium τ = %.0f ms, basic τ = %.0f ms; the controller (`auto` model, min "
                + "combining) with `forecast: auto` and with `forecast: none`, alternating, the same seeds. Violation seconds: "
                + "seconds of the ramp and the hold in which premium's mean response time was above its target.%n%n",
                SCALE * 1000, BASIC, 2 * PREMIUM_BASE, settle, 2 * PREMIUM_BASE, 10 * PREMIUM_BASE, ramp, hold,
                2 * SCALE * 1000, 3 * SCALE * 1000));
        md.append("| run (seed) | forecast: auto | forecast: none |\n|---:|---:|---:|\n");
        for (int r = 0; r < RUNS; r++) {
            md.append(String.format(Locale.ROOT, "| %d | %d | %d |%n", 100 + r, with[r], without[r]));
        }
        String line = String.format(Locale.ROOT, "ramp-violation-seconds forecast %d none %d", f, n);
        md.append(String.format(Locale.ROOT, "| all | %d | %d |%n", f, n)).append("\n```\n").append(line).append("\n```\n");
        Files.writeString(dir.resolve("RESULTS.md"), md);
        return List.of(line);
    }

    private static int sum(int[] v) {
        int s = 0;
        for (int x : v) {
            s += x;
        }
        return s;
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
        try (RunningSystem sys = RunningSystem.start(setup.config(List.of(url), "10", "", ", forecast: " + forecast), true)) {
            LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", sys.statsUrl(),
                    List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, setup.paper(2)),
                            new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, setup.paper(3))),
                    phases, true, Duration.ZERO, Duration.ZERO, seed, Duration.ofMinutes(5), null);
            LoadGenerator g = new LoadGenerator(spec, null);
            g.run();
            int v = 0;
            List<Double> series = new ArrayList<>();
            for (SecondSample s : g.samples()) {
                if (s.className().equals("premium") && s.second() >= settle) {
                    double t = s.meanMs() / 1000 / SCALE;
                    series.add(t);
                    v += t > 2 ? 1 : 0;
                }
            }
            log.printf(Locale.ROOT, "ahead: forecast %s, seed %d: premium above target %d s; premium (paper-s) per second %s%n", forecast,
                    seed, v, series);
            return v;
        }
    }
}
