package io.slagate.experiment;

import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.SecondSample;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import io.slagate.load.service.StockUtility;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The step slowdown ({@code slagate experiment slowdown}): experiment C's point (15, 15) with the
 * controller, and the backend's service time three times longer for a while; the same run with the
 * gateway's fast local limit ({@code gateway.localLimit}) and without. Per second: premium's and basic's
 * mean response times against their targets, and the gateway's cap on the server.
 */
final class SlowdownExperiment {
    private static final double SCALE = 0.02;
    private static final int FACTOR = 3;

    private final boolean quick;
    private final PrintStream log;

    SlowdownExperiment(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    /** What one run measured, per second from the step's start: premium's and basic's means (paper-s) and the cap. */
    private record Run(List<Double> premium, List<Double> basic, List<Integer> cap, int stepSeconds) {
        /** Seconds of the step in which premium's mean was above its target (2 paper-seconds). */
        int violations() {
            int n = 0;
            for (int i = 0; i < Math.min(stepSeconds, premium.size()); i++) {
                n += premium.get(i) > 2 ? 1 : 0;
            }
            return n;
        }
    }

    List<String> run(Path out, String command) throws Exception {
        Duration settle = Duration.ofSeconds(quick ? 15 : 30);
        Duration step = Duration.ofSeconds(quick ? 20 : 60);
        Duration after = Duration.ofSeconds(quick ? 15 : 30);
        Run with;
        Run without;
        ServiceTime normal = ServiceTime.paper(SCALE, Experiments.SLEEPY_CPU);
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), normal)) {
            String url = backend.urls().get(0);
            with = run(url, true, normal, settle, step, after);
            without = run(url, false, normal, settle, step, after);
        } finally {
            StockUtility.configure(normal);
        }
        Path dir = out.resolve("slowdown");
        Files.createDirectories(dir);
        StringBuilder md = new StringBuilder("# Experiment slowdown — a server three times slower\n\n");
        md.append("Produced by `").append(command).append("` on ").append(Experiments.cores()).append(", ")
                .append(LocalDate.now()).append(".\n\n");
        md.append(String.format(Locale.ROOT, "Experiment C's point (15, 15) with the controller (`auto` model), 1 paper-second = "
                + "%.0f ms, N_s = 10, premium τ = 2, basic τ = 3 paper-seconds. After %d s, the service's mean time is %d× longer for "
                + "%d s, then back. Once with `gateway.localLimit: true`, once without; per second of the step and after it: "
                + "premium's and basic's mean response time (paper-seconds) and the gateway's cap on the server.%n%n",
                SCALE * 1000, settle.toSeconds(), FACTOR, step.toSeconds()));
        md.append("| second | local limit: t_P | t_B | cap | without: t_P | t_B | cap |\n|---:|---:|---:|---:|---:|---:|---:|\n");
        int rows = Math.max(with.premium().size(), without.premium().size());
        for (int i = 0; i < rows; i++) {
            md.append(String.format(Locale.ROOT, "| %d%s | %s | %s | %s | %s | %s | %s |%n", i, i == with.stepSeconds() ? " (step ends)" : "",
                    cell(with.premium(), i), cell(with.basic(), i), capCell(with.cap(), i),
                    cell(without.premium(), i), cell(without.basic(), i), capCell(without.cap(), i)));
        }
        String line = String.format(Locale.ROOT, "slowdown premium-violation-seconds local %d none %d (of %d)", with.violations(),
                without.violations(), with.stepSeconds());
        md.append("\n```\n").append(line).append("\n```\n");
        ResultsFile.write(dir.resolve("RESULTS.md"), md);
        return List.of(line);
    }

    private static String cell(List<Double> v, int i) {
        return i < v.size() && Double.isFinite(v.get(i)) ? String.format(Locale.ROOT, "%.2f", v.get(i)) : "–";
    }

    private static String capCell(List<Integer> v, int i) {
        return i < v.size() ? String.valueOf(v.get(i)) : "–";
    }

    private Run run(String url, boolean localLimit, ServiceTime normal, Duration settle, Duration step, Duration after) throws Exception {
        ExperimentSetup setup = new ExperimentSetup(SCALE, 10, "wrr", 0.1, "auto", 5);
        List<Integer> caps = new CopyOnWriteArrayList<>();
        StockUtility.configure(normal);
        try (RunningSystem sys = RunningSystem.start(setup.config(List.of(url), "10", localLimit ? "  localLimit: true\n" : ""), true)) {
            LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", sys.statsUrl(),
                    List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, setup.paper(2)),
                            new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, setup.paper(3))),
                    List.of(new LoadSpec.Phase(settle.plus(step).plus(after), List.of(15.0, 15.0))), false, setup.paper(1),
                    Duration.ZERO, 11, Duration.ofMinutes(5), null);
            ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
            ServiceTime slow = ServiceTime.of(normal.defaultMean().multipliedBy(FACTOR), Experiments.SLEEPY_CPU);
            timer.schedule(() -> StockUtility.configure(slow), settle.toMillis(), TimeUnit.MILLISECONDS);
            timer.schedule(() -> StockUtility.configure(normal), settle.plus(step).toMillis(), TimeUnit.MILLISECONDS);
            long stepAt = System.nanoTime() + settle.toNanos();
            timer.scheduleAtFixedRate(() -> {
                if (System.nanoTime() - stepAt >= 0) {
                    caps.add(sys.gateway().queues().effectiveCap(0));
                }
            }, settle.toMillis(), 1000, TimeUnit.MILLISECONDS);
            LoadGenerator g = new LoadGenerator(spec, null);
            try {
                g.run();
            } finally {
                timer.shutdownNow();
                StockUtility.configure(normal);
            }
            List<Double> premium = new ArrayList<>();
            List<Double> basic = new ArrayList<>();
            for (SecondSample s : g.samples()) {
                if (s.second() < settle.toSeconds()) {
                    continue;
                }
                (s.className().equals("premium") ? premium : basic).add(s.meanMs() / 1000 / SCALE);
            }
            Run r = new Run(premium, basic, List.copyOf(caps), (int) step.toSeconds());
            log.printf(Locale.ROOT, "slowdown, local limit %s: premium above target %d of %d s of the step; premium %s; caps %s%n",
                    localLimit ? "on" : "off", r.violations(), step.toSeconds(), premium, caps);
            return r;
        }
    }
}
