package io.slagate.experiment;

import io.slagate.experiment.paper.GapNoise;
import io.slagate.experiment.paper.ExperimentSetup;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.SecondSample;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Experiment B (Figs. 8–12): the paper's four phases under the controller as shipped. With {@code --sweep}, the
 * controller runs twice with the best static weights of every phase searched between the two runs (on the same
 * backend, so a drift over the run does not favour either side), and each run's settling is counted against the
 * phase's best static weight, cycle by cycle, from the manager's own decisions.
 */
final class DifferentiationExperiment {
    static final int[][] MIXES = {{5, 5}, {20, 20}, {5, 20}, {20, 5}};
    private static final String[] NAMES = {"Φ_A", "Φ_B", "Φ_C", "Φ_D"};

    /** One controller run: the per-second samples, the manager's decisions, when the load started, what was answered. */
    record Run(List<SecondSample> samples, List<DecisionTrace.Point> trace, long startMillis, Summary summary) {
    }

    /** The utility gap to the best static weights a controller is asked to stay within, per phase. */
    static final double GAP_GOAL = 0.05;

    /** Settling and utility of one phase of one run against the phase's best static weights. */
    record PhaseScore(int cycles, double gap, int cyclesNearAsGood) {
    }

    private final double scale;
    private final boolean quick;
    private final PrintStream log;
    private final double resolution;

    DifferentiationExperiment(double scale, boolean quick, PrintStream log, double resolution) {
        this.scale = scale;
        this.quick = quick;
        this.log = log;
        this.resolution = resolution;
    }

    Duration phase() {
        return Duration.ofSeconds(quick ? 25 : 150);
    }

