package io.slagate.experiment;

import io.slagate.experiment.paper.ExperimentSetup;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Experiment A (Fig. 7: throughput against N_s, the knee), and {@code concurrency: auto} on its
 * backends: from N_s = 1 and 200 beside the knee measured with static N_s, and in a steady state.
 */
final class KneeExperiment {
    private final double scale;
    private final boolean quick;
    private final Path out;
    private final PrintStream log;
    /** A results file's heading and the lines every results file starts with. */
    private final Function<String, StringBuilder> header;

    KneeExperiment(double scale, boolean quick, Path out, PrintStream log, Function<String, StringBuilder> header) {
        this.scale = scale;
        this.quick = quick;
        this.out = out;
        this.log = log;
        this.header = header;
    }

    /**
     * A backend of experiment A: what the knee is measured on, with static N_s and then with {@code concurrency: auto}.
     *
     * @param scale 1 paper-second in seconds for this backend's runs
     */
    private record KneeBackend(String label, String dir, double scale, ServiceTime time, int[] quickLevels, int[] fullLevels,
                               String description) {
    }

    /** The paper's backend: CPU-bound in part (its knee is where the cores saturate). */
    private KneeBackend cpuBound() {
        return new KneeBackend("cpu-bound", "A", scale, ServiceTime.paper(scale, Experiments.HEAVY_CPU), new int[] {1, 4, 10, 20},
                new int[] {1, 2, 4, 6, 8, 10, 12, 15, 20, 30},
                "Service: exponential, mean 1 paper-second, " + Experiments.pct(Experiments.HEAVY_CPU) + " of it on the CPU");
    }

    /** The second backend: sleep-bound (waiting on a database) with a worker pool of 20; its knee is the pool. */
    private static KneeBackend pool20() {
        double s = 0.1; // 100 ms per request: 200 req/s at the knee, well within what this machine's load generator drives
        return new KneeBackend("sleep-bound, pool of 20", "A/pool-20", s, ServiceTime.paper(s, 0).withWorkers(20),
                new int[] {1, 10, 20, 30, 40}, new int[] {1, 5, 10, 15, 20, 25, 30, 40, 60},
                "Service: exponential, mean 1 paper-second (100 ms), all of it sleeping (a database's wait), at most 20 requests "
                        + "executing at once in the server (a worker pool of 20; the rest wait inside it)");
    }

    /**
     * Experiment A, then {@code concurrency: auto} on the same backend from N_s = 1 and from N_s = 200,
     * for two backends of different capacity: a sleep-bound one with a pool of 20, then the
     * paper's CPU-bound one. Ends with the paper backend's line {@code knee K auto N} (from 1).
     */
    List<String> kneeWithAuto() throws Exception {
        List<String> lines = new ArrayList<>();
        StringBuilder md = header.apply("A with concurrency: auto");
        for (KneeBackend b : List.of(pool20(), cpuBound())) {
            lines.addAll(kneeWithAuto(b, md));
        }
        ResultsFile.write(out.resolve("A").resolve("AUTO.md"), md);
        // the paper backend's line from N_s = 1 last: the one a reader compares
        String last = lines.stream().filter(l -> l.startsWith("knee ") && l.contains(" auto ")).reduce((a, x) -> x).orElse(null);
        if (last != null) {
            lines.remove(last);
            lines.add(last);
        }
        return lines;
    }

