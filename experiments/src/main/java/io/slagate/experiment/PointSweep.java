package io.slagate.experiment;

import io.slagate.experiment.paper.ExperimentSetup;
import io.slagate.config.PercentileGoal;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.SecondSample;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.io.IOException;
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

/**
 * One point of experiment C measured against an empirical oracle ({@code experiment C --point L_P,L_B
 * --sweep}): on the same testbed and load, FCFS, static priority, the controller with each response-time
 * model, and the best static fractional weights found by a coarse-to-fine search of w_P (steps 1, 0.5,
 * 0.2, 0.1). The best static weights then run {@value #ROUNDS} times more, alternating with every controller
 * in ABBA order, and the oracle's utility is their mean, so that the maximum of many noisy runs does not inflate it.
 * The capture of a controller is (U_controller − U_FCFS) / (U_best − U_FCFS): the share of what better weights can
 * win over FCFS that the controller wins, on the rounds' means (each round's against the same round's static run is
 * listed beside it: a static round that falls to FCFS would otherwise decide the mean of the ratios).
 */
final class PointSweep {
    static final List<String> MODELS = List.of("mm1", "mmm", "closed", "auto");
    /** Below this gap between the oracle and FCFS the capture is not meaningful (the allocation hardly matters). */
    static final double MIN_GAP = 0.1;

    /**
     * What one run measured: each class's response time in paper-seconds (its mean, or with percentile
     * goals its goal percentile), U = min(U_P, U_B) on them, and each class's attainment (the share of
     * its answers within its goal threshold).
     */
    record Run(String name, double premiumSeconds, double basicSeconds, double utility, double premiumWeight, double modelError,
               double medianModelError, double premiumAttainment, double basicAttainment) {
        Run(String name, double premiumSeconds, double basicSeconds, double utility, double premiumWeight, double modelError) {
            this(name, premiumSeconds, basicSeconds, utility, premiumWeight, modelError, modelError, Double.NaN, Double.NaN);
        }
    }

    /** What the sweep found at its point: FCFS, the oracle and each model's controller (their means). */
    record Result(int lp, int lb, Run fcfs, Run oracle, Map<String, Run> controllers, List<String> lines) {
        double gap() {
            return oracle.utility() - fcfs.utility();
        }

        /** The capture of a model, or NaN where the gap is below {@link #MIN_GAP}. */
        double capture(String model) {
            return gap() < MIN_GAP ? Double.NaN : (controllers.get(model).utility() - fcfs.utility()) / gap();
        }
    }

    private final double scale;
    private final boolean quick;
    private final PrintStream log;
    private final int lp;
    private final int lb;
    /** The classes' goal percentile (e.g. 95), or 0 for the paper's mean targets. */
    private final double percentile;

    PointSweep(double scale, boolean quick, PrintStream log, int lp, int lb) {
        this(scale, quick, log, lp, lb, 0);
    }

    PointSweep(double scale, boolean quick, PrintStream log, int lp, int lb, double percentile) {
        this.percentile = percentile;
        this.scale = scale;
        this.quick = quick;
        this.log = log;
        this.lp = lp;
        this.lb = lb;
    }

