package io.slagate.experiment;

import io.slagate.experiment.paper.ExperimentSetup;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.ControlMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServerKnobs;
import io.slagate.load.service.ServiceTime;
import io.slagate.rm.ControlLoop;
import io.slagate.rm.tune.Tuner;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The experiment ({@code slagate experiment tuning}): two servers of a sleep-bound service whose every request is
 * slower by {@value #CONNECTION_COST}% per worker past {@value #CONTENTION_KNEE} (a database whose statements scan its
 * open connections), one the safe side and one the experimental side, each class's requests split half and half,
 * under open-loop arrivals heavy enough that too few workers queue: an optimum inside the range, too few and too many
 * both costing a fifth or more of the best. Per run, on the same load: first an
 * exhaustive sweep of the servers' worker pool over {@link #GRID} (both sides on each value: the reference an
 * operator would find by trying them all), then the tuner from the far end of the range, then the configuration it
 * found and the sweep's best in turn (ABBA) on both sides. Ends with the line
 * {@code tuning best-by-sweep UB tuned U1 start U0 safe-drop D experimental-worst E}.
 */
final class TuningExperiment {
    static final int CONTENTION_KNEE = 8;
    /**
     * Percent slower per worker past the knee. Contention by the requests executing (ServerKnobs' knee alone) gave no
     * stable optimum under open arrivals: past the knee a server either kept up as well as at the optimum or, after a
     * burst, thrashed for good, by chance (a sweep read 0.095 at 24 workers, -0.436 at 28, 0.092 at 32).
     */
    static final int CONNECTION_COST = 6;
    /** The worker pools the sweep tries: the knob's range 1..32, finer where the optimum may lie. */
    static final int[] GRID = {2, 4, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32};
    /**
     * Each class's arrival rate (requests/s), half of each on each side: 140/s a side, 7 of a server's 50 ms workers
     * busy. Fewer than 8 workers cannot keep up (7 at 100%, queues growing); 32 make every request 2.4x slower; about
     * 11 are best (M/M/m: 65 ms against 82 at 8 and 122 at 32).
     */
    private static final double RATE_PER_CLASS = 140;
    /** The runs' seeds and starting pools: the far ends of the range, more than one initial simplex step (7.75) from the optimum. */
    private static final long[] SEEDS = {41, 42, 43};
    private static final int[] STARTS = {32, 1, 28};
    private static final String KNOBS = "[ { name: workers, path: /admin/knobs, min: 1, max: 32 } ]";
    private static final String QUEUE_TIMEOUT = "1s";
    /**
     * The tuner's period and the gain a promotion needs: about 5% of the best utility, the margin the comparison allows
     * (a promotion also needs twice the noise of the period's paired differences, so noise is not promoted). With 8 s
     * periods and +0.01 the tuner stopped at 9 workers, 5% under the best, every closer trial's gain below +0.01.
     */
    private static final int PERIOD_SECONDS = 15;
    private static final double MIN_GAIN = 0.004;

    private final boolean quick;
    private final PrintStream log;

    TuningExperiment(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    /** One run's figures. */
    record Run(long seed, int start, double[] sweep, int sweepBest, int tuned, double ub, double u1, double u0, double safeDrop,
               double experimentalWorst, int secondsBelowSafe, List<Tuner.Trial> trials, List<double[]> series, String comparison) {
    }

    List<String> run(Path out, String command) throws Exception {
        int runs = quick ? 1 : SEEDS.length;
        List<Run> done = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            done.add(once(SEEDS[r], STARTS[r]));
        }
        String line = String.format(Locale.ROOT, "tuning best-by-sweep %s tuned %s start %s safe-drop %s experimental-worst %s",
                spread(done, Run::ub), spread(done, Run::u1), spread(done, Run::u0), spread(done, Run::safeDrop),
                spread(done, Run::experimentalWorst));
        Path dir = out.resolve("tuning");
        Files.createDirectories(dir);
        ResultsFile.write(dir.resolve(quick ? "RESULTS-short.md" : "RESULTS.md"), report(command, done, line));
        return List.of(line);
    }

    private static String spread(List<Run> runs, ToDoubleFunction<Run> f) {
        return Spread.of(runs.stream().map(r -> f.applyAsDouble(r)).toList()).format("%.3f");
    }

