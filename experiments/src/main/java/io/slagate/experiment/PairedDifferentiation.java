package io.slagate.experiment;

import io.slagate.experiment.paper.ExperimentSetup;
import io.slagate.experiment.twin.PolicyComparison;
import io.slagate.experiment.twin.TwinExperiments;
import io.slagate.gateway.sched.Allocation;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.SecondSample;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Experiment B asked as paired protocols of the real system: per pair one seed, and on it the controller, the best
 * single static split (a) and the phase oracle (b), a static schedule switching to each phase's best split as the load
 * generator enters the phase. Every run starts a fresh gateway with the same warm-up (none) and is measured over the
 * same window (the last {@value #MEASURED} of each phase, as the twin measures); the order within a pair alternates
 * (controller first, then last: ABBA over pairs). The static splits are the twin's sweep's choices on the same set-up;
 * the real re-measurement that confirms them runs (a)'s neighbours on the first pairs' seeds.
 */
final class PairedDifferentiation {
    /** The share of each phase measured: its end (the start belongs to the change), as in the twin's scenarios. */
    static final double MEASURED = 0.6;
    private static final int SLOTS = 10;
    private static final int TWIN_SEEDS = 20;
    private static final long FIRST_SEED = 1000;

    /** One run: its policy, the seed, per phase the utility (eq. 7, min combining) over the measured window, the score. */
    record Run(String policy, long seed, double[] phaseUtility) {
        double score() {
            double s = 0;
            for (double u : phaseUtility) {
                s += u / phaseUtility.length;
            }
            return s;
        }
    }

    private final double scale;
    private final boolean quick;
    private final PrintStream log;
    private final int pairs;

    PairedDifferentiation(double scale, boolean quick, PrintStream log, int pairs) {
        if (pairs < 2) {
            throw new IllegalArgumentException("--pairs needs at least 2 for an interval: " + pairs);
        }
        this.scale = scale;
        this.quick = quick;
        this.log = log;
        this.pairs = pairs;
    }

    Duration phase() {
        return Duration.ofSeconds(quick ? 20 : 150);
    }

    /** The twin's choices, the pairs, the confirmation; writes PAIRED.md in {@code dir} and returns the closing line. */
    List<String> run(Path dir, String command) throws Exception {
        double phasePaperSeconds = phase().toNanos() / 1e9 / scale;
        PolicyComparison.Outcome twin = PolicyComparison.run(TwinExperiments.b(phasePaperSeconds), TWIN_SEEDS, 1,
                Runtime.getRuntime().availableProcessors());
        int a = premiumWeight(twin, twin.best());
        int[] oracle = new int[twin.phaseBest().length];
        for (int k = 0; k < oracle.length; k++) {
            oracle[k] = premiumWeight(twin, twin.phaseBest()[k]);
        }
        log.printf(Locale.ROOT, "B paired: the twin's best single split %d : %d, phase oracle %s%n", a, SLOTS - a, schedule(oracle));
        ExperimentSetup setup = new ExperimentSetup(scale, SLOTS, "wrr", 1);
        List<Run[]> runs = new ArrayList<>();
        List<Run> confirm = new ArrayList<>();
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(scale, Experiments.SLEEPY_CPU))) {
            String url = backend.urls().get(0);
            for (int i = 0; i < pairs; i++) {
                long seed = FIRST_SEED + i;
                Run[] pair = new Run[3];
                for (int step = 0; step < 3; step++) {
                    int which = i % 2 == 0 ? step : 2 - step; // controller, (a), (b); then (b), (a), controller
                    log.printf(Locale.ROOT, "B paired: pair %d/%d, %s%n", i + 1, pairs, POLICIES[which]);
                    pair[which] = switch (which) {
                        case 0 -> run(POLICIES[0], setup, url, seed, true, null);
                        case 1 -> run(POLICIES[1], setup, url, seed, false, constant(a, oracle.length));
                        default -> run(POLICIES[2], setup, url, seed, false, oracle);
                    };
                }
                runs.add(pair);
            }
            for (int w : new int[] {a - 1, a + 1}) {
                if (w >= 1 && w < SLOTS) {
                    log.printf(Locale.ROOT, "B paired: confirming (a) against %d : %d%n", w, SLOTS - w);
                    confirm.add(run(split(w), setup, url, FIRST_SEED, false, constant(w, oracle.length)));
                }
            }
        }
        PairedReport report = new PairedReport(twin, a, oracle, phase(), scale, runs, confirm);
        ResultsFile.write(dir.resolve("PAIRED.md"), report.markdown(command));
        return List.of(report.closingLine());
    }

    static final String[] POLICIES = {"controller", "best static (a)", "phase oracle (b)"};

    private static int[] constant(int w, int phases) {
        int[] s = new int[phases];
        java.util.Arrays.fill(s, w);
        return s;
    }

    static String split(int w) {
        return w + " : " + (SLOTS - w);
    }

    static String schedule(int[] weights) {
        StringBuilder sb = new StringBuilder();
        for (int w : weights) {
            sb.append(sb.length() == 0 ? "" : ", ").append(split(w));
        }
        return sb.toString();
    }

    private static int premiumWeight(PolicyComparison.Outcome twin, int candidate) {
        return (int) Math.round(twin.scenario().candidates().get(candidate)[0]);
    }

    /**
     * One run of B's four phases on a fresh system: with the controller, or static with premium's weight
     * {@code premiumWeights[k]} from the start of phase k.
     */
    private Run run(String policy, ExperimentSetup base, String url, long seed, boolean controller, int[] premiumWeights)
            throws Exception {
        ExperimentSetup setup = controller ? base : new ExperimentSetup(scale, SLOTS, "wrr", 1, "auto", premiumWeights[0]);
        try (RunningSystem sys = RunningSystem.start(setup.config(url), controller)) {
            List<LoadSpec.Phase> phases = new ArrayList<>();
            for (int[] m : DifferentiationExperiment.MIXES) {
                phases.add(new LoadSpec.Phase(phase(), List.of((double) m[0], (double) m[1])));
            }
            LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", sys.statsUrl(),
                    List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, setup.paper(2)),
                            new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, setup.paper(3))),
                    phases, false, setup.paper(1), Duration.ZERO, seed, Duration.ofMinutes(5), null);
            LoadGenerator g = new LoadGenerator(spec, null);
            if (!controller) {
                int[] caps = Allocation.fromConfig(sys.gateway().config()).caps();
                AtomicLong version = new AtomicLong();
                g.onPhase(k -> sys.gateway().setAllocation(new Allocation(version.incrementAndGet(),
                        new double[] {premiumWeights[k], SLOTS - premiumWeights[k]}, caps)));
            }
            g.run();
            return new Run(policy, seed, utilities(g.samples(), setup));
        }
    }

    /** Per phase, the worse class's target less its mean response time in paper-seconds over the measured window. */
    private double[] utilities(List<SecondSample> samples, ExperimentSetup setup) {
        int phases = DifferentiationExperiment.MIXES.length;
        double[] u = new double[phases];
        for (int k = 0; k < phases; k++) {
            Experiments.PhaseStats p = Experiments.PhaseStats.of(samples, k + 1, "premium", MEASURED);
            Experiments.PhaseStats b = Experiments.PhaseStats.of(samples, k + 1, "basic", MEASURED);
            u[k] = Math.min(setup.goal(2) - p.meanMs() / 1000 / scale, setup.goal(3) - b.meanMs() / 1000 / scale);
        }
        return u;
    }
}
