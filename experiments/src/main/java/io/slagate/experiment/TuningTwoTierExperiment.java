package io.slagate.experiment;

import io.slagate.experiment.paper.ExperimentSetup;
import io.slagate.bus.message.ControlMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServerKnobs;
import io.slagate.load.service.ServiceTime;
import io.slagate.rm.ControlLoop;
import io.slagate.rm.tune.Tuner;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import org.HdrHistogram.Histogram;

/**
 * The two-tier margin ({@code slagate experiment tuning --two-tier}): both tiers as an operator who tuned nothing
 * leaves them — the backends' worker pool at a servlet container's default of 200, slagate's N_s at the 32 it was
 * configured with — under a load where that costs: premium and basic at 140 requests/s each (open-loop Poisson), on a
 * backend whose requests contend past 8 executing at once (a database's locks: each then takes (1 + ((n - 8)/8)^2)
 * longer). Open loop, not closed: closed-loop clients pile up on the slower side of the split, so that a trial side that
 * fell behind once stays behind whatever it runs (a first run with 80 clients aborted its first ten trials so). The defaults are measured, then the tuner runs from them (workers, N_s and the queue timeout, the safe side
 * on the best known all along), then both sides on what it found are measured under the same load. Ends with
 * {@code two-tier defaults U_D tuned U_T throughput X_D X_T at-target A_D A_T margin M%}: the utility (eq. 7, min
 * combining, the mean of the two sides), answers per second, answers per second within their class's target, and the
 * tuned configuration's gain in the last.
 */
final class TuningTwoTierExperiment {
    static final int CONTENTION_KNEE = 8;
    static final int DEFAULT_WORKERS = 200;
    /** Requests/s of each class, over both sides (each side gets half): 140/s a side, 7 executing on average at 50 ms. */
    static final double RATE_PER_CLASS = 140;
    /**
     * How long a request may wait in the gateway's queue: a collapsed configuration's backlog is shed (with its fault)
     * instead of outliving it and being charged to the next trial on that side.
     */
    static final String QUEUE_TIMEOUT = "2s";
    /** The backend's worker pool; slagate's N_s and queue timeout (seconds; from the configured 2 s down to a quarter second). */
    private static final String KNOBS = "[ { name: workers, path: /admin/knobs, min: 1, max: 200 }, { name: concurrency, min: 1, max: 32 },"
            + " { name: queueTimeout, min: 0.25, max: 2 } ]";

    private final boolean quick;
    private final PrintStream log;