    private Run once(long seed, int start) throws Exception {
        int point = quick ? 10 : 15;
        int tuningSeconds = quick ? 200 : 300;
        int compare = quick ? 30 : 40;
        List<double[]> series = new CopyOnWriteArrayList<>(); // second, safe utility, experimental utility
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0, 0), ServiceTime.of(Duration.ofMillis(50), 0).withWorkers(start))) {
            for (ServerKnobs k : backend.knobs()) {
                k.contentionKnee(CONTENTION_KNEE);
                k.connectionCost(CONNECTION_COST);
            }
            try (RunningSystem sys = RunningSystem.start(ConfigLoader.parse(yaml(backend.urls(), KNOBS, QUEUE_TIMEOUT, "simplex",
                    PERIOD_SECONDS + "s", "3s", String.valueOf(MIN_GAIN)), "tuning"), true)) {
                ControlLoop rm = sys.controlLoop();
                command(rm, ControlMessage.TUNING_STOP); // the sweep first, the tuner idle
                long t0 = System.nanoTime();
                ScheduledExecutorService sampler = sampleSides(rm, series, t0);
                try {
                    double[] sweep = new double[GRID.length];
                    for (int i = 0; i < GRID.length; i++) {
                        sweep[i] = both(sys, backend, GRID[i], series, t0, point, seed * 100 + i);
                        log.printf(Locale.ROOT, "tuning: sweep, %d workers: %.3f%n", GRID[i], sweep[i]);
                    }
                    int b = TuningFigures.best(sweep);
                    setWorkers(backend, start);
                    double from = (System.nanoTime() - t0) / 1e9;
                    command(rm, ControlMessage.TUNING_START);
                    load(sys, tuningSeconds, seed);
                    double to = (System.nanoTime() - t0) / 1e9;
                    command(rm, ControlMessage.TUNING_STOP);
                    double u0 = rm.tuner().baselineUtility();
                    List<Tuner.Trial> trials = rm.tuner().trials();
                    int tuned = (int) Math.round(rm.tuner().bestValues()[0]);
                    // the tuning period proper: after the baseline's measurement of the start (one period)
                    double tuningFrom = from + PERIOD_SECONDS;
                    double drop = TuningFigures.safeDrop(series, tuningFrom, to, u0);
                    double worst = TuningFigures.worstSpanMean(series, tuningFrom, to, 2);
                    int below = TuningFigures.secondsBelowSafe(series, tuningFrom, to);
                    // the tuned pool and the sweep's best in turn, tuned, best, best, tuned: a drift favours neither
                    StringBuilder order = new StringBuilder();
                    double[] sum = new double[2];
                    for (int period = 0; period < 4; period++) {
                        boolean isTuned = period == 0 || period == 3;
                        double u = both(sys, backend, isTuned ? tuned : GRID[b], series, t0, compare, seed * 1000 + period);
                        sum[isTuned ? 0 : 1] += u / 2;
                        order.append(period == 0 ? "" : ", ").append(isTuned ? "tuned " : "sweep's best ")
                                .append(String.format(Locale.ROOT, "%.3f", u));
                    }
                    Run run = new Run(seed, start, sweep, b, tuned, sum[1], sum[0], u0, drop, worst, below, trials, List.copyOf(series),
                            order.toString());
                    log.printf(Locale.ROOT, "tuning: seed %d from %d workers: sweep's best %d (%.3f), tuned %d; %s; safe-drop %.3f, "
                            + "experimental worst %.3f, %d s below the safe side%n", seed, start, GRID[b], sweep[b], tuned, order, drop,
                            worst, below);
                    return run;
                } finally {
                    sampler.shutdownNow();
                }
            }
        }
    }

    private static void setWorkers(BackendServer backend, int workers) {
        for (ServerKnobs k : backend.knobs()) {
            k.workers(workers);
        }
    }

    /** Both sides on {@code workers} for {@code seconds} of the load: the mean of the two sides' utility after 4 s to settle. */
    private double both(RunningSystem sys, BackendServer backend, int workers, List<double[]> series, long t0, int seconds, long seed)
            throws Exception {
        setWorkers(backend, workers);
        double from = (System.nanoTime() - t0) / 1e9;
        load(sys, seconds, seed);
        double to = (System.nanoTime() - t0) / 1e9;
        return (mean(series, from + 4, to, 1) + mean(series, from + 4, to, 2)) / 2;
    }

    private void load(RunningSystem sys, int seconds, long seed) throws Exception {
        LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", null,
                List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, Duration.ofMillis(150)),
                        new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, Duration.ofMillis(250))),
                List.of(new LoadSpec.Phase(Duration.ofSeconds(seconds), List.of(RATE_PER_CLASS, RATE_PER_CLASS))), true, Duration.ZERO,
                Duration.ZERO, seed, Duration.ofSeconds(30), null);
        new LoadGenerator(spec, null).run();
    }

    /** Mean of column {@code col} of a per-second series (second, safe, experimental) over [from, to); NaN when empty. */
    static double mean(List<double[]> series, double from, double to, int col) {
        double s = 0;
        int n = 0;
        for (double[] x : series) {
            if (x[0] >= from && x[0] < to && Double.isFinite(x[col])) {
                s += x[col];
                n++;
            }
        }
        return n == 0 ? Double.NaN : s / n;
    }

    /** Every second, the first partition's two sides' utilities as (seconds since t0, safe, experimental). */
    /** A tuning command (start, stop) to the control loop, which runs it on its own thread: the tuner is not shared. */
    static void command(ControlLoop rm, String verb) throws Exception {
        rm.command(new ControlMessage(BusMessage.SCHEMA, verb, null, null, null, 0, 0,
                "experiment", System.currentTimeMillis()));
    }

    /** A table row per trial: its number, its first {@code knobs} knob values, both sides' utilities and the outcome. */
    static void appendTrials(StringBuilder md, List<Tuner.Trial> trials, int knobs) {
        for (Tuner.Trial t : trials) {
            StringBuilder values = new StringBuilder();
            for (int i = 0; i < knobs; i++) {
                double v = i < t.values().length ? t.values()[i] : Double.NaN;
                values.append(Double.isNaN(v) ? "–" : v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.2f", v))
                        .append(" | ");
            }
            md.append(String.format(Locale.ROOT, "| %d | %s%.3f | %.3f | %s |%n", t.number(), values, t.experimental(), t.safe(),
                    t.outcome()));
        }
    }

    /** The utility of each side per second, then the result line in a code block. */
    static void appendSeries(StringBuilder md, List<double[]> series, String line) {
        md.append("\nUtility per second (safe, experimental):\n\n");
        StringBuilder s = new StringBuilder();
        for (double[] x : series) {
            s.append(String.format(Locale.ROOT, "%.0f:%.2f/%.2f ", x[0], x[1], x[2]));
        }
        md.append(s.toString().trim()).append("\n");
        if (!line.isEmpty()) {
            md.append("\n```\n").append(line).append("\n```\n");
        }
    }

    static ScheduledExecutorService sampleSides(ControlLoop rm, List<double[]> series, long t0) {
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(() -> {
            double[] u = rm.status().figures().sideUtilities();
            series.add(new double[] {(System.nanoTime() - t0) / 1e9, u[0], u[1]});
        }, 1, 1, TimeUnit.SECONDS);
        return sampler;
    }

    static String yaml(List<String> urls) {
        return yaml(urls, "[ { name: workers, path: /admin/knobs, min: 1, max: 32 }, { name: concurrency, min: 1, max: 32 } ]", "1m");
    }

    /**
     * Two servers, one a side, two classes and their twins, tuning {@code knobs} (a YAML list); a request waits in the
     * gateway's queue at most {@code queueTimeout}.
     */
    static String yaml(List<String> urls, String knobs, String queueTimeout) {
        return yaml(urls, knobs, queueTimeout, "simplex");
    }

    /** The same with another search strategy ({@code simplex}, {@code hill}, {@code restarts}). */
    static String yaml(List<String> urls, String knobs, String queueTimeout, String strategy) {
        return yaml(urls, knobs, queueTimeout, strategy, "8s", "2s", "0.01");
    }

    /** The same with the tuner's measurement period, settling time and the gain a promotion needs. */
    static String yaml(List<String> urls, String knobs, String queueTimeout, String strategy, String period, String settle,
                       String minGain) {
        return String.format(Locale.ROOT, """
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  stats: { reportingInterval: 500ms, window: 3s }
                servers:
                  - { id: s1, url: "%s", concurrency: 32, pool: a }
                  - { id: s2, url: "%s", concurrency: 32, pool: a-trial }
                classes:
                  - { name: premium, target: 150ms, pool: a, queueBound: 100000, queueTimeout: %5$s }
                  - { name: basic, target: 250ms, pool: a, queueBound: 100000, queueTimeout: %5$s }
                  - { name: premium-trial, target: 150ms, pool: a-trial, queueBound: 100000, queueTimeout: %5$s }
                  - { name: basic-trial, target: 250ms, pool: a-trial, queueBound: 100000, queueTimeout: %5$s }
                classification:
                  subscriptions: { %s: { "*": gold } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                bus: { url: "vm://slagate-tuning", listen: "" }
                controller:
                  cycle: 1s
                  combining: min
                  resolution: 0.1
                  tuning:
                    strategy: %6$s
                    period: %7$s
                    settle: %8$s
                    minGain: %9$s
                    abortDrop: 0.3
                    stallTrials: 10
                    drift: 0.1
                    safe: a
                    experimental: a-trial
                    share: 0.5
                    twins: { premium: premium-trial, basic: basic-trial }
                    knobs: %s
                """, urls.get(0), urls.get(1), ExperimentSetup.PREMIUM_USER, knobs, queueTimeout, strategy, period, settle, minGain);
    }

    private static String report(String command, List<Run> runs, String line) {
        StringBuilder md = ResultsFile.header("Experiment tuning — the tuner against an exhaustive sweep", command);
        md.append(String.format(Locale.ROOT, """
                Two servers of a sleep-bound service (50 ms a request) whose every request is %d%% slower per worker past %d,
                busy or idle (a database whose statements scan its open connections): `s1` is the safe side
                (pool `a`), `s2` the experimental side (pool `a-trial`); the gateway sends half of each class's requests to the
                class's twin on `a-trial`. Open-loop (Poisson) arrivals, premium (target 150 ms) and basic (250 ms) at %.0f/s
                each, %.0f/s a side (7 of a server's workers busy at the pace of one request alone); a request waits in the gateway's queue at most %s (a request failed so counts as answered
                late). N_s 32 at the gateway, so the servers' worker pool is what binds. The knob: each server's worker pool,
                1 to 32, through its `/admin/knobs`. Per run, on the same load:

                1. **The sweep**: both sides on each pool of %s in turn, the mean of the two sides' utility (min over the
                   classes of eq. 7 on what was measured) after 4 s to settle. Its best is the reference (best-by-sweep).
                2. **Tuning** (Nelder-Mead, %d s periods after 3 s to settle; promoted at +%.3f and twice the noise, aborted at
                   -0.3) from the start
                   pool. U0 is the safe side's utility before tuning (the tuner's baseline period at the start). Safe-drop is
                   the worst 5-second mean of the safe side below U0 over the whole tuning period after that baseline;
                   experimental-worst is the experimental side's worst 5-second mean there (what users on that side paid),
                   beside the seconds it spent below the safe side.
                3. **The comparison**: both sides on the tuned pool and on the sweep's best in turn, tuned, best, best, tuned;
                   tuned (U1) and best-by-sweep (UB) are each the mean of their two periods.

                """, CONNECTION_COST, CONTENTION_KNEE, RATE_PER_CLASS, RATE_PER_CLASS, QUEUE_TIMEOUT, Arrays.toString(GRID),
                PERIOD_SECONDS, MIN_GAIN));
        md.append("| run (seed) | start | sweep's best | tuned | UB | U1 | U0 | safe-drop | experimental worst | s below safe | trials |\n")
                .append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Run r : runs) {
            md.append(String.format(Locale.ROOT, "| %d | %d | %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %d | %d |%n", r.seed(), r.start(),
                    GRID[r.sweepBest()], r.tuned(), r.ub(), r.u1(), r.u0(), r.safeDrop(), r.experimentalWorst(), r.secondsBelowSafe(),
                    r.trials().size()));
        }
        md.append("\n```\n").append(line).append("\n```\n");
        for (Run r : runs) {
            md.append(String.format(Locale.ROOT, "%n### Run %d (from %d workers)%n%nThe sweep (workers: utility):", r.seed(), r.start()));
            for (int i = 0; i < GRID.length; i++) {
                md.append(String.format(Locale.ROOT, " %d: %.3f", GRID[i], r.sweep()[i]));
            }
            md.append("\n\nThe comparison: ").append(r.comparison()).append(".\n\n| trial | workers | experimental U | safe U | outcome |\n")
                    .append("|---:|---:|---:|---:|---|\n");
            appendTrials(md, r.trials(), 1);
            appendSeries(md, r.series(), "");
        }
        return md.toString();
    }
}