    /**
     * The steady state: the paper backend under constant load with {@code concurrency: auto} from N_s = 1 for
     * 11 minutes; over the last 10, how far N_s strays from its median. Ends with {@code steady N_s median M range LO-HI
     * max-deviation D} (D as a fraction of M).
     */
    List<String> steadyAuto() throws Exception {
        KneeBackend b = cpuBound();
        AutoRun r;
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), b.time())) {
            r = autoRun(b, backend.urls().get(0), 1, Duration.ofMinutes(11), Double.NaN);
        }
        List<Integer> last = new ArrayList<>(r.series().subList(Math.max(0, r.series().size() - 600), r.series().size()));
        List<Integer> sorted = new ArrayList<>(last);
        Collections.sort(sorted);
        int median = sorted.get(sorted.size() / 2);
        int lo = sorted.get(0);
        int hi = sorted.get(sorted.size() - 1);
        double dev = Math.max(hi - median, median - lo) / (double) median;
        StringBuilder md = header.apply("A with concurrency: auto, steady state");
        md.append(String.format(Locale.ROOT, "%s; %d closed-loop clients without think time for 11 minutes, `concurrency: auto` from "
                + "N_s = 1 (bounds 1 to %d). Over the last 10 minutes (%d one-second samples of the manager's N_s): median %d, "
                + "range %d-%d, largest deviation from the median %.1f%%.%n%nN_s every 5 s over the whole run:%n%n", b.description(),
                AUTO_CLIENTS, AUTO_MAX, last.size(), median, lo, hi, 100 * dev));
        StringBuilder series = new StringBuilder();
        for (int i = 0; i < r.series().size(); i += 5) {
            series.append(i == 0 ? "" : " ").append(r.series().get(i));
        }
        String line = String.format(Locale.ROOT, "steady N_s median %d range %d-%d max-deviation %.3f", median, lo, hi, dev);
        md.append(series).append("\n\n```\n").append(line).append("\n```\n");
        Files.createDirectories(out.resolve("A"));
        ResultsFile.write(out.resolve("A").resolve("STEADY.md"), md);
        return List.of(line);
    }

    private List<String> kneeWithAuto(KneeBackend b, StringBuilder md) throws Exception {
        double knee = concurrencyKnee(true, b);
        Duration run = Duration.ofSeconds(quick ? 100 : 120); // 2 minutes at most; the baseline alone takes 300 answers
        List<AutoRun> runs = new ArrayList<>();
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), b.time())) {
            for (int start : new int[] {1, 200}) {
                runs.add(autoRun(b, backend.urls().get(0), start, run, knee));
            }
        }
        md.append(String.format(Locale.ROOT, "## %s%n%n%s (static sweep: [%s](%s)); one class of %d closed-loop "
                + "clients without think time, so that requests always wait for slots; the resource manager's `concurrency: auto` "
                + "(bounds 1 to %d) started at N_s = 1 and at N_s = 200, %d s each. The knee measured with static N_s: "
                + "**K = %.1f**. Settled = the median N_s over the last quarter of the run; \"within ±15%%\" = the first second "
                + "from which N_s stayed within 15%% of K.%n%n", b.label(), b.description(),
                b.dir().equals("A") ? "RESULTS.md" : b.dir().substring(2) + "/RESULTS.md",
                b.dir().equals("A") ? "RESULTS.md" : b.dir().substring(2) + "/RESULTS.md", AUTO_CLIENTS, AUTO_MAX, run.toSeconds(), knee));
        md.append("| start | settled N_s | deviation from K | within ±15% after | N_s over the run (one value per 5 s) |\n|---:|---:|---:|---:|---|\n");
        List<String> lines = new ArrayList<>();
        String prefix = b.dir().equals("A") ? "" : b.dir().substring(2) + " ";
        for (AutoRun r : runs) {
            StringBuilder series = new StringBuilder();
            for (int i = 0; i < r.series().size(); i += 5) {
                series.append(i == 0 ? "" : " ").append(r.series().get(i));
            }
            md.append(String.format(Locale.ROOT, "| %d | %d | %.2f | %s | %s |%n", r.start(), r.settled(), Math.abs(r.settled() - knee) / knee,
                    r.withinAfter() < 0 ? "never" : r.withinAfter() + " s", series));
            lines.add(String.format(Locale.ROOT, "%sknee %.1f %s %d", prefix, knee, r.start() == 1 ? "auto" : "auto-from-" + r.start(),
                    r.settled()));
        }
        md.append("\n```\n").append(String.join("\n", lines)).append("\n```\n\n");
        return lines;
    }

    private static final int AUTO_CLIENTS = 220;
    /** Mean service times the static sweep spends at N_s = 1 at least: 400 answers, X(1) within ±5% (one standard error). */
    private static final int MIN_ANSWERS_AT_1 = 400;

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
    private static final int AUTO_MAX = 250;

    /** One auto run: the N_s the manager held each second, what it settled on, and when it stayed near the knee. */
    private record AutoRun(int start, List<Integer> series, int settled, int withinAfter) {
    }

    private AutoRun autoRun(KneeBackend b, String url, int start, Duration run, double knee) throws Exception {
        ExperimentSetup setup = new ExperimentSetup(b.scale(), start, "wrr", 0.1);
        String auto = String.format(Locale.ROOT, "{ auto: true, min: 1, max: %d, start: %d }", AUTO_MAX, start);
        List<Integer> series = new CopyOnWriteArrayList<>();
        try (RunningSystem sys = RunningSystem.start(setup.config(List.of(url), auto), true)) {
            LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", null,
                    List.of(new LoadSpec.ClassSpec("all", "getQuote", null, false, null)),
                    List.of(new LoadSpec.Phase(run, List.of((double) AUTO_CLIENTS))), false, Duration.ZERO, Duration.ZERO, 3000 + start,
                    Duration.ofMinutes(5), null);
            ScheduledExecutorService poll = Executors.newSingleThreadScheduledExecutor();
            poll.scheduleAtFixedRate(() -> series.add(sys.concurrency("s1")), 1, 1, TimeUnit.SECONDS);
            try {
                new LoadGenerator(spec, null).run();
            } finally {
                poll.shutdownNow();
            }
        }
        List<Integer> tail = new ArrayList<>(series.subList(series.size() * 3 / 4, series.size()));
        Collections.sort(tail);
        int settled = tail.isEmpty() ? -1 : tail.get(tail.size() / 2);
        int within = -1;
        for (int i = series.size() - 1; i >= 0 && Math.abs(series.get(i) - knee) <= 0.15 * knee; i--) {
            within = i + 1;
        }
        log.printf(Locale.ROOT, "A auto (%s) from %d: settled %d (knee %.1f), within ±15%% after %s s; series %s%n", b.label(), start, settled, knee,
                within < 0 ? "never" : String.valueOf(within), series);
        return new AutoRun(start, List.copyOf(series), settled, within);
    }

    /** Experiment A on the paper's backend. */
    double concurrencyKnee(boolean withController) throws Exception {
        return concurrencyKnee(withController, cpuBound());
    }

    /** @param withController with the broker and resource manager running (as {@code concurrency: auto} runs), not the gateway alone */
    private double concurrencyKnee(boolean withController, KneeBackend b) throws Exception {
        Path dir = out.resolve(b.dir());
        Files.createDirectories(dir);
        int[] levels = quick ? b.quickLevels() : b.fullLevels();
        Duration warm = Duration.ofSeconds(quick ? 2 : 4);
        Duration measure = Duration.ofSeconds(quick ? 5 : 16);
        List<String> rows = new ArrayList<>(List.of("n_s,throughput_per_s,throughput_paper_units,mean_ms,p99_ms"));
        XYSeries series = new XYSeries("throughput");
        double best = 0;
        long bestAnswers = 0;
        double[] tput = new double[levels.length];
        long[] answers = new long[levels.length];
        double scale = b.scale();
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), b.time())) {
            for (int i = 0; i < levels.length; i++) {
                int n = levels[i];
                // X(1) carries the knee's error whole: N_s = 1 is measured over MIN_ANSWERS_AT_1 mean service times
                // (5 s of it held ~100 answers, ±10%, and moved the knee by as much), after a longer warm-up (it is
                // the first level, on code not yet compiled)
                Duration w = n == 1 ? warm.plusSeconds(3) : warm;
                Duration m = n == 1 ? max(measure, Duration.ofMillis((long) (MIN_ANSWERS_AT_1 * scale * 1000))) : measure;
                ExperimentSetup setup = new ExperimentSetup(scale, n, "fcfs", 1);
                try (RunningSystem sys = RunningSystem.start(setup.config(backend.urls().get(0)), withController)) {
                    // enough clients without think time that N_s requests always execute
                    LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", null,
                            List.of(new LoadSpec.ClassSpec("all", "getQuote", null, false, null)),
                            List.of(new LoadSpec.Phase(w.plus(m), List.of((double) (n + 10)))),
                            false, Duration.ZERO, w, 1000 + n, Duration.ofMinutes(5), null);
                    Summary s = new LoadGenerator(spec, null).run();
                    Summary.ClassSummary c = s.classes().get("all");
                    tput[i] = c.throughput();
                    answers[i] = c.completed();
                    if (c.throughput() > best) {
                        best = c.throughput();
                        bestAnswers = c.completed();
                    }
                    series.add(n, c.throughput() * scale);
                    rows.add(String.format(Locale.ROOT, "%d,%.2f,%.3f,%.1f,%.1f", n, c.throughput(), c.throughput() * scale,
                            c.meanMs(), c.p99Ms()));
                    log.printf(Locale.ROOT, "A (%s): N_s = %d → %.1f req/s (%.2f per paper second), mean %.1f ms%n", b.label(), n,
                            c.throughput(), c.throughput() * scale, c.meanMs());
                }
            }
        }
        // The knee as in operational analysis: where the line through N_s = 1 (X(1) per slot) meets
        // the plateau X_max, N* = X_max / X(1). Past it, more slots only queue at the CPU.
        double kneeAt = levels[0] == 1 && tput[0] > 0 ? best / tput[0] : Double.NaN;
        double knee = kneeAt;
        // its sampling error: answers of exponential service are a Poisson count at N_s = 1 (relative error 1/√n), and
        // no more than that at the plateau (several servers in parallel are less variable); the two add in quadrature
        double kneeError = knee * Math.sqrt(1.0 / Math.max(1, answers[0]) + 1.0 / Math.max(1, bestAnswers));
        Files.write(dir.resolve("throughput.csv"), rows);
        chart(dir, series, knee);
        ResultsFile.write(dir.resolve("RESULTS.md"), report(b, withController, rows, knee, kneeError, tput[0], answers[0], best, bestAnswers));
        return knee;
    }

    /** Fig. 7's plot: throughput against N_s, the knee marked. */
    private static void chart(Path dir, XYSeries series, double knee) throws IOException {
        XYSeriesCollection data = new XYSeriesCollection(series);
        JFreeChart chart = ChartFactory.createXYLineChart("Throughput against N_s (Fig. 7)", "N_s",
                "requests per paper second", data);
        if (!Double.isNaN(knee)) {
            chart.getXYPlot().addDomainMarker(new ValueMarker(knee));
        }
        System.setProperty("java.awt.headless", "true");
        ChartUtils.saveChartAsPNG(dir.resolve("throughput.png").toFile(), chart, 960, 420);
    }

    private StringBuilder report(KneeBackend b, boolean withController, List<String> rows, double knee, double kneeError, double x1,
                                 long answersAt1, double best, long bestAnswers) {
        StringBuilder md = header.apply("A — throughput against N_s (Fig. 7)" + (b.dir().equals("A") ? "" : ", " + b.label()));
        md.append(b.description()).append("; one class of N_s + 10 clients without think time; `fcfs`")
                .append(withController ? "; the broker and resource manager running beside the gateway (as in the auto runs)" : "")
                .append(".\n\n")
                .append("| N_s | req/s | req per paper second | mean ms | p99 ms |\n|---:|---:|---:|---:|---:|\n");
        for (String r : rows.subList(1, rows.size())) {
            md.append("| ").append(r.replace(",", " | ")).append(" |\n");
        }
        md.append(String.format(Locale.ROOT, "%nThe knee, where the line N_s · X(1) meets the plateau X_max (N* = X_max / X(1)): "
                        + "**N* ≈ %.1f ± %.1f** (X(1) = %.1f req/s from %d answers, X_max = %.1f req/s from %d; ± one standard "
                        + "error of the two counts, exponential service).%n%n", knee, kneeError, x1, answersAt1, best, bestAnswers))
                .append("![throughput](throughput.png)\n");
        return md;
    }

    // ---------------------------------------------------------------- B: four phases (Figs. 8-12)
}
