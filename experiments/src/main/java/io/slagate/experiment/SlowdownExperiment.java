package io.slagate.experiment;

import io.slagate.experiment.paper.ExperimentSetup;
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

    /**
     * The sides: the gateway's local limit on N_s = 10; {@code concurrency: auto} on its own; the best static N_s that a sweep
     * at the normal demand found (what an operator would configure by trying, not knowing the step to come).
     */
    enum Side {
        LOCAL("local"), AUTO("auto"), STATIC("best-static");

        final String label;

        Side(String label) {
            this.label = label;
        }
    }

    /** The N_s values the operator's sweep tries at the normal demand. */
    static final List<Integer> SWEEP = List.of(3, 4, 5, 6, 8, 10);

    /** Side of the run at {@code i}: rounds of three, alternately forward and reversed (local auto static, static auto local). */
    static Side sideAt(int i) {
        int k = i % 3;
        return Side.values()[(i / 3) % 2 == 0 ? k : 2 - k];
    }

    /** What one run measured, per second from the step: premium's mean (paper-s) and answers, and the gateway's cap. */
    record Run(Side side, List<Double> premium, List<Long> answered, List<Integer> cap, int stepSeconds) {
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
        int rounds = 3; // three runs a side, in rounds alternately forward and reversed
        List<Run> runs = new ArrayList<>();
        List<double[]> sweep = new ArrayList<>();
        int best;
        ServiceTime normal = ServiceTime.paper(SCALE, 0);
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), normal)) {
            backend.knobs().get(0).processors(PROCESSORS);
            String url = backend.urls().get(0);
            best = sweep(url, normal, sweep);
            for (int i = 0; i < 3 * rounds; i++) {
                runs.add(run(url, sideAt(i), best, normal, settle, step, 31 + i / 3));
            }
        } finally {
            StockUtility.configure(ServiceTime.paper(SCALE, Experiments.SLEEPY_CPU));
        }
        String line = line(runs, best, step);
        Path dir = out.resolve("slowdown");
        Files.createDirectories(dir);
        ResultsFile.write(dir.resolve("RESULTS.md"), report(command, runs, sweep, best, settle, step, line));
        return List.of(line);
    }

    /** {@code slowdown violation-seconds local L auto A best-static B (N_s K) back-within-target-seconds …}, each mean [min..max]. */
    static String line(List<Run> runs, int best, Duration step) {
        StringBuilder viol = new StringBuilder();
        StringBuilder back = new StringBuilder();
        for (Side side : Side.values()) {
            List<Double> v = new ArrayList<>();
            List<Double> b = new ArrayList<>();
            for (Run r : runs) {
                if (r.side() == side) {
                    v.add((double) r.violations());
                    b.add((double) r.back());
                }
            }
            viol.append(' ').append(side.label).append(' ').append(Spread.of(v).format("%.1f"));
            back.append(' ').append(side.label).append(' ').append(Spread.of(b).format("%.1f"));
        }
        return String.format(Locale.ROOT, "slowdown violation-seconds%s (N_s %d) back-within-target-seconds%s (of %d)", viol, best,
                back, step.toSeconds());
    }

    /**
     * The operator's sweep at the normal demand: each N_s of {@link #SWEEP} for a few seconds, the best being the one with
     * the smallest worse ratio of a class's mean response time to its target (the first of equals). Records
     * {N_s, premium's mean, basic's mean} (paper-s) per N_s.
     */
    private int sweep(String url, ServiceTime normal, List<double[]> into) throws Exception {
        Duration warm = Duration.ofSeconds(quick ? 5 : 8);
        Duration measure = Duration.ofSeconds(quick ? 8 : 15);
        int best = SWEEP.get(SWEEP.size() - 1);
        double bestRatio = Double.POSITIVE_INFINITY;
        for (int k : SWEEP) {
            List<SecondSample> samples = load(url, Integer.toString(k), false, normal, warm.plus(measure), null, 29, new ArrayList<>());
            double p = mean(samples, "premium", warm.toSeconds());
            double b = mean(samples, "basic", warm.toSeconds());
            into.add(new double[] {k, p, b});
            double ratio = Math.max(p / TARGET, b / (3 * FACTOR));
            log.printf(Locale.ROOT, "slowdown sweep N_s %d: premium %.2f, basic %.2f paper-s%n", k, p, b);
            if (ratio < bestRatio) {
                bestRatio = ratio;
                best = k;
            }
        }
        return best;
    }

    /** The answer-weighted mean response time (paper-s) of {@code className} over the seconds from {@code from}; NaN without answers. */
    static double mean(List<SecondSample> samples, String className, long from) {
        return SecondSample.weightedMeanMs(samples.stream().filter(s -> s.className().equals(className) && s.second() >= from).toList())
                / 1000 / SCALE;
    }

    private StringBuilder report(String command, List<Run> runs, List<double[]> sweep, int best, Duration settle, Duration step,
                                 String line) {
        StringBuilder md = ResultsFile.header("Experiment slowdown — a CPU-bound server's demand steps up", command);
        md.append(String.format(Locale.ROOT, "One server whose executing requests share %d processors (processor sharing: with n "
                + "executing each progresses at min(1, %d/n)), exponential demand of mean %.0f ms, the controller (`auto` model) "
                + "deciding the weights. Open-loop arrivals: premium %.0f/s, basic %.0f/s (60%% of "
                + "the server's %.0f/s). After %d s the demand is ×%.1f (%.0f ms; the server now takes %.0f/s, less than arrives) "
                + "for the %d s measured, the arrivals unchanged. Premium τ = %.0f ms (twice the stepped "
                + "demand, so that premium can still meet it), basic τ = %.0f ms (the targets are the paper's 2 and 3 in units of "
                + "the stepped demand; the controller's cycle and statistics window are the paper's 5 s and 30 s in those units); "
                + "basic's queue waits at most 1 s. Three sides, three runs each, in rounds alternately forward and reversed "
                + "(local, auto, best-static; best-static, auto, local): `gateway.localLimit: true` on N_s = 10; `concurrency: "
                + "auto` alone; the best static N_s of a sweep over " + SWEEP + " at the normal demand (the smallest worse "
                + "ratio of a class's mean to its target), what an operator would configure by trying before the step "
                + "(runs before 2026-11-28, under History, compared the local limit with N_s = 10 alone, a baseline set far "
                + "above the 5 processors). "
                + "Back within target: the second of the step from which premium's "
                + "mean over the %d seconds up to each second stays within τ to the step's end (the whole step when it is "
                + "above at the end; 0 when it never left).%n%n", PROCESSORS, PROCESSORS, SCALE * 1000, PREMIUM_RATE, BASIC_RATE,
                PROCESSORS / SCALE, settle.toSeconds(), FACTOR, FACTOR * SCALE * 1000, PROCESSORS / (FACTOR * SCALE), step.toSeconds(),
                TARGET * SCALE * 1000, 3 * FACTOR * SCALE * 1000, WINDOW));
        md.append("The operator's sweep at the normal demand (means in paper-seconds; targets ").append(String.format(Locale.ROOT,
                "%.1f and %.1f):%n%n| N_s | premium | basic |%n|---:|---:|---:|%n", TARGET, 3 * FACTOR));
        for (double[] row : sweep) {
            md.append(String.format(Locale.ROOT, "| %.0f%s | %.2f | %.2f |%n", row[0], row[0] == best ? " (best)" : "", row[1], row[2]));
        }
        md.append("\n| run | side | back within target (s) | violation seconds |\n|---:|---|---:|---:|\n");
        for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            md.append(String.format(Locale.ROOT, "| %d | %s | %d | %d |%n", i + 1, r.side().label, r.back(), r.violations()));
        }
        md.append("\n```\n").append(line).append("\n```\n\nPer run, from the step: premium's mean per second (ms) and the "
                + "gateway's cap on the server.\n\n");
        for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            md.append(String.format(Locale.ROOT, "- run %d, %s: premium", i + 1, r.side().label));
            r.premium().forEach(x -> md.append(String.format(Locale.ROOT, " %.0f", x * SCALE * 1000)));
            md.append("; cap");
            r.cap().forEach(c -> md.append(' ').append(c));
            md.append('\n');
        }
        return md;
    }

    private Run run(String url, Side side, int best, ServiceTime normal, Duration settle, Duration step, long seed) throws Exception {
        List<Integer> caps = new CopyOnWriteArrayList<>();
        String concurrency = switch (side) {
            case LOCAL -> "10";
            case AUTO -> "auto";
            case STATIC -> Integer.toString(best);
        };
        List<SecondSample> samples = load(url, concurrency, side == Side.LOCAL, normal, settle.plus(step), settle, seed, caps);
        List<Double> premium = new ArrayList<>();
        List<Long> answered = new ArrayList<>();
        for (SecondSample s : samples) {
            if (s.className().equals("premium") && s.second() >= settle.toSeconds()) {
                premium.add(s.meanMs() / 1000 / SCALE);
                answered.add(s.completed());
            }
        }
        Run r = new Run(side, premium, answered, List.copyOf(caps), (int) step.toSeconds());
        log.printf(Locale.ROOT, "slowdown, %s (N_s %s): premium back within target after %d s, above it %d of %d s; premium %s; caps %s%n",
                side.label, concurrency, r.back(), r.violations(), step.toSeconds(), premium, caps);
        return r;
    }

    /**
     * One run of the arrivals for {@code length} on a gateway with {@code concurrency} as N_s, the demand stepped ×{@value #FACTOR}
     * at {@code slowAt} (null: never); the gateway's effective cap is sampled every second after the step into {@code caps}.
     */
    private List<SecondSample> load(String url, String concurrency, boolean localLimit, ServiceTime normal, Duration length,
                                    Duration slowAt, long seed, List<Integer> caps) throws Exception {
        ExperimentSetup setup = new ExperimentSetup(SCALE * FACTOR, 10, "wrr", 0.1, "auto", 5);
        StockUtility.configure(normal);
        String yaml = setup.yaml(List.of(url), concurrency, localLimit ? "  localLimit: true\n" : "", "")
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
                    List.of(new LoadSpec.Phase(length, List.of(PREMIUM_RATE, BASIC_RATE))), true, Duration.ZERO,
                    Duration.ZERO, seed, Duration.ofMinutes(2), null);
            ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
            if (slowAt != null) {
                ServiceTime slow = ServiceTime.of(Duration.ofNanos(Math.round(normal.defaultMean().toNanos() * FACTOR)), 0);
                timer.schedule(() -> StockUtility.configure(slow), slowAt.toMillis(), TimeUnit.MILLISECONDS);
                timer.scheduleAtFixedRate(() -> caps.add(sys.gateway().queues().caps().effectiveCap(0)), slowAt.toMillis() + 500, 1000,
                        TimeUnit.MILLISECONDS);
            }
            LoadGenerator g = new LoadGenerator(spec, null);
            try {
                g.run();
            } finally {
                timer.shutdownNow();
                StockUtility.configure(normal);
            }
            return g.samples();
        }
    }
}
