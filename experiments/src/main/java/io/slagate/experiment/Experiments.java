package io.slagate.experiment;

import io.slagate.experiment.paper.ExperimentSetup;
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
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The paper's section V experiments ({@code slagate experiment A|B|C}), time scaled so that each
 * takes about 15 minutes here ({@code --short}: a minute or two). Results, with the command that
 * produced them, go to {@code docs/experiments/NAME/}.
 */
public final class Experiments {
    /** Mostly sleeping service for B and C: the N_s slots behave as the independent servers the model assumes. */
    static final double SLEEPY_CPU = 0.02;
    /** CPU-heavy service for A: 2 cores / 20% CPU per request puts the knee near N_s = 10, as in Fig. 7. */
    static final double HEAVY_CPU = 0.2;

    private final double scale;
    private final boolean quick;
    private final Path out;
    private final PrintStream log;
    private final String command;
    private final double resolution;

    /**
     * @param resolution the controller's weight resolution: 1 as in the paper (integer weights), or
     *                   finer (e.g. 0.1), which the paper's section V-B names as its limit
     */
    public Experiments(double scale, boolean quick, Path out, PrintStream log, String command, double resolution) {
        this.resolution = resolution;
        this.scale = scale;
        this.quick = quick;
        this.out = out;
        this.log = log;
        this.command = command;
    }

    /** The saturated points of experiment C (the table), where the allocation decides the utility. */
    static final int[][] SATURATED = {{20, 20}, {15, 15}, {15, 10}, {20, 15}, {15, 20}};
    /** The time scale of a point against the oracle: finer than the grid's, so the oracle's many runs fit in minutes. */
    public static final double POINT_SCALE = 0.02;

    public List<String> run(String name) throws Exception {
        return run(name, false);
    }

    /** @param sweep for C: after the grid, each saturated point against the empirical oracle, with the capture in RESULTS.md */
    public List<String> run(String name, boolean sweep) throws Exception {
        if (sweep && !name.equalsIgnoreCase("B") && !name.equalsIgnoreCase("C")) {
            throw new IllegalArgumentException("--sweep is for experiments B and C");
        }
        switch (name.toUpperCase(Locale.ROOT)) {
            case "A" -> knee().concurrencyKnee(false);
            case "B" -> {
                return new DifferentiationExperiment(scale, quick, log, resolution)
                        .run(out.resolve(resolution == 1 ? "B" : "B-resolution-" + resolution), command, sweep);
            }
            case "C" -> utilityRegions(sweep);
            case "SLA" -> {
                return new SlaExperiment(quick, log).run(out, command);
            }
            case "SLOWDOWN" -> {
                return new SlowdownExperiment(quick, log).run(out, command);
            }
            case "AHEAD" -> {
                return new AheadExperiment(quick, log).run(out, command);
            }
            case "LOCALITY" -> {
                return new LocalityExperiment(quick, log).run(out, command);
            }
            case "TUNING" -> {
                return new TuningExperiment(quick, log).run(out, command);
            }
            case "CAPACITY" -> {
                return new CapacityExperiment(quick, log).run(out, command);
            }
            case "QUOTA" -> {
                return new QuotaExperiment(quick, log).run(out, command);
            }
            case "SCALE" -> {
                return new ScaleExperiment(quick, log).run(out, command);
            }
            default -> throw new IllegalArgumentException("unknown experiment " + name
                    + "; use A, B, C, sla, slowdown, ahead, locality, tuning, capacity, quota or scale");
        }
        return List.of();
    }

    /** The controller's own knobs tuned without a safe side, then the start and the tuned settings alternately. */
    public List<String> tuningController() throws Exception {
        return new ControllerTuningExperiment(quick, log).run(out, command);
    }

    /** Both tiers' defaults against what the tuner finds from them, under a load where the defaults cost. */
    public List<String> tuningTwoTier() throws Exception {
        return new TuningTwoTierExperiment(quick, log).run(out, command);
    }

    /** Each workload's best worker pool by brute force, and the tuner following a change of workload. */
    public List<String> tuningWorkloads() throws Exception {
        return new TuningWorkloadsExperiment(quick, log).run(out, command);
    }

    /**
     * Experiment B as paired protocols: the controller against the best single static split and against the phase oracle,
     * {@code pairs} seeds, each on all three (see {@link PairedDifferentiation}); the closing line.
     */
    public List<String> pairedB(int pairs) throws Exception {
        return new PairedDifferentiation(scale, quick, log, pairs).run(out.resolve("B"), command);
    }

