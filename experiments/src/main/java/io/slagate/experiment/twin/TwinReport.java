package io.slagate.experiment.twin;

import java.util.Locale;

/** A comparison's figures as text: per phase the static candidates' mean utility, the best, the controller's. */
public final class TwinReport {
    private TwinReport() {
    }

    public static String phases(PolicyComparison.Outcome o) {
        Scenario sc = o.scenario();
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%-8s %-10s", "phase", "clients"));
        for (double[] w : sc.candidates()) {
            b.append(String.format(Locale.ROOT, " %7s", weights(w)));
        }
        b.append(String.format(Locale.ROOT, " %10s%n", "controller"));
        for (int k = 0; k < sc.load().phases().size(); k++) {
            Workload.Phase p = sc.load().phases().get(k);
            b.append(String.format(Locale.ROOT, "%-8s %-10s", p.name(), java.util.Arrays.toString(p.population()).replace(" ", "")));
            for (int j = 0; j < sc.candidates().size(); j++) {
                b.append(String.format(Locale.ROOT, " %6.3f%s", o.staticPhase()[j][k], o.phaseBest()[k] == j ? "*" : " "));
            }
            b.append(String.format(Locale.ROOT, " %10.3f%n", o.controllerPhase()[k]));
        }
        double[] mean = new double[sc.candidates().size()];
        for (int j = 0; j < mean.length; j++) {
            mean[j] = java.util.Arrays.stream(o.staticScore()[j]).average().orElse(Double.NaN);
        }
        b.append(String.format(Locale.ROOT, "%-19s", "run (mean)"));
        for (int j = 0; j < mean.length; j++) {
            b.append(String.format(Locale.ROOT, " %6.3f%s", mean[j], o.best() == j ? "*" : " "));
        }
        b.append(String.format(Locale.ROOT, " %10.3f%n", java.util.Arrays.stream(o.controllerScore()).average().orElse(Double.NaN)));
        b.append(String.format(Locale.ROOT, "utility: min over classes of (target − mean response time), paper-seconds, over the last %.0f%% of"
                + " each phase, mean over seeds; * the best static weights (per phase: the oracle's schedule; per run: (a))%n",
                100 * sc.measuredFraction()));
        return b.toString();
    }

    /** Per phase and class under the controller: mean and p95 response time and throughput, means over seeds. */
    public static String controllerClasses(PolicyComparison.Outcome o) {
        Scenario sc = o.scenario();
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-8s %-10s %8s %8s %12s %12s %22s%n", "phase", "class", "mean s",
                "p95 s", "throughput/s", "weight share", "settle cycles p50/p90"));
        int firstChange = sc.load().phases().size() == 1 ? 0 : 1;
        for (int k = 0; k < sc.load().phases().size(); k++) {
            String settle = "";
            if (k >= firstChange) {
                int[] s = o.settleByChange()[k - firstChange].clone();
                java.util.Arrays.sort(s);
                settle = s.length == 0 ? "" : s[(s.length - 1) / 2] + " / " + s[Math.min(s.length - 1, (int) Math.ceil(0.9 * s.length) - 1)];
            }
            for (int c = 0; c < sc.load().classes().size(); c++) {
                double[] f = o.controllerFigures()[k][c];
                b.append(String.format(Locale.ROOT, "%-8s %-10s %8.2f %8.2f %12.2f %12.3f %22s%n", sc.load().phases().get(k).name(),
                        sc.load().classes().get(c).className(), f[0], f[1], f[2], o.controllerWeights()[k][c], c == 0 ? settle : ""));
            }
        }
        return b.toString();
    }

    /**
     * Experiment C's grid (5 to 20 clients of each class): per point the controller's gap to the best static split with
     * its interval, and its settling p90, each point a one-phase scenario on the same seeds.
     */
    public static String grid(int seeds, double seconds, String controllerKeys, int threads) {
        return String.format(Locale.ROOT, "C: the controller's gap to the best static split [95%% interval] (settle p90 in cycles), %d seeds%n",
                seeds) + gridTable(28, (lp, lb) -> {
                    PolicyComparison.Outcome o = PolicyComparison.run(TwinExperiments.c(lp, lb, seconds, controllerKeys), seeds, 1, threads);
                    double[] g = o.gapToBestStatic();
                    return String.format(Locale.ROOT, "%+7.3f [%+.3f..%+.3f] (%3.0f)", g[0], g[0] - g[1], g[0] + g[1], o.settlePercentile(0.9));
                });
    }

    /** Experiment C's grid, 5 to 20 clients of each class: a row per premium level, a column per basic level. */
    static String gridTable(int width, java.util.function.BiFunction<Integer, Integer, String> cell) {
        int[] levels = {5, 10, 15, 20};
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-9s", "L_P \\ L_B"));
        for (int lb : levels) {
            b.append(String.format(Locale.ROOT, " %" + width + "d", lb));
        }
        b.append('\n');
        for (int lp : levels) {
            b.append(String.format(Locale.ROOT, "%-9d", lp));
            for (int lb : levels) {
                b.append(String.format(Locale.ROOT, " %" + width + "s", cell.apply(lp, lb)));
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** Weights as an operator writes a split: {@code 12:8}. */
    public static String weights(double[] w) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < w.length; i++) {
            s.append(i == 0 ? "" : ":").append(String.format(Locale.ROOT, "%.0f", w[i]));
        }
        return s.toString();
    }

    /**
     * The controller's split at every cycle of every seed, as CSV: {@code seed,second,phase} and each class's share of the
     * weights (paper-seconds from the start; seeds numbered from {@code firstSeed}). What the settling figures are read from.
     */
    public static String weightsCsv(PolicyComparison.Outcome o, long firstSeed) {
        Scenario sc = o.scenario();
        StringBuilder b = new StringBuilder("seed,second,phase");
        sc.load().classes().forEach(c -> b.append(',').append(c.className()));
        b.append('\n');
        int phases = sc.load().phases().size();
        for (int i = 0; i < o.weightSeries().size(); i++) {
            for (TwinRun.WeightPoint p : o.weightSeries().get(i)) {
                int k = 0;
                while (k + 1 < phases && p.atNanos() > sc.load().startNanos(k + 1)) {
                    k++;
                }
                double total = java.util.Arrays.stream(p.weights()).sum();
                b.append(firstSeed + i).append(',').append(String.format(Locale.ROOT, "%.1f", p.atNanos() / 1e9)).append(',')
                        .append(sc.load().phases().get(k).name());
                for (double w : p.weights()) {
                    b.append(',').append(String.format(Locale.ROOT, "%.3f", w / total));
                }
                b.append('\n');
            }
        }
        return b.toString();
    }
}
