package io.slagate.experiment;

import io.slagate.config.ConfigLoader;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The step slowdown ({@code slagate experiment slowdown}): a CPU-bound server (its executing requests share
 * {@value #PROCESSORS} processors) under open-loop arrivals at 60% of its capacity, whose per-request demand
 * steps ×{@value #FACTOR} and stays so while the arrivals stay: past its processors every request it holds is
 * slower, and without a limit it holds its whole cap. With the gateway's fast local limit ({@code gateway.localLimit})
 * and without, in alternating order. Per run: the seconds of the step with premium's mean above its target, and the
 * time from the step until premium's window mean is back within target.
 */
final class SlowdownExperiment {
    private static final double SCALE = 0.02;
    static final double FACTOR = 1.8;
    static final int PROCESSORS = 5;
    /** Premium's and basic's arrival rates (requests/s): 60% of the server's 250/s before the step, 108% after it. */
    private static final double PREMIUM_RATE = 25;
    private static final double BASIC_RATE = 125;
    /**
     * Premium's target in paper-seconds: twice the demand after the step, so that premium can meet it on the slower server
     * (at twice the normal demand, 40 ms against 36, it left 4 ms for any wait: both sides missed it 24 of 25 s).
     */
    private static final double TARGET = 2 * FACTOR;
    /** The window over which premium's mean is judged back within target (s). */
    static final int WINDOW = 3;

    private final boolean quick;
    private final PrintStream log;

    SlowdownExperiment(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    /** What one run measured, per second from the step: premium's mean (paper-s) and answers, and the gateway's cap. */
    record Run(boolean local, List<Double> premium, List<Long> answered, List<Integer> cap, int stepSeconds) {
        int violations() {
            return violationSeconds(premium, TARGET, stepSeconds);
        }

        int back() {
            return backWithinTarget(premium, answered, TARGET, WINDOW, stepSeconds);
        }
    }

    /** Seconds among the first {@code seconds} whose mean was above {@code target} (a second without answers counts above). */
    static int violationSeconds(List<Double> means, double target, int seconds) {
        int n = 0;
        for (int i = 0; i < seconds; i++) {
            n += i >= means.size() || !(means.get(i) <= target) ? 1 : 0;
        }
        return n;
    }

    /**
     * The second of the step from which premium's answer-weighted mean over the {@code window} seconds ending at each
     * second stays within {@code target} to the step's end: one past the last window above it; 0 when none was,
     * {@code seconds} (the whole step) when the last one was. A window without answers counts above.
     */
    static int backWithinTarget(List<Double> means, List<Long> answered, double target, int window, int seconds) {
        int back = 0;
        for (int t = 0; t < seconds; t++) {
            double sum = 0;
            long n = 0;
            for (int i = Math.max(0, t - window + 1); i <= Math.min(t, means.size() - 1); i++) {
                if (answered.get(i) > 0 && Double.isFinite(means.get(i))) {
                    sum += means.get(i) * answered.get(i);
                    n += answered.get(i);
                }
            }
            if (n == 0 || sum / n > target) {
                back = t + 1;
            }
        }
        return back;
    }

    List<String> run(Path out, String command) throws Exception {
        Duration settle = Duration.ofSeconds(quick ? 15 : 20);
        Duration step = Duration.ofSeconds(quick ? 25 : 60);
        int pairs = quick ? 3 : 4; // ABBA: A B B A A B, three runs a side
        List<Run> runs = new ArrayList<>();
        ServiceTime normal = ServiceTime.paper(SCALE, 0);
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), normal)) {
            backend.knobs().get(0).processors(PROCESSORS);
            String url = backend.urls().get(0);
            for (int i = 0; i < 2 * pairs; i++) {
                runs.add(run(url, Spread.aAt(i), normal, settle, step, 31 + i / 2));
            }
        } finally {
            StockUtility.configure(ServiceTime.paper(SCALE, Experiments.SLEEPY_CPU));
        }
        List<Double> backL = new ArrayList<>();
        List<Double> backN = new ArrayList<>();
        List<Double> violL = new ArrayList<>();
        List<Double> violN = new ArrayList<>();
        for (Run r : runs) {
            (r.local() ? backL : backN).add((double) r.back());
            (r.local() ? violL : violN).add((double) r.violations());
        }
        String line = String.format(Locale.ROOT, "slowdown premium-back-within-target-seconds local %s none %s violation-seconds local %s "
                + "none %s (of %d)", Spread.of(backL).format("%.1f"), Spread.of(backN).format("%.1f"), Spread.of(violL).format("%.1f"),
                Spread.of(violN).format("%.1f"), step.toSeconds());
        Path dir = out.resolve("slowdown");
        Files.createDirectories(dir);
        ResultsFile.write(dir.resolve("RESULTS.md"), report(command, runs, settle, step, line));
        return List.of(line);
    }

    private StringBuilder report(String command, List<Run> runs, Duration settle, Duration step, String line) {
        StringBuilder md = ResultsFile.header("Experiment slowdown — a CPU-bound server's demand steps up", command);
        md.append(String.format(Locale.ROOT, "One server whose executing requests share %d processors (processor sharing: with n "
                + "executing each progresses at min(1, %d/n)), exponential demand of mean %.0f ms; the gateway's cap N_s = 10 "
                + "and the controller (`auto` model) deciding the weights. Open-loop arrivals: premium %.0f/s, basic %.0f/s (60%% of "
                + "the server's %.0f/s). After %d s the demand is ×%.1f (%.0f ms; the server now takes %.0f/s, less than arrives) "
                + "for the %d s measured, the arrivals unchanged. Premium τ = %.0f ms (twice the stepped "
                + "demand, so that premium can still meet it), basic τ = %.0f ms (the targets are the paper's 2 and 3 in units of "
                + "the stepped demand; the controller's cycle and statistics window are the paper's 5 s and 30 s in those units); "
                + "basic's queue waits at most 1 s. Runs with `gateway.localLimit: "
                + "true` and without, in ABBA order. Back within target: the second of the step from which premium's "
                + "mean over the %d seconds up to each second stays within τ to the step's end (the whole step when it is "
                + "above at the end; 0 when it never left).%n%n", PROCESSORS, PROCESSORS, SCALE * 1000, PREMIUM_RATE, BASIC_RATE,
                PROCESSORS / SCALE, settle.toSeconds(), FACTOR, FACTOR * SCALE * 1000, PROCESSORS / (FACTOR * SCALE), step.toSeconds(),
                TARGET * SCALE * 1000, 3 * FACTOR * SCALE * 1000, WINDOW));
        md.append("| run | local limit | back within target (s) | violation seconds |\n|---:|---|---:|---:|\n");
        for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            md.append(String.format(Locale.ROOT, "| %d | %s | %d | %d |%n", i + 1, r.local() ? "on" : "off", r.back(), r.violations()));
        }
        md.append("\n```\n").append(line).append("\n```\n\nPer run, from the step: premium's mean per second (ms) and the "
                + "gateway's cap on the server.\n\n");
        for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            md.append(String.format(Locale.ROOT, "- run %d, local limit %s: premium", i + 1, r.local() ? "on" : "off"));
            r.premium().forEach(x -> md.append(String.format(Locale.ROOT, " %.0f", x * SCALE * 1000)));
            md.append("; cap");
            r.cap().forEach(c -> md.append(' ').append(c));
            md.append('\n');
        }
        return md;
    }

    private Run run(String url, boolean localLimit, ServiceTime normal, Duration settle, Duration step, long seed) throws Exception {
        ExperimentSetup setup = new ExperimentSetup(SCALE * FACTOR, 10, "wrr", 0.1, "auto", 5);
        List<Integer> caps = new CopyOnWriteArrayList<>();
        StockUtility.configure(normal);
        String yaml = setup.yaml(List.of(url), "10", localLimit ? "  localLimit: true\n" : "", "")
                .replace("{ name: basic, target: 108ms, utility: { type: pacifici, phi: 1, alpha: 1, beta: 1 }, queueBound: 100000, "
                        + "queueTimeout: 10m }", "{ name: basic, target: 108ms, utility: { type: pacifici, phi: 1, alpha: 1, beta: 1 }, "
                        + "queueBound: 100000, queueTimeout: 1s }");
        if (!yaml.contains("queueTimeout: 1s")) {
            throw new IllegalStateException("the set-up's basic class changed; the slowdown's bounded basic queue no longer applies");
        }
        try (RunningSystem sys = RunningSystem.start(ConfigLoader.parse(yaml, "slowdown"), true)) {
            LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", null,
                    List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, setup.paper(2)),
                            new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, setup.paper(3))),
                    List.of(new LoadSpec.Phase(settle.plus(step), List.of(PREMIUM_RATE, BASIC_RATE))), true, Duration.ZERO,
                    Duration.ZERO, seed, Duration.ofMinutes(2), null);
            ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
            ServiceTime slow = ServiceTime.of(Duration.ofNanos(Math.round(normal.defaultMean().toNanos() * FACTOR)), 0);
            timer.schedule(() -> StockUtility.configure(slow), settle.toMillis(), TimeUnit.MILLISECONDS);
            timer.scheduleAtFixedRate(() -> caps.add(sys.gateway().queues().effectiveCap(0)), settle.toMillis() + 500, 1000,
                    TimeUnit.MILLISECONDS);
            LoadGenerator g = new LoadGenerator(spec, null);
            try {
                g.run();
            } finally {
                timer.shutdownNow();
                StockUtility.configure(normal);
            }
            List<Double> premium = new ArrayList<>();
            List<Long> answered = new ArrayList<>();
            for (SecondSample s : g.samples()) {
                if (s.className().equals("premium") && s.second() >= settle.toSeconds()) {
                    premium.add(s.meanMs() / 1000 / SCALE);
                    answered.add(s.completed());
                }
            }
            Run r = new Run(localLimit, premium, answered, List.copyOf(caps), (int) step.toSeconds());
            log.printf(Locale.ROOT, "slowdown, local limit %s: premium back within target after %d s, above it %d of %d s; premium %s; "
                    + "caps %s%n", localLimit ? "on" : "off", r.back(), r.violations(), step.toSeconds(), premium, caps);
            return r;
        }
    }
}