    TuningTwoTierExperiment(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    /** One measured phase: utility (mean of the sides), answers/s and answers/s within target, over both classes. */
    private record Measured(double utility, double throughput, double atTarget, long lost) {
    }

    List<String> run(Path out, String command) throws Exception {
        int measure = quick ? 40 : 90;
        int tune = quick ? 240 : 600;
        List<double[]> series = new CopyOnWriteArrayList<>();
        Measured defaults;
        Measured tuned;
        List<Tuner.Trial> trials;
        String best;
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0, 0),
                ServiceTime.of(Duration.ofMillis(50), 0).withWorkers(DEFAULT_WORKERS))) {
            for (ServerKnobs k : backend.knobs()) {
                k.contentionKnee(CONTENTION_KNEE);
            }
            try (RunningSystem sys = RunningSystem.start(ConfigLoader.parse(TuningExperiment.yaml(backend.urls(), KNOBS, QUEUE_TIMEOUT, "restarts"),
                    "tuning-two-tier"), true)) {
                ControlLoop rm = sys.controlLoop();
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (rm.tuner() == null && System.nanoTime() < deadline) {
                    Thread.sleep(50); // polled with a deadline: the tuner exists after the first control cycle
                }
                TuningExperiment.command(rm, ControlMessage.TUNING_STOP); // the defaults are measured first
                long t0 = System.nanoTime();
                ScheduledExecutorService sampler = TuningExperiment.sampleSides(rm, series, t0);
                try {
                    load(sys, quick ? 15 : 30, 70); // warm-up (JIT, connections): not measured
                    defaults = measured(sys, series, t0, measure, 71);
                    log.printf(Locale.ROOT, "tuning --two-tier: defaults %s%n", defaults);
                    TuningExperiment.command(rm, ControlMessage.TUNING_START);
                    load(sys, tune, 72);
                    TuningExperiment.command(rm, ControlMessage.TUNING_STOP); // both sides on the best found
                    trials = rm.tuner().trials();
                    best = Arrays.toString(rm.tuner().bestValues());
                    tuned = measured(sys, series, t0, measure, 73);
                    log.printf(Locale.ROOT, "tuning --two-tier: tuned %s on %s after %d trials%n", tuned, best, trials.size());
                } finally {
                    sampler.shutdownNow();
                }
            }
        }
        double margin = 100 * (tuned.atTarget() - defaults.atTarget()) / defaults.atTarget();
        String line = String.format(Locale.ROOT, "two-tier defaults %.3f tuned %.3f throughput %.1f %.1f at-target %.1f %.1f margin %+.0f%%",
                defaults.utility(), tuned.utility(), defaults.throughput(), tuned.throughput(), defaults.atTarget(), tuned.atTarget(),
                margin);
        Path dir = out.resolve("tuning");
        Files.createDirectories(dir);
        ResultsFile.write(dir.resolve(quick ? "TWO-TIER-short.md" : "TWO-TIER.md"),
                report(command, defaults, tuned, trials, best, series, line, measure, tune));
        return List.of(line);
    }

    /** {@code seconds} of the load, the first 5 not measured; the sides' mean utility over the same seconds. */
    private Measured measured(RunningSystem sys, List<double[]> series, long t0, int seconds, long seed) throws Exception {
        double from = (System.nanoTime() - t0) / 1e9;
        LoadGenerator gen = generator(sys, seconds, Duration.ofSeconds(5), seed);
        Summary s = gen.run();
        double to = (System.nanoTime() - t0) / 1e9;
        double u = (TuningExperiment.mean(series, from + 5, to, 1) + TuningExperiment.mean(series, from + 5, to, 2)) / 2;
        double within = 0;
        double answers = 0;
        for (Map.Entry<String, Summary.ClassSummary> c : s.classes().entrySet()) {
            answers += c.getValue().completed();
            Histogram h = gen.measured(c.getKey()); // microseconds
            within += h.getCountBetweenValues(0, Math.round(c.getValue().targetMs() * 1000));
        }
        return new Measured(u, answers / s.measuredSeconds(), within / s.measuredSeconds(), s.lost());
    }

    private void load(RunningSystem sys, int seconds, long seed) throws Exception {
        generator(sys, seconds, Duration.ZERO, seed).run();
    }

    private static LoadGenerator generator(RunningSystem sys, int seconds, Duration warmup, long seed) {
        LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", null,
                List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, Duration.ofMillis(150)),
                        new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, Duration.ofMillis(250))),
                List.of(new LoadSpec.Phase(Duration.ofSeconds(seconds), List.of(RATE_PER_CLASS, RATE_PER_CLASS))),
                true, Duration.ZERO, warmup, seed, Duration.ofSeconds(30), null);
        return new LoadGenerator(spec, null);
    }

    private static String report(String command, Measured d, Measured t, List<Tuner.Trial> trials, String best, List<double[]> series,
                                 String line, int measure, int tune) {
        StringBuilder md = new StringBuilder("# Experiment tuning --two-tier — both tiers tuned against their defaults\n\n");
        md.append("Produced by `").append(command).append("` on ").append(Experiments.cores()).append(", ")
                .append(LocalDate.now()).append(".\n\n");
        md.append(String.format(Locale.ROOT, """
                Two servers of the synthetic StockUtility service (`getQuote`, 50 ms, exponential), the safe side `s1` and the
                experimental side `s2`, each class's requests split half and half between them. The backend's requests contend
                past %d executing at once (each then takes (1 + ((n - %d)/%d)^2) longer, as a database's locks stretch its work), so
                past some concurrency it answers fewer requests, not more. Load: premium and basic at %.0f requests/s each,
                open-loop Poisson arrivals (7 requests executing on average a side at 50 ms); targets 150 ms and 250 ms;
                utility: eq. 7, min over the classes, the mean of the two sides. A request waits at most %s in the gateway's
                queue (then it is shed with its fault). Past about 18 executing a side, the stretched requests arrive faster
                than they leave, and the side collapses until its backlog is shed: the defaults (up to 32 at once) are
                metastable here, N_s or a pool of 16 or fewer is not.

                **Defaults**: both tiers as an operator who tuned nothing leaves them: the backends' worker pool at %d (a
                servlet container's default), slagate's N_s at the 32 and its queue timeout at the %s it is configured with.
                Measured for %d s (the first 5 not counted). Then the tuner (Nelder-Mead over the worker pool, 1–200, N_s, 1–32,
                and the queue timeout, 0.25–2 s, restarted from a random point every 12 trials, as the defaults sit on a
                plateau where every neighbour collapses alike; a shed request counts as an answer at the configured 2 s, so
                shedding earlier is not a gain by itself; 8 s periods after
                2 s to settle; the safe side on the best known all along) runs %d s under the same load from the defaults, is stopped
                (both sides on the best it found), and **tuned** is measured as the defaults were.

                | | utility | answers/s | answers/s within target | lost |
                |---|---:|---:|---:|---:|
                | defaults | %.3f | %.1f | %.1f | %d |
                | tuned (%s: workers, N_s, queue timeout) | %.3f | %.1f | %.1f | %d |

                For comparison: the multi-tier auto-tuning thesis reports 20–25%% offline, Active Harmony up to 16%%. The margin
                here depends on how far past the contention knee the defaults let the backend run, and on when within the
                measurement the defaults collapse.

                ### Trials (%d)

                | trial | workers | N_s | queue timeout (s) | experimental U | safe U | outcome |
                |---:|---:|---:|---:|---:|---:|---|
                """, CONTENTION_KNEE, CONTENTION_KNEE, CONTENTION_KNEE, RATE_PER_CLASS, QUEUE_TIMEOUT, DEFAULT_WORKERS, QUEUE_TIMEOUT, measure,
                tune, d.utility(), d.throughput(), d.atTarget(), d.lost(), best, t.utility(), t.throughput(), t.atTarget(), t.lost(),
                trials.size()));
        TuningExperiment.appendTrials(md, trials, 3);
        TuningExperiment.appendSeries(md, series, line);
        return md.toString();
    }
}