    /** Runs B (twice with the oracle between when {@code sweep}) and writes RESULTS.md; the closing line when swept. */
    List<String> run(Path dir, String command, boolean sweep) throws Exception {
        ExperimentSetup setup = new ExperimentSetup(scale, 10, "wrr", resolution);
        List<Run> runs = new ArrayList<>();
        PointSweep.Run[] oracle = new PointSweep.Run[MIXES.length];
        PointSweep.Oracle[] searches = new PointSweep.Oracle[MIXES.length];
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(scale, Experiments.SLEEPY_CPU))) {
            runs.add(controllerRun(setup, backend.urls().get(0), dir));
            if (sweep) {
                for (int p = 0; p < MIXES.length; p++) {
                    log.printf(Locale.ROOT, "B: phase %d (%d,%d) against the oracle%n", p + 1, MIXES[p][0], MIXES[p][1]);
                    searches[p] = new PointSweep(scale, quick, log, MIXES[p][0], MIXES[p][1]).oracle(backend.urls().get(0));
                    oracle[p] = searches[p].best();
                }
                runs.add(controllerRun(setup, backend.urls().get(0), dir.resolve("run-2")));
            }
        }
        utilityChart(runs.get(0).samples(), dir.resolve("utility.png"));
        StringBuilder md = ResultsFile.header("Experiment B — service differentiation over four phases (Figs. 8–12)", command);
        double cycleSeconds = setup.paper(5).toMillis() / 1000.0;
        md.append(String.format(Locale.ROOT, "Scale %.3f (1 paper-second = %.0f ms); phases of %d s; N_s = 10; τ_P = 2, τ_B = 3 "
                        + "paper-seconds; min combining; weight resolution %s; service %s CPU; the controller as shipped (damping, "
                        + "window, model: defaults). Averages over the last 40%% of each phase, in paper units (seconds ÷ scale); a "
                        + "control cycle is %.2f s.%n%n", scale, scale * 1000, phase().toSeconds(), resolution,
                Experiments.pct(Experiments.SLEEPY_CPU), cycleSeconds));
        List<PhaseScore> scores = new ArrayList<>();
        for (int r = 0; r < runs.size(); r++) {
            Run run = runs.get(r);
            md.append("### Run ").append(r + 1).append("\n\n");
            phaseTable(md, run.samples());
            md.append(String.format(Locale.ROOT, "%nRequests sent %d, answered %d, lost %d.%n%n", run.summary().sent(),
                    run.summary().answered(), run.summary().lost()));
            if (sweep) {
                scores.addAll(settlingTable(md, run, searches, r + 1));
            }
        }
        List<String> lines = new ArrayList<>();
        if (sweep) {
            md.append(settlingNote());
            staticRunsTable(md, searches);
            lines.addAll(closingLines(md, scores, searches));
        }
        md.append("![weights](weights.png)\n![response time](response-time.png)\n![queues](queues.png)\n"
                + "![throughput](throughput.png)\n![utility](utility.png)\n");
        ResultsFile.write(dir.resolve("RESULTS.md"), md);
        return lines;
    }

    private Run controllerRun(ExperimentSetup setup, String backendUrl, Path charts) throws Exception {
        try (RunningSystem sys = RunningSystem.start(setup.config(backendUrl), true);
             DecisionTrace trace = new DecisionTrace(sys::lastDecision, "premium", 10)) {
            List<LoadSpec.Phase> phases = new ArrayList<>();
            for (int[] m : MIXES) {
                phases.add(new LoadSpec.Phase(phase(), List.of((double) m[0], (double) m[1])));
            }
            LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", sys.statsUrl(),
                    List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, setup.paper(2)),
                            new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, setup.paper(3))),
                    phases, false, setup.paper(1), Duration.ZERO, 42, Duration.ofMinutes(5), charts);
            LoadGenerator g = new LoadGenerator(spec, log);
            long start = System.currentTimeMillis();
            Summary summary = g.run();
            Files.createDirectories(charts);
            Files.writeString(charts.resolve("decisions.csv"), trace.csv());
            return new Run(g.samples(), trace.points(), start, summary);
        }
    }

    /** Experiment B's table per phase: weights, response times, utilities, queues and throughput in paper units. */
    private void phaseTable(StringBuilder md, List<SecondSample> samples) {
        md.append("| phase | (L_P, L_B) | w_P : w_B | t_P | t_B | U_P | U_B | queue P / B | throughput P / B per paper-s |\n")
                .append("|---|---|---|---:|---:|---:|---:|---|---|\n");
        for (int p = 0; p < MIXES.length; p++) {
            Experiments.PhaseStats sp = Experiments.PhaseStats.of(samples, p + 1, "premium", 0.4);
            Experiments.PhaseStats sb = Experiments.PhaseStats.of(samples, p + 1, "basic", 0.4);
            double tP = sp.meanMs() / 1000 / scale;
            double tB = sb.meanMs() / 1000 / scale;
            md.append(String.format(Locale.ROOT, "| %s | (%d, %d) | %.1f : %.1f | %.2f | %.2f | %.2f | %.2f | %.1f / %.1f | %.2f / %.2f |%n",
                    NAMES[p], MIXES[p][0], MIXES[p][1], sp.weight(), sb.weight(), tP, tB, 2 - tP, 3 - tB, sp.queue(), sb.queue(),
                    sp.throughput() * scale, sb.throughput() * scale));
        }
    }

    /**
     * The closing lines over every run's phases (settling against the best and near an as-good weight, and how much of
     * a gap of {@value #GAP_GOAL} the measurement's noise alone decides: {@link GapNoise}), also in md.
     */
    private static List<String> closingLines(StringBuilder md, List<PhaseScore> scores, PointSweep.Oracle[] searches) {
        List<String> lines = new ArrayList<>();
        int max = scores.stream().mapToInt(s -> s.cycles() < 0 ? Integer.MAX_VALUE : s.cycles()).max().orElse(-1);
        double mean = scores.stream().mapToInt(s -> s.cycles() < 0 ? Integer.MAX_VALUE : s.cycles()).average().orElse(Double.NaN);
        double gap = scores.stream().mapToDouble(PhaseScore::gap).min().orElse(Double.NaN);
        String line = max == Integer.MAX_VALUE
                ? String.format(Locale.ROOT, "settle cycles-after-change max never mean never utility-gap-to-best-static min %.3f", gap)
                : String.format(Locale.ROOT, "settle cycles-after-change max %d mean %.1f utility-gap-to-best-static min %.3f",
                max, mean, gap);
        md.append("\n`").append(line).append("` (over both runs' four phases)\n\n");
        lines.add(line);
        int nearMax = scores.stream().mapToInt(x -> x.cyclesNearAsGood() < 0 ? Integer.MAX_VALUE : x.cyclesNearAsGood()).max().orElse(-1);
        String nearLine = nearMax == Integer.MAX_VALUE ? "settle-near-as-good cycles-after-change max never"
                : String.format(Locale.ROOT, "settle-near-as-good cycles-after-change max %d mean %.1f", nearMax,
                scores.stream().mapToInt(PhaseScore::cyclesNearAsGood).average().orElse(Double.NaN));
        md.append("`").append(nearLine).append("` (the same band around the nearest weight as good as the best, as far as "
                + "the search's noise tells)\n\n");
        lines.add(nearLine);
        double sd = GapNoise.oneRunSd(Stream.of(searches).map(DifferentiationExperiment::remeasured).toList());
        double chance = GapNoise.chanceEqualMeets(sd, searches.length, scores.size() / searches.length, GAP_GOAL, 100_000, 1);
        String ownLine = String.format(Locale.ROOT, "noise one-run-utility-sd %.3f chance-best-static-weights-meet-gap %.2f %.2f", sd,
                -GAP_GOAL, chance);
        md.append("`").append(ownLine).append("` (σ pooled from each phase's best static weights run twice more; the chance "
                + "that a controller holding exactly those weights reads a gap of at least −").append(GAP_GOAL)
                .append(" in every phase of every run, its phase measured once against the mean of two: what the noise "
                        + "alone leaves of that goal)\n\n");
        lines.add(ownLine);
        double[] m = GapNoise.meanWithInterval(scores.stream().mapToDouble(PhaseScore::gap).toArray());
        String meanLine = String.format(Locale.ROOT, "utility-gap-to-best-static mean %.3f ci95 %.3f..%.3f", m[0], m[0] - m[1],
                m[0] + m[1]);
        md.append("`").append(meanLine).append("` (the gap's mean over every phase of every run, with its 95% interval from "
                + "their scatter: the same question asked of the sweep, not of its unluckiest reading)\n\n");
        lines.add(meanLine);
        return lines;
    }

    /** Each phase's utility beside its best static weights', and the cycles until premium's weight settles near them. */
    private List<PhaseScore> settlingTable(StringBuilder md, Run run, PointSweep.Oracle[] searches, int number) {
        md.append("| phase | U_controller | U best static (w_P) | U_controller − U_best | band | settled after (cycles) "
                        + "| settled near an as-good weight (cycles) | w_P per cycle, first 12 |\n")
                .append("|---|---:|---:|---:|---|---:|---:|---|\n");
        List<PhaseScore> scores = new ArrayList<>();
        long phaseMillis = phase().toMillis();
        for (int p = 0; p < MIXES.length; p++) {
            Experiments.PhaseStats sp = Experiments.PhaseStats.of(run.samples(), p + 1, "premium", 0.4);
            Experiments.PhaseStats sb = Experiments.PhaseStats.of(run.samples(), p + 1, "basic", 0.4);
            double u = Math.min(2 - sp.meanMs() / 1000 / scale, 3 - sb.meanMs() / 1000 / scale);
            long from = run.startMillis() + p * phaseMillis;
            PointSweep.Run oracle = searches[p].best();
            double best = oracle.premiumWeight();
            double band = DecisionTrace.band(best);
            int cycles = DecisionTrace.settleCycles(run.trace(), from, from + phaseMillis, best, band);
            int near = DecisionTrace.settleCycles(run.trace(), from, from + phaseMillis, asGood(searches[p]), band);
            scores.add(new PhaseScore(cycles, u - oracle.utility(), near));
            md.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f (%.1f) | %+.3f | %.1f ± %.1f | %s | %s | %s |%n",
                    NAMES[p], u, oracle.utility(), best, u - oracle.utility(), best, band, cycles < 0 ? "never" : String.valueOf(cycles),
                    near < 0 ? "never" : String.valueOf(near), DecisionTrace.weights(run.trace(), from, from + phaseMillis, 12)));
            log.printf(Locale.ROOT, "B run %d %s controller %.3f best-static %.3f (w_P %.1f) settled %s cycles%n", number, NAMES[p], u,
                    oracle.utility(), best, cycles < 0 ? "never" : String.valueOf(cycles));
        }
        md.append('\n');
        return scores;
    }

    /** The utilities of the best's two re-measurements, the last two runs of its search. */
    private static double[] remeasured(PointSweep.Oracle search) {
        List<PointSweep.Run> tried = search.tried();
        return new double[] {tried.get(tried.size() - 2).utility(), tried.get(tried.size() - 1).utility()};
    }

    /** How far apart the best's two re-measurements read: the noise one run's utility carries. */
    private static double noise(PointSweep.Oracle search) {
        double[] two = remeasured(search);
        return Math.abs(two[0] - two[1]);
    }

    /**
     * The best's weight and those of the search's single runs that read within {@link #noise} of the best's mean,
     * ascending: as far as this run can tell, as good as the best.
     */
    static List<Double> asGood(PointSweep.Oracle search) {
        List<PointSweep.Run> tried = search.tried();
        double floor = search.best().utility() - noise(search);
        return Stream.concat(Stream.of(search.best().premiumWeight()), tried.subList(0, tried.size() - 2).stream()
                        .filter(r -> r.utility() >= floor).map(PointSweep.Run::premiumWeight))
                .distinct().sorted().toList();
    }

    /**
     * Every static weight the search ran per phase, with its utility, and the best's two re-measurements: how far apart
     * one weight's runs read is the noise any single phase's utility carries, and the weights within it of the best are
     * as good as the best as far as this run can tell.
     */
    private static void staticRunsTable(StringBuilder md, PointSweep.Oracle[] searches) {
        md.append("\nThe static runs of the search, per phase (w_P: U), and the best's two re-measurements; the weights whose one "
                + "run reads within the re-measurements' difference of the best's mean:\n\n")
                .append("| phase | static runs, by w_P | re-measured U₁, U₂ (|U₁ − U₂|) | within that of the best |\n")
                .append("|---|---|---|---|\n");
        for (int p = 0; p < MIXES.length; p++) {
            List<PointSweep.Run> tried = searches[p].tried();
            int n = tried.size();
            List<PointSweep.Run> search = tried.subList(0, n - 2).stream()
                    .sorted(Comparator.comparingDouble(PointSweep.Run::premiumWeight)).toList();
            StringBuilder runs = new StringBuilder();
            for (PointSweep.Run r : search) {
                runs.append(String.format(Locale.ROOT, "%s%.1f: %.3f", runs.length() == 0 ? "" : ", ", r.premiumWeight(), r.utility()));
            }
            StringBuilder near = new StringBuilder();
            for (double w : asGood(searches[p])) {
                near.append(String.format(Locale.ROOT, "%s%.1f", near.length() == 0 ? "" : " ", w));
            }
            double[] two = remeasured(searches[p]);
            md.append(String.format(Locale.ROOT, "| %s | %s | %.3f, %.3f (%.3f) | %s |%n", NAMES[p], runs, two[0], two[1],
                    noise(searches[p]), near));
        }
    }

    private static String settlingNote() {
        return "Settling: the control cycles from the first decision made after the phase changed (the first that can see "
                + "it; the report that first sees it comes within one reporting interval, also one cycle) until premium's "
                + "weight stays within ±max(1, 15%) of the phase's best static weight for the rest of the phase; 0: the "
                + "first decision already does. The best static weights are searched coarse to fine between the two runs "
                + "and their utility is the mean of two more runs at the best (PointSweep's oracle, on the same backend). "
                + "Where the optimum is flat (no queueing, as at (5, 5)) the best static weight is itself noise.\n";
    }

    private void utilityChart(List<SecondSample> samples, Path file) throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        Map<String, Double> target = Map.of("premium", 2.0, "basic", 3.0);
        for (String c : List.of("premium", "basic")) {
            XYSeries s = new XYSeries(c);
            for (SecondSample x : samples) {
                if (x.className().equals(c) && !Double.isNaN(x.meanMs())) {
                    s.add(x.second(), target.get(c) - x.meanMs() / 1000 / scale);
                }
            }
            data.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Utility per class (eq. 7, measured)", "time (s)", "U", data);
        chart.getXYPlot().addRangeMarker(new ValueMarker(0));
        System.setProperty("java.awt.headless", "true");
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 960, 420);
    }
}
