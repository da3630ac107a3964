package io.slagate.experiment;

import io.slagate.experiment.paper.ExperimentSetup;
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
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Active Harmony's finding on slagate ({@code slagate experiment tuning --workloads}): no single configuration
 * is best for every workload. Two servers (the safe and the experimental side, half of each class's requests each) of
 * the synthetic StockUtility service: {@code getQuote}, a 50 ms read that takes no lock, and {@code buyShares}, a 20 ms
 * write whose writers contend past 4 executing at once (a database's locks). Two workloads, open-loop: {@code browse}
 * (reads only) and {@code order} (writes only). First a brute-force sweep of the servers' worker pool for each workload
 * (two pool sizes measured at once, one a side), which finds each workload's best by hand and what the other workload's
 * best costs it; then the tuner, started from the browse workload's best under order, and left to follow when the load
 * turns to browse. Ends with {@code workloads browse-best W1 order-best W2 cross-loss L1 L2 single-best W3 its-worst-loss
 * L3 tuned T1 T2}: each workload's best pool, what the other's best costs it (a share of its best utility), the one pool
 * that serves both best and its larger loss, and where the tuner left the safe side under each.
 */
final class TuningWorkloadsExperiment {
    static final int[] SWEEP = {2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32};
    static final int WRITE_KNEE = 4;
    /** Requests/s of each workload, over both sides (each side gets half). */
    static final double BROWSE_RATE = 300;
    static final double ORDER_RATE = 300;
    /**
     * How long a request may wait in the gateway's queue: an overloaded configuration's backlog is shed (with its
     * fault) instead of outliving the configuration and being charged to the next trial on that side.
     */
    static final String QUEUE_TIMEOUT = "2s";

    private final boolean quick;
    private final PrintStream log;

    TuningWorkloadsExperiment(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    private record Workload(String name, String operation, double rate) {
    }

    private static final Workload BROWSE = new Workload("browse", "getQuote", BROWSE_RATE);
    private static final Workload ORDER = new Workload("order", "buyShares", ORDER_RATE);

    List<String> run(Path out, String command) throws Exception {
        int point = quick ? 14 : 30;
        int tuneSeconds = quick ? 150 : 360;
        Map<String, Map<Integer, Double>> sweep = new LinkedHashMap<>();
        List<double[]> series = new CopyOnWriteArrayList<>();
        Map<String, List<Tuner.Trial>> trialsByWorkload = new LinkedHashMap<>();
        Map<String, Double> tunedUtility = new LinkedHashMap<>();
        Map<String, Integer> tunedWorkers = new LinkedHashMap<>();
        ServiceTime time = new ServiceTime(Map.of("getQuote", Duration.ofMillis(50), "buyShares", Duration.ofMillis(20)),
                Duration.ofMillis(50), 0, Duration.ofMillis(2)).withWorkers(8);
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0, 0), time)) {
            for (ServerKnobs k : backend.knobs()) {
                k.contentionKnee(WRITE_KNEE);
                k.contendingOperations(Set.of("buyShares", "sellShares"));
            }
            try (RunningSystem sys = RunningSystem.start(ConfigLoader.parse(TuningExperiment.yaml(backend.urls(),
                    "[ { name: workers, path: /admin/knobs, min: 1, max: 32 } ]", QUEUE_TIMEOUT, "restarts"),
                    "tuning-workloads"), true)) {
                ControlLoop rm = sys.controlLoop();
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (rm.tuner() == null && System.nanoTime() < deadline) {
                    Thread.sleep(50); // polled with a deadline: the tuner exists after the first control cycle
                }
                TuningExperiment.command(rm, ControlMessage.TUNING_STOP); // the sweep sets the pools by hand
                long t0 = System.nanoTime();
                ScheduledExecutorService sampler = TuningExperiment.sampleSides(rm, series, t0);
                try {
                    load(sys, BROWSE, quick ? 20 : 40, 99); // warm-up (JIT, connections): not measured
                    for (Workload w : List.of(BROWSE, ORDER)) {
                        sweep.put(w.name(), sweep(sys, backend, w, series, t0, point));
                    }
                    // the tuner: both sides on browse's best, then order; then the load turns to browse
                    int start = best(sweep.get(BROWSE.name()));
                    for (ServerKnobs k : backend.knobs()) {
                        k.workers(start);
                    }
                    tune(sys, backend, series, t0, tuneSeconds, trialsByWorkload, tunedWorkers, tunedUtility);
                } finally {
                    sampler.shutdownNow();
                }
            }
        }
        int bestBrowse = best(sweep.get(BROWSE.name()));
        int bestOrder = best(sweep.get(ORDER.name()));
        double lossBrowse = loss(sweep.get(BROWSE.name()), bestBrowse, bestOrder);
        double lossOrder = loss(sweep.get(ORDER.name()), bestOrder, bestBrowse);
        int single = singleBest(sweep, bestBrowse, bestOrder);
        double singleLoss = worstLoss(sweep, bestBrowse, bestOrder, single);
        String line = String.format(Locale.ROOT,
                "workloads browse-best %d order-best %d cross-loss %.3f %.3f single-best %d its-worst-loss %.3f tuned %d %d",
                bestBrowse, bestOrder, lossBrowse, lossOrder, single, singleLoss, tunedWorkers.get(BROWSE.name()),
                tunedWorkers.get(ORDER.name()));
        Path dir = out.resolve("tuning");
        Files.createDirectories(dir);
        ResultsFile.write(dir.resolve(quick ? "WORKLOADS-short.md" : "WORKLOADS.md"),
                report(command, sweep, trialsByWorkload, tunedWorkers, tunedUtility, series, line, point, tuneSeconds));
        return List.of(line);
    }

    /**
     * One workload's sweep: each pool size of {@link #SWEEP}, two at a time (one per server), its utility measured after
     * 4 s. The overloaded end of each sweep goes last, so that its backlog cannot spill into a good point: browse from
     * the largest pool down, order from the smallest up.
     */
    private Map<Integer, Double> sweep(RunningSystem sys, BackendServer backend, Workload w, List<double[]> series, long t0, int point)
            throws Exception {
        Map<Integer, Double> u = new TreeMap<>();
        int[] order = SWEEP.clone();
        if (w == BROWSE) {
            for (int i = 0; i < order.length / 2; i++) {
                int t = order[i];
                order[i] = order[order.length - 1 - i];
                order[order.length - 1 - i] = t;
            }
        }
        for (int i = 0; i < order.length; i += 2) {
            int a = order[i];
            int b = order[Math.min(i + 1, order.length - 1)];
            backend.knobs().get(0).workers(a);
            backend.knobs().get(1).workers(b);
            double from = (System.nanoTime() - t0) / 1e9;
            load(sys, w, point, 100 + i);
            u.put(a, mean(series, from + 4, from + point, 1));
            u.put(b, mean(series, from + 4, from + point, 2));
            log.printf(Locale.ROOT, "tuning --workloads: %s workers %d -> %.3f, %d -> %.3f%n", w.name(), a, u.get(a), b, u.get(b));
        }
        return u;
    }

    /** The tuner on order, then on browse, each for {@code tuneSeconds}: its trials, where it left the pool, the utility then. */
    private void tune(RunningSystem sys, BackendServer backend, List<double[]> series, long t0, int tuneSeconds,
                      Map<String, List<Tuner.Trial>> trialsByWorkload, Map<String, Integer> tunedWorkers,
                      Map<String, Double> tunedUtility) throws Exception {
        ControlLoop rm = sys.controlLoop();
        int before = 0;
        for (Workload w : List.of(ORDER, BROWSE)) {
            TuningExperiment.command(rm, ControlMessage.TUNING_START);
            double from = (System.nanoTime() - t0) / 1e9;
            load(sys, w, tuneSeconds, 200 + before);
            List<Tuner.Trial> all = rm.tuner().trials();
            trialsByWorkload.put(w.name(), all.subList(before, all.size()));
            before = all.size();
            tunedWorkers.put(w.name(), backend.knobs().get(0).workers());
            tunedUtility.put(w.name(), mean(series, from + tuneSeconds - 30, from + tuneSeconds, 1));
            TuningExperiment.command(rm, ControlMessage.TUNING_STOP);
        }
    }

    /** The one pool size for both workloads: the smallest worst relative loss against each workload's own best. */
    private static int singleBest(Map<String, Map<Integer, Double>> sweep, int bestBrowse, int bestOrder) {
        int single = -1;
        double singleLoss = Double.POSITIVE_INFINITY;
        for (int w : SWEEP) {
            double worst = worstLoss(sweep, bestBrowse, bestOrder, w);
            if (worst < singleLoss) {
                singleLoss = worst;
                single = w;
            }
        }
        return single;
    }

    private static double worstLoss(Map<String, Map<Integer, Double>> sweep, int bestBrowse, int bestOrder, int workers) {
        return Math.max(loss(sweep.get(BROWSE.name()), bestBrowse, workers), loss(sweep.get(ORDER.name()), bestOrder, workers));
    }

    private void load(RunningSystem sys, Workload w, int seconds, long seed) throws Exception {
        LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", null,
                List.of(new LoadSpec.ClassSpec("premium", w.operation(), ExperimentSetup.PREMIUM_USER, false, Duration.ofMillis(150)),
                        new LoadSpec.ClassSpec("basic", w.operation(), ExperimentSetup.BASIC_USER, false, Duration.ofMillis(250))),
                List.of(new LoadSpec.Phase(Duration.ofSeconds(seconds), List.of(w.rate() / 2, w.rate() / 2))), true, Duration.ZERO,
                Duration.ZERO, seed, Duration.ofSeconds(30), null);
        new LoadGenerator(spec, null).run();
    }

    /** The pool size of the highest measured utility (the smaller on a tie). */
    private static int best(Map<Integer, Double> u) {
        int best = -1;
        for (Map.Entry<Integer, Double> e : u.entrySet()) {
            if (Double.isFinite(e.getValue()) && (best < 0 || e.getValue() > u.get(best))) {
                best = e.getKey();
            }
        }
        return best;
    }

    /** What running {@code other} costs a workload whose best is {@code best}, as a share of its best utility. */
    private static double loss(Map<Integer, Double> u, int best, int other) {
        double b = u.get(best);
        double o = u.getOrDefault(other, Double.NaN);
        return (b - o) / Math.abs(b);
    }

    private static double mean(List<double[]> series, double from, double to, int col) {
        return TuningExperiment.mean(series, from, to, col);
    }

    private static String report(String command, Map<String, Map<Integer, Double>> sweep, Map<String, List<Tuner.Trial>> trials,
                                 Map<String, Integer> tuned, Map<String, Double> tunedU, List<double[]> series, String line,
                                 int point, int tuneSeconds) {
        StringBuilder md = new StringBuilder("# Experiment tuning --workloads — no single configuration for every workload\n\n");
        md.append("Produced by `").append(command).append("` on ").append(Experiments.cores()).append(", ")
                .append(LocalDate.now()).append(".\n\n");
        md.append(String.format(Locale.ROOT, """
                Active Harmony's finding (Chung & Hollingsworth, §III-B: the best configuration for the browsing mix is not the one
                for the ordering mix), on slagate. Two servers of the synthetic StockUtility service, the safe side `s1` and the
                experimental side `s2`, each class's requests split half and half between them (open-loop Poisson arrivals, premium
                and basic at equal rates, targets 150 ms and 250 ms, utility: the min over the classes of eq. 7 on what was
                measured). `getQuote` is a 50 ms read that takes no lock; `buyShares` a 20 ms write whose writers contend past %d
                executing at once (each then takes (1 + ((n - %d)/%d)^2) longer, as lock contention stretches a database's writes).
                Workload **browse**: reads only, %.0f requests/s; **order**: writes only, %.0f requests/s. A request waits at most
                %s in the gateway's queue (then it is shed with its fault), so that an overloaded configuration's backlog does not
                outlive it. Before the sweep, an unmeasured warm-up under browse.

                The sweep sets the servers' worker pools by hand (two sizes at once, one a side, %d s each, the first 4 s not
                measured; browse from the largest pool down and order from the smallest up, so that an overloaded point's
                backlog comes last): each workload's best is found by brute force, and what the other workload's best costs it. Then the
                tuner (Nelder-Mead over the worker pool, restarted from a random pool every 5 trials: under order every pool
                above 10 collapses alike, a plateau a simplex cannot leave once each failure is charged; 8 s periods after 2 s
                to settle, promoted at +0.01, aborted at -0.3)
                starts with both sides on browse's best and runs %d s under order, then %d s under browse (it starts again from
                where order left it).

                """, WRITE_KNEE, WRITE_KNEE, WRITE_KNEE, BROWSE_RATE, ORDER_RATE, QUEUE_TIMEOUT, point, tuneSeconds, tuneSeconds));
        md.append("| workers | browse U | order U |\n|---:|---:|---:|\n");
        for (int w : SWEEP) {
            md.append(String.format(Locale.ROOT, "| %d | %.3f | %.3f |%n", w, sweep.get("browse").getOrDefault(w, Double.NaN),
                    sweep.get("order").getOrDefault(w, Double.NaN)));
        }
        for (Map.Entry<String, List<Tuner.Trial>> e : trials.entrySet()) {
            md.append(String.format(Locale.ROOT, "%n### The tuner under %s: %d trials, the safe side ends on %d workers "
                    + "(its utility over the last 30 s: %.3f)%n%n| trial | workers | experimental U | safe U | outcome |%n|---:|---:|---:|---:|---|%n",
                    e.getKey(), e.getValue().size(), tuned.get(e.getKey()), tunedU.get(e.getKey())));
            TuningExperiment.appendTrials(md, e.getValue(), 1);
        }
        TuningExperiment.appendSeries(md, series, line);
        return md.toString();
    }
}