    /** Runs everything; returns what it found (its result lines end with the capture of each model) and writes POINT-LP-LB.md to {@code dir}. */
    Result run(Path dir, String command) throws Exception {
        Files.createDirectories(dir);
        Duration settle = Duration.ofSeconds(quick ? 3 : 6);
        Duration settleController = Duration.ofSeconds(quick ? 8 : 15);
        Duration measure = Duration.ofSeconds(quick ? 12 : 30);
        List<Run> runs = new ArrayList<>();
        Map<String, Run> byName = new LinkedHashMap<>();
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(scale, Experiments.SLEEPY_CPU))) {
            String url = backend.urls().get(0);
            Run fcfs = measure("fcfs", setup("fcfs", 1, "auto", 5), url, false, settle, measure);
            Run priority = measure("priority", setup("priority", 1, "auto", 5), url, false, settle, measure);
            runs.add(fcfs);
            runs.add(priority);
            Oracle search = oracle(url, settle, measure, false);
            runs.addAll(search.tried());
            double bestWeight = search.best().premiumWeight();
            // then the best static weights and every controller, ROUNDS times in ABBA order (static first, the
            // controllers backward, static last, …), so that a drift over the sweep (JIT, heap, the backend) favours
            // neither side; one run's U moves by about 0.1 here from noise alone
            List<Run> statics = new ArrayList<>();
            Map<String, List<Run>> byModel = new LinkedHashMap<>();
            MODELS.forEach(m -> byModel.put(m, new ArrayList<>()));
            for (int round = 1; round <= ROUNDS; round++) {
                boolean forward = round % 2 == 1;
                if (forward) {
                    statics.add(staticRun(url, bestWeight, settle, measure, " (" + round + ")"));
                }
                for (int i = 0; i < MODELS.size(); i++) {
                    String model = MODELS.get(forward ? i : MODELS.size() - 1 - i);
                    byModel.get(model).add(measure("controller-" + model + " (" + round + ")", setup("wrr", 0.1, model, 5), url,
                            true, settleController, measure));
                }
                if (!forward) {
                    statics.add(staticRun(url, bestWeight, settle, measure, " (" + round + ")"));
                }
            }
            runs.addAll(statics);
            Run oracle = mean("best static (mean of " + ROUNDS + ")", statics);
            runs.add(oracle);
            for (String model : MODELS) {
                runs.addAll(byModel.get(model));
                byName.put(model, mean("controller-" + model + " (mean of " + ROUNDS + ")", byModel.get(model)));
            }
            runs.addAll(byName.values());
            return report(dir, command, runs, fcfs, oracle, byName, captures(fcfs, statics, byModel));
        }
    }

    /** Rounds of the best static weights against every controller, in ABBA order. */
    static final int ROUNDS = 3;

    /** Per model, each round's capture against the same round's best static run (the rounds are paired). */
    private static Map<String, double[]> captures(Run fcfs, List<Run> statics, Map<String, List<Run>> byModel) {
        Map<String, double[]> out = new LinkedHashMap<>();
        byModel.forEach((model, rs) -> {
            double[] c = new double[rs.size()];
            for (int i = 0; i < c.length; i++) {
                c[i] = (rs.get(i).utility() - fcfs.utility()) / (statics.get(i).utility() - fcfs.utility());
            }
            out.put(model, c);
        });
        return out;
    }

    /** The empirical oracle: every static run tried (the two re-measurements last) and the best's mean. */
    record Oracle(List<Run> tried, Run best) {
    }

    /**
     * Static fractional weights w_P : 10 − w_P searched coarse to fine (1, 3, 5, 7, 9, then steps 1, 0.5,
     * 0.2, 0.1 around the best); the best measured twice more, and the oracle's utility is the mean of
     * those two, so that the maximum of many noisy runs does not inflate it.
     */
    Oracle oracle(String url, Duration settle, Duration measure) throws Exception {
        return oracle(url, settle, measure, true);
    }

    /** The search; with {@code remeasure}, the best measured twice more and their mean the oracle, else the best found. */
    Oracle oracle(String url, Duration settle, Duration measure, boolean remeasure) throws Exception {
        Map<Double, Run> tried = new LinkedHashMap<>();
        double best = Double.NaN;
        for (double w : new double[] {1, 3, 5, 7, 9}) {
            best = better(tried, best, staticRun(url, w, settle, measure));
        }
        for (double step : new double[] {1, 0.5, 0.2, 0.1}) {
            double center = best;
            for (double w : new double[] {center - step, center + step}) {
                double rounded = Math.round(w * 10) / 10.0;
                if (rounded >= 0.5 && rounded <= 9.5 && !tried.containsKey(rounded)) {
                    best = better(tried, best, staticRun(url, rounded, settle, measure));
                }
            }
        }
        List<Run> all = new ArrayList<>(tried.values());
        if (!remeasure) {
            return new Oracle(all, tried.get(best));
        }
        Run again1 = staticRun(url, best, settle, measure);
        Run again2 = staticRun(url, best, settle, measure);
        all.add(again1);
        all.add(again2);
        return new Oracle(all, mean("best static (mean of two more runs)", again1, again2));
    }

    /** The oracle with this sweep's own run lengths. */
    Oracle oracle(String url) throws Exception {
        return oracle(url, Duration.ofSeconds(quick ? 3 : 6), Duration.ofSeconds(quick ? 12 : 30));
    }

    private static Run mean(String name, List<Run> rs) {
        double n = rs.size();
        return new Run(name, rs.stream().mapToDouble(Run::premiumSeconds).sum() / n, rs.stream().mapToDouble(Run::basicSeconds).sum() / n,
                rs.stream().mapToDouble(Run::utility).sum() / n, rs.stream().mapToDouble(Run::premiumWeight).sum() / n,
                rs.stream().mapToDouble(Run::modelError).sum() / n, rs.stream().mapToDouble(Run::medianModelError).sum() / n,
                rs.stream().mapToDouble(Run::premiumAttainment).sum() / n, rs.stream().mapToDouble(Run::basicAttainment).sum() / n);
    }

    private static Run mean(String name, Run a, Run b) {
        return new Run(name, (a.premiumSeconds() + b.premiumSeconds()) / 2, (a.basicSeconds() + b.basicSeconds()) / 2,
                (a.utility() + b.utility()) / 2, (a.premiumWeight() + b.premiumWeight()) / 2, (a.modelError() + b.modelError()) / 2,
                (a.medianModelError() + b.medianModelError()) / 2, (a.premiumAttainment() + b.premiumAttainment()) / 2,
                (a.basicAttainment() + b.basicAttainment()) / 2);
    }

    private double better(Map<Double, Run> tried, double best, Run r) {
        tried.put(r.premiumWeight(), r);
        return Double.isNaN(best) || r.utility() > tried.get(best).utility() ? r.premiumWeight() : best;
    }

    private Run staticRun(String url, double premiumWeight, Duration settle, Duration measure) throws Exception {
        return staticRun(url, premiumWeight, settle, measure, "");
    }

    private Run staticRun(String url, double premiumWeight, Duration settle, Duration measure, String suffix) throws Exception {
        return measure(String.format(Locale.ROOT, "static %.1f : %.1f%s", premiumWeight, 10 - premiumWeight, suffix),
                setup("wrr", 0.1, "auto", premiumWeight), url, false, settle, measure);
    }

    private ExperimentSetup setup(String scheduler, double resolution, String model, double premiumWeight) {
        return new ExperimentSetup(scale, 10, scheduler, resolution, model, premiumWeight, percentile);
    }

    /** The goal statistic of a class's answers in paper-seconds, and the share within its goal (µs histogram). */
    private double[] goalFigures(org.HdrHistogram.Histogram h, double goalPaperSeconds) {
        if (h == null || h.getTotalCount() == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        long within = h.getCountBetweenValues(0, (long) (goalPaperSeconds * scale * 1e6));
        double stat = percentile > 0 ? h.getValueAtPercentile(percentile) / 1e6 / scale : h.getMean() / 1e6 / scale;
        return new double[] {stat, (double) within / h.getTotalCount()};
    }

    private Run measure(String name, ExperimentSetup setup, String url, boolean controller, Duration settle, Duration measure)
            throws Exception {
        try (RunningSystem sys = RunningSystem.start(setup.config(url), controller)) {
            LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", sys.statsUrl(),
                    List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, setup.paper(2)),
                            new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, setup.paper(3))),
                    List.of(new LoadSpec.Phase(settle.plus(measure), List.of((double) lp, (double) lb))), false, setup.paper(1),
                    settle, 7, Duration.ofMinutes(5), null);
            LoadGenerator g = new LoadGenerator(spec, null);
            double modelError;
            double medianError;
            try (ModelErrorProbe probe = new ModelErrorProbe(sys::lastDecision, System.currentTimeMillis() + settle.toMillis())) {
                g.run();
                modelError = controller ? probe.meanError() : Double.NaN;
                medianError = controller ? probe.medianError() : Double.NaN;
            }
            List<SecondSample> samples = g.samples();
            double keep = (double) measure.toSeconds() / settle.plus(measure).toSeconds();
            double tP = Experiments.PhaseStats.of(samples, 1, "premium", keep).meanMs() / 1000 / scale;
            double tB = Experiments.PhaseStats.of(samples, 1, "basic", keep).meanMs() / 1000 / scale;
            double w = controller ? Experiments.PhaseStats.of(samples, 1, "premium", keep).weight() : setup.premiumWeight();
            double[] premium = goalFigures(g.measured("premium"), setup.goal(2));
            double[] basic = goalFigures(g.measured("basic"), setup.goal(3));
            if (percentile > 0) { // U on the goal percentile, each against its own threshold
                tP = premium[0];
                tB = basic[0];
            }
            Run r = new Run(name, tP, tB, Math.min(setup.goal(2) - tP, setup.goal(3) - tB), w, modelError, medianError,
                    premium[1], basic[1]);
            log.printf(Locale.ROOT, "C point (%d,%d) %s: t_P %.2f, t_B %.2f, U %.3f%s%n", lp, lb, name, tP, tB, r.utility(),
                    controller ? String.format(Locale.ROOT, ", model error mean %.0f%%, median %.0f%%", 100 * modelError, 100 * medianError) : "");
            return r;
        }
    }

    private Result report(Path dir, String command, List<Run> runs, Run fcfs, Run oracle, Map<String, Run> controllers,
                          Map<String, double[]> captures) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("# Experiment C, point (L_P, L_B) = (").append(lp).append(", ").append(lb).append(") against an empirical oracle")
                .append(percentile > 0 ? ", p" + goalNumber() + " goals" : "").append("\n\n");
        md.append("Produced by `").append(command).append("` on ").append(Experiments.cores())
                .append(", ").append(LocalDate.now()).append(". Scale ").append(scale)
                .append(percentile > 0
                        ? "; N_s = 10; goals p" + goalNumber() + " ≤ " + fmt(ExperimentSetup.PERCENTILE_TARGET_FACTOR * 2) + " (premium) and ≤ "
                        + fmt(ExperimentSetup.PERCENTILE_TARGET_FACTOR * 3) + " (basic) paper-seconds; U = min(U_P, U_B) of eq. 7 on each "
                        + "class's measured p" + goalNumber() + " (t_P, t_B below) against its threshold; the controller with "
                        : "; N_s = 10; τ_P = 2, τ_B = 3; U = min(U_P, U_B); response times in paper-seconds; the controller with ")
                .append("weight resolution 0.1 and each model; static weights w_P : 10 − w_P searched coarse to fine, the best ")
                .append("then run " + ROUNDS + " times more against every controller in ABBA order (static, controllers forward; controllers "
                        + "backward, static; …); the oracle and each controller are the means of those rounds, and a model's capture "
                        + "is its mean gain over FCFS against the oracle's; each round's against the same round's static run is "
                        + "listed beside it.\n\n");
        md.append("Attainment: the share of a class's answers (measured part) within its goal threshold.\n\n");
        md.append("| run | w_P | t_P | t_B | U | attainment P / B | model error (mean / median) |\n|---|---:|---:|---:|---:|---:|---:|\n");
        for (Run r : runs) {
            md.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %.3f | %s / %s | %s |%n", r.name(), r.premiumWeight(),
                    r.premiumSeconds(), r.basicSeconds(), r.utility(), share(r.premiumAttainment()), share(r.basicAttainment()),
                    errors(r)));
        }
        double gap = oracle.utility() - fcfs.utility();
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "fcfs %.3f best-static %.3f (w_P %.1f)", fcfs.utility(), oracle.utility(),
                oracle.premiumWeight()));
        md.append(String.format(Locale.ROOT, "%nU_best − U_FCFS = %.3f%s%n%n", gap,
                gap < MIN_GAP ? " (below " + MIN_GAP + ": the allocation hardly matters here; capture not meaningful)" : ""));
        md.append("The model error is the resource manager's own |predicted − measured| / measured for the share in force, ")
                .append("per decision averaged over both flows, then the mean and the median over the decisions of the measured ")
                .append("part of each run (a few blown-up predictions dominate a mean).\n\n");
        md.append("| model | U | capture | model error (mean / median) |\n|---|---:|---:|---:|\n");
        for (Map.Entry<String, Run> e : controllers.entrySet()) {
            lines.add("model-error " + e.getKey() + " mean " + percent(e.getValue().modelError()) + " median "
                    + percent(e.getValue().medianModelError()));
        }
        Result result = new Result(lp, lb, fcfs, oracle, controllers, lines);
        for (Map.Entry<String, Run> e : controllers.entrySet()) {
            double[] each = captures.get(e.getKey());
            // the rounds' mean gain over the oracle's mean gain: one round whose static run falls to FCFS (a denominator
            // near zero or below it) would decide a mean of the per-round ratios, which are listed beside it
            String c = gap < MIN_GAP ? "n/a" : String.format(Locale.ROOT, "%.2f", result.capture(e.getKey()));
            md.append(String.format(Locale.ROOT, "| %s | %.3f | %s | %s |%n", e.getKey(), e.getValue().utility(), c,
                    errors(e.getValue())));
            lines.add("capture " + e.getKey() + " " + c + (gap < MIN_GAP ? "" : " (of the rounds' means; each round " + list(each) + ")"));
        }
        if (percentile > 0) {
            lines.add("attainment best-static premium " + share(oracle.premiumAttainment()) + " basic " + share(oracle.basicAttainment()));
            for (Map.Entry<String, Run> e : controllers.entrySet()) {
                lines.add("attainment " + e.getKey() + " premium " + share(e.getValue().premiumAttainment()) + " basic "
                        + share(e.getValue().basicAttainment()));
            }
        }
        ResultsFile.write(dir.resolve("POINT-" + lp + "-" + lb + (percentile > 0 ? "-p" + goalNumber() : "") + ".md"), md);
        return result;
    }

    private static String list(double[] v) {
        StringBuilder s = new StringBuilder();
        for (double x : v) {
            s.append(s.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", x));
        }
        return s.toString();
    }

    private static String errors(Run r) {
        return Double.isFinite(r.modelError()) ? percent(r.modelError()) + " / " + percent(r.medianModelError()) : "–";
    }

    private String goalNumber() {
        return new PercentileGoal(percentile, Duration.ZERO).key().substring(1);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** A share to three decimals, or – where nothing was measured. */
    static String share(double fraction) {
        return Double.isFinite(fraction) ? String.format(Locale.ROOT, "%.3f", fraction) : "–";
    }

    static String percent(double fraction) {
        return Double.isFinite(fraction) ? String.format(Locale.ROOT, "%.0f%%", 100 * fraction) : "–";
    }
}
