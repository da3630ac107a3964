package io.slagate.bench;

import io.slagate.config.Combining;
import io.slagate.rm.optimize.AllocationOptimizer;
import io.slagate.rm.optimize.AllocationProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs {@link OptimizerBenchmark} over K × N and writes a Markdown table: ms per solve for the DP
 * and the greedy path, and whether both found the same objective. DP cases whose K·N² work would
 * take minutes per solve are reported as skipped, with the estimate that excluded them.
 *
 * <p>Usage: {@code java -jar benchmarks/target/benchmarks.jar [results.md] [--quick]}
 */
public final class OptimizerBenchmarkMain {
    /** K·N² above which the DP is not run (about 10 s per solve here). */
    private static final double DP_WORK_LIMIT = 1.1e10;

    private OptimizerBenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 && !args[0].startsWith("--") ? args[0] : "bench/results/optimizer.md");
        boolean quick = List.of(args).contains("--quick");
        if (List.of(args).contains("--models")) {
            models(args.length > 0 && !args[0].startsWith("--") ? out : Path.of("bench/results/optimizer-models.md"), quick);
            return;
        }
        int[] ks = {4, 20, 100, 500};
        int[] ns = {10, 100, 1000, 10000};
        StringBuilder table = new StringBuilder();
        table.append("| K flows | N units | DP ms/solve | greedy ms/solve | same objective |\n");
        table.append("|---:|---:|---:|---:|:---:|\n");
        for (int k : ks) {
            for (int n : ns) {
                boolean runDp = (double) k * n * n <= DP_WORK_LIMIT;
                String dp = runDp ? fmt(run("dp", k, n, quick)) : "skipped (K·N² = " + String.format(Locale.ROOT, "%.0e", (double) k * n * n) + ")";
                String greedy = fmt(run("greedy", k, n, quick));
                String same = runDp ? (sameObjective(k, n) ? "yes" : "**no**") : "—";
                table.append("| ").append(k).append(" | ").append(n).append(" | ").append(dp).append(" | ")
                        .append(greedy).append(" | ").append(same).append(" |\n");
                System.out.println("K=" + k + " N=" + n + " dp=" + dp + " greedy=" + greedy + " same=" + same);
            }
        }
        String text = "# Optimizer solve time\n\n"
                + "Produced by `bench/optimizer.sh` (JMH " + (quick ? "quick mode" : "1 fork, 2×1 s warm-up, 3×1 s measurement")
                + ", average time per solve) on " + Runtime.getRuntime().availableProcessors() + " cores, "
                + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + ".\n\n"
                + "Problem: K/2 gateways × 2 classes, M/M/1 predictions (eq. 8–9), eq. 7 utilities with α = β = 1, "
                + "sum combining, minimum 1 unit per flow (⌊N/K⌋ when N < K).\n\n"
                + table;
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, text);
        System.out.println("wrote " + out);
    }

    /** The DP's solve time with each response-time model on the same K × N (closed, K = 100, N = 1000 ≤ 50 ms). */
    private static void models(Path out, boolean quick) throws Exception {
        int[][] cases = {{20, 100}, {20, 1000}, {100, 100}, {100, 1000}};
        StringBuilder table = new StringBuilder("| K flows | N units | DP ms/solve, mm1 | DP ms/solve, closed | closed / mm1 |\n")
                .append("|---:|---:|---:|---:|---:|\n");
        String headline = "";
        for (int[] c : cases) {
            double mm1 = run("dp", c[0], c[1], quick, "mm1");
            double closed = run("dp", c[0], c[1], quick, "closed");
            table.append(String.format(Locale.ROOT, "| %d | %d | %s | %s | %.2f× |%n", c[0], c[1], fmt(mm1), fmt(closed), closed / mm1));
            System.out.println("K=" + c[0] + " N=" + c[1] + " mm1=" + fmt(mm1) + " closed=" + fmt(closed));
            if (c[0] == 100 && c[1] == 1000) {
                headline = String.format(Locale.ROOT, "closed K=100 N=1000 %s ms/solve (mm1 %s ms, same run)", fmt(closed), fmt(mm1));
            }
        }
        String text = "# Optimizer solve time by response-time model\n\n"
                + "Produced by `bench/optimizer.sh --models` (JMH " + (quick ? "quick mode" : "1 fork, 2×1 s warm-up, 3×1 s measurement")
                + ", average time per solve) on " + Runtime.getRuntime().availableProcessors() + " cores, "
                + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + ".\n\n"
                + "The DP of `OptimizerBenchmark` on the same K × N with each flow predicted by M/M/1 (eq. 8–9, as in "
                + "optimizer.md) or by the closed population model through the online correction, as the resource manager "
                + "predicts with `controller.model: closed` (each flow a population of 1–2× its equal share, S = Z).\n\n"
                + table + "\n" + headline + "\n";
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, text);
        System.out.println(headline);
        System.out.println("wrote " + out);
    }

    private static boolean sameObjective(int k, int n) {
        AllocationProblem p = OptimizerBenchmark.problem(k, n, Combining.SUM, 42);
        double dp = AllocationOptimizer.dynamicProgramming(p).objective();
        double greedy = AllocationOptimizer.greedy(p).objective();
        return Math.abs(dp - greedy) <= 1e-9 * Math.max(1, Math.abs(dp));
    }

    private static double run(String method, int k, int n, boolean quick) throws Exception {
        return run(method, k, n, quick, "mm1");
    }

    private static double run(String method, int k, int n, boolean quick, String model) throws Exception {
        Options opt = new OptionsBuilder()
                .include(OptimizerBenchmark.class.getName() + "." + method + "$")
                .param("flows", String.valueOf(k))
                .param("units", String.valueOf(n))
                .param("model", model)
                .forks(1)
                .warmupIterations(quick ? 1 : 2)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(quick ? 1 : 3)
                .measurementTime(TimeValue.seconds(1))
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT)
                .build();
        Collection<RunResult> results = new Runner(opt).run();
        List<RunResult> list = new ArrayList<>(results);
        return list.get(0).getPrimaryResult().getScore();
    }

    private static String fmt(double ms) {
        return ms >= 100 ? String.format(Locale.ROOT, "%.0f", ms)
                : ms >= 1 ? String.format(Locale.ROOT, "%.2f", ms) : String.format(Locale.ROOT, "%.4f", ms);
    }
}