    /** Experiment C at one point against the empirical oracle; the result lines, captures last. */
    public List<String> point(int lp, int lb) throws Exception {
        return point(lp, lb, 0);
    }

    /** The same with percentile goals (p95 ≤ 2.5× the paper's mean targets) when {@code percentile} > 0. */
    public List<String> point(int lp, int lb, double percentile) throws Exception {
        if (lp < 1 || lb < 1 || lp > 200 || lb > 200) {
            throw new IllegalArgumentException("--point takes client counts from 1 to 200");
        }
        if (percentile < 0 || percentile >= 100) {
            throw new IllegalArgumentException("--percentile takes a percentile in (0, 100), e.g. 95");
        }
        return new PointSweep(scale, quick, log, lp, lb, percentile).run(out.resolve("C"), command).lines();
    }

    private LoadSpec.ClassSpec premium(ExperimentSetup s) {
        return new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, s.paper(2));
    }

    private LoadSpec.ClassSpec basic(ExperimentSetup s) {
        return new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, s.paper(3));
    }

    // ---------------------------------------------------------------- A: throughput against N_s (Fig. 7)

    /**
     * Experiment A, then {@code concurrency: auto} on the same backend from N_s = 1 and from N_s = 200:
     * what it settles on beside the knee measured with static N_s. Ends with the line
     * {@code knee K auto N} (from 1) and {@code knee K auto-from-200 N}.
     */
    /** Experiment A and {@code concurrency: auto} on its backends ({@link KneeExperiment}). */
    private KneeExperiment knee() {
        return new KneeExperiment(scale, quick, out, log, this::header);
    }

    public List<String> kneeWithAuto() throws Exception {
        return knee().kneeWithAuto();
    }

    public List<String> steadyAuto() throws Exception {
        return knee().steadyAuto();
    }

    // ---------------------------------------------------------------- C: utility regions (Figs. 13-15)

    private void utilityRegions(boolean sweep) throws Exception {
        Path dir = out.resolve("C");
        Files.createDirectories(dir);
        int[] grid = quick ? new int[] {5, 20} : new int[] {5, 10, 15, 20};
        Duration settle = Duration.ofSeconds(quick ? 4 : 5);
        Duration measure = Duration.ofSeconds(quick ? 5 : 13);
        String[][] modes = {{"fcfs", "fcfs"}, {"priority", "priority"}, {"controller", "wrr", "1"},
                {"controller-fractional", "wrr", "0.1"}};
        List<String> csv = new ArrayList<>(List.of("mode,l_p,l_b,t_p,t_b,u_p,u_b,u"));
        StringBuilder md = header("C — utility regions (Figs. 13–15)");
        md.append(String.format(Locale.ROOT, "Scale %.3f; each point %d s to settle then %d s measured; N_s = 10; τ_P = 2, τ_B = 3; "
                + "U = min(U_P, U_B) with eq. 7, φ = α = β = 1; response times in paper-seconds.%n%n", scale,
                settle.toSeconds(), measure.toSeconds()));
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(scale, SLEEPY_CPU))) {
            for (String[] mode : modes) {
                ExperimentSetup setup = new ExperimentSetup(scale, 10, mode[1], mode.length > 2 ? Double.parseDouble(mode[2]) : 1);
                double[][] u = new double[grid.length][grid.length];
                List<SecondSample> samples;
                Path modeDir = dir.resolve(mode[0]);
                try (RunningSystem sys = RunningSystem.start(setup.config(backend.urls().get(0)), mode[0].startsWith("controller"))) {
                    List<LoadSpec.Phase> phases = new ArrayList<>();
                    for (int lp : grid) {
                        for (int lb : grid) {
                            phases.add(new LoadSpec.Phase(settle.plus(measure), List.of((double) lp, (double) lb)));
                        }
                    }
                    LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", sys.statsUrl(),
                            List.of(premium(setup), basic(setup)), phases, false, setup.paper(1), Duration.ZERO, 7,
                            Duration.ofMinutes(5), modeDir);
                    log.println("C: " + mode[0]);
                    LoadGenerator g = new LoadGenerator(spec, log);
                    g.run();
                    samples = g.samples();
                }
                regionTable(md, csv, mode[0], grid, u, samples, (double) measure.toSeconds() / settle.plus(measure).toSeconds());
                md.append("\nZero-utility contour: ").append(RegionReport.contour(grid, u)).append("\n\n");
                RegionReport.regionChart(mode[0], grid, u, dir.resolve(mode[0] + ".png"));
                md.append("![").append(mode[0]).append("](").append(mode[0]).append(".png)\n\n");
            }
        }
        Files.write(dir.resolve("utility-grid.csv"), csv);
        ResultsFile.write(dir.resolve("RESULTS.md"), md);
        if (sweep) {
            List<PointSweep.Result> points = new ArrayList<>();
            for (int[] p : SATURATED) {
                if (contains(grid, p[0]) && contains(grid, p[1])) {
                    log.printf(Locale.ROOT, "C: point (%d,%d) against the oracle%n", p[0], p[1]);
                    points.add(new PointSweep(POINT_SCALE, quick, log, p[0], p[1]).run(dir, command));
                    ResultsFile.write(dir.resolve("RESULTS.md"), md + RegionReport.captureSection(points));
                }
            }
        }
    }

    /** One mode's utility over the grid into {@code u}, as a table and as CSV rows; {@code keep}: the share of each point measured. */
    private void regionTable(StringBuilder md, List<String> csv, String mode, int[] grid, double[][] u, List<SecondSample> samples,
                             double keep) {
        int phase = 1;
        md.append("### ").append(mode).append("\n\n| L_P \\ L_B |");
        for (int lb : grid) {
            md.append(' ').append(lb).append(" |");
        }
        md.append("\n|---|").append("---:|".repeat(grid.length)).append('\n');
        for (int i = 0; i < grid.length; i++) {
            md.append("| **").append(grid[i]).append("** |");
            for (int j = 0; j < grid.length; j++) {
                PhaseStats p = PhaseStats.of(samples, phase++, "premium", keep);
                PhaseStats b = PhaseStats.of(samples, phase - 1, "basic", keep);
                double tP = p.meanMs / 1000 / scale;
                double tB = b.meanMs / 1000 / scale;
                double uP = 2 - tP;
                double uB = 3 - tB;
                u[i][j] = Math.min(uP, uB);
                csv.add(String.format(Locale.ROOT, "%s,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f", mode, grid[i], grid[j], tP, tB, uP, uB, u[i][j]));
                md.append(String.format(Locale.ROOT, " %.2f |", u[i][j]));
            }
            md.append('\n');
        }
    }

    private static boolean contains(int[] grid, int v) {
        return Arrays.stream(grid).anyMatch(g -> g == v);
    }

    /**
     * The line every experiment ends with: the corrected response-time predictions of its controllers that were not a
     * positive number (negative or non-finite before the floor), over every run it made.
     */
    public static String predictionsOutOfRangeLine() {
        return "predictions-out-of-range " + RunningSystem.predictionsOutOfRange();
    }

    /** "1 core" or "N cores": what this process may run on (taskset narrows it). */
    static String cores() {
        int n = Runtime.getRuntime().availableProcessors();
        return n == 1 ? "1 core" : n + " cores";
    }

    private StringBuilder header(String title) {
        StringBuilder md = new StringBuilder("# Experiment ").append(title).append("\n\n");
        md.append("Produced by `").append(command).append("` on ").append(Experiments.cores())
                .append(" (load generator, gateway, resource manager and the Axis2 backend share them), ")
                .append(LocalDate.now()).append(".\n\n");
        return md;
    }

    static String pct(double f) {
        return String.format(Locale.ROOT, "%.0f%%", f * 100);
    }

    /** One class's averages over the tail of one phase: completion-weighted mean response time, mean weight, queue, throughput. */
    record PhaseStats(double meanMs, double weight, double queue, double throughput) {
        static PhaseStats of(List<SecondSample> samples, int phase, String cls, double tailFraction) {
            List<SecondSample> in = samples.stream().filter(s -> s.phase() == phase && s.className().equals(cls)).toList();
            int skip = (int) Math.floor(in.size() * (1 - tailFraction));
            List<SecondSample> tail = in.subList(Math.min(skip, in.size()), in.size());
            long n = 0;
            double w = 0;
            int wn = 0;
            double q = 0;
            int qn = 0;
            for (SecondSample s : tail) {
                n += s.completed();
                if (!Double.isNaN(s.weight())) {
                    w += s.weight();
                    wn++;
                }
                if (s.queue() >= 0) {
                    q += s.queue();
                    qn++;
                }
            }
            return new PhaseStats(SecondSample.weightedMeanMs(tail), wn > 0 ? w / wn : Double.NaN,
                    qn > 0 ? q / qn : Double.NaN, tail.isEmpty() ? 0 : (double) n / tail.size());
        }
    }
}
