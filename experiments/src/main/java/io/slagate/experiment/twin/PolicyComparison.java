package io.slagate.experiment.twin;

import io.slagate.experiment.paper.GapNoise;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The controller against what an operator could do instead, every policy on the same seeds (common random numbers):
 * (a) the best single static weights for the whole run, found by a sweep of the candidates; (b) the phase oracle, a
 * static schedule switching to each phase's best candidate at the change, which no controller can beat on average;
 * (c) the controller. Gaps are paired by seed, each a mean with its 95% interval. Settling: the control cycles after
 * each change (after the start, for a scenario of one phase) until the controller's weights are among the candidates whose utility in the new phase is within 1% of
 * the range between that phase's best and worst candidate, so that where the optimum is flat any weight on it counts.
 */
public final class PolicyComparison {
    /** Utility within this share of a phase's range (best − worst candidate) of its best counts as settled. */
    static final double BAND = 0.01;

    /**
     * @param staticScore     per candidate, per seed, the run's score
     * @param staticPhase     per candidate, per phase, the mean utility over seeds
     * @param best            the candidate with the best mean score (a)
     * @param phaseBest       per phase, the candidate with the best mean utility (b's schedule)
     * @param controllerScore per seed; {@code oracleScore} likewise
     * @param controllerPhase per phase, the controller's mean utility over seeds
     * @param settle          per seed and change, the cycles until settled (a phase's own cycles where it never settled)
     * @param controllerFigures per phase and class under the controller, means over seeds: mean and 95th percentile
     *                        response time (seconds) and throughput (per second)
     * @param controllerWeights per phase and class, the controller's weight as a share of the total, averaged over the
     *                        cycles of the measured part and the seeds
     * @param settleByChange  per change of phase (the start, for one phase), the cycles until settled, per seed
     * @param weightSeries    per seed, the controller's weights at each cycle
     */
    public record Outcome(Scenario scenario, int seeds, double[][] staticScore, double[][] staticPhase, int best, int[] phaseBest,
                          double[] controllerScore, double[] oracleScore, double[] controllerPhase, int[] settle,
                          long predictionsOutOfRange, double[][][] controllerFigures, double[][] controllerWeights,
                          int[][] settleByChange, List<List<TwinRun.WeightPoint>> weightSeries) {
        public double[] gapToBestStatic() {
            return paired(controllerScore, staticScore[best]);
        }

        public double[] gapToPhaseOracle() {
            return paired(controllerScore, oracleScore);
        }

        public double settlePercentile(double q) {
            if (settle.length == 0) {
                return Double.NaN;
            }
            int[] s = settle.clone();
            Arrays.sort(s);
            return s[Math.min(s.length - 1, (int) Math.ceil(q * s.length) - 1)];
        }

        /** The summary line: both gaps with their intervals, settling, out-of-range predictions. */
        public String line() {
            double[] a = gapToBestStatic(), b = gapToPhaseOracle();
            return String.format(Locale.ROOT, "twin %s seeds %d gap-to-best-static mean %.3f ci95 %.3f..%.3f gap-to-phase-oracle mean %.3f"
                            + " ci95 %.3f..%.3f settle-cycles p50 %.0f p90 %.0f predictions-out-of-range %d", scenario.name(), seeds,
                    a[0], a[0] - a[1], a[0] + a[1], b[0], b[0] - b[1], b[0] + b[1], settlePercentile(0.5), settlePercentile(0.9),
                    predictionsOutOfRange);
        }

        private static double[] paired(double[] x, double[] y) {
            double[] d = new double[x.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = x[i] - y[i];
            }
            return GapNoise.meanWithInterval(d);
        }
    }

    /**
     * What is kept of a run: its phases' utilities and score, per phase and class the mean and 95th percentile response
     * time and the throughput over the measured part, and the controller's weights.
     */
    private record Scored(double[] phaseUtility, double score, double[][][] classFigures, List<TwinRun.WeightPoint> weights,
                          long outOfRange) {
    }

    private PolicyComparison() {
    }

    private static Scored scored(Scenario sc, TwinRun.Policy policy, long seed) {
        TwinRun.Result r = TwinRun.run(sc.config(), sc.load(), sc.plant(), policy, seed);
        int phases = sc.load().phases().size(), classes = sc.load().classes().size();
        double[] u = new double[phases];
        double[][][] figures = new double[phases][classes][];
        for (int k = 0; k < phases; k++) {
            u[k] = sc.utility(r.completions(), k);
            long from = sc.measuredFrom(k), to = sc.load().startNanos(k + 1);
            for (int c = 0; c < classes; c++) {
                Completions.Span span = r.completions().span(c, from, to);
                figures[k][c] = new double[] {span.meanSeconds(), span.p95Seconds(), span.answered() / ((to - from) / 1e9)};
            }
        }
        return new Scored(u, sc.score(r.completions()), figures, r.weights(), r.predictionsOutOfRange());
    }

    /** Seeds {@code firstSeed .. firstSeed + seeds − 1}, spread over {@code threads}; the outcome does not depend on them. */
    public static Outcome run(Scenario sc, int seeds, long firstSeed, int threads) {
        int n = sc.candidates().size(), phases = sc.load().phases().size();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
        try {
            List<Future<Scored>> controlRuns = submit(pool, sc, new TwinRun.Controlled(), seeds, firstSeed);
            List<List<Future<Scored>>> heldRuns = sc.candidates().stream()
                    .map(w -> submit(pool, sc, TwinRun.Held.of(w), seeds, firstSeed)).toList();
            List<Scored> control = collect(controlRuns);
            double[][] staticScore = new double[n][];
            double[][] staticPhase = new double[n][];
            for (int j = 0; j < n; j++) {
                List<Scored> held = collect(heldRuns.get(j));
                staticScore[j] = held.stream().mapToDouble(Scored::score).toArray();
                staticPhase[j] = phaseMeans(held, phases);
            }
            int best = argmax(Arrays.stream(staticScore).mapToDouble(x -> Arrays.stream(x).average().orElse(Double.NaN)).toArray());
            int[] phaseBest = new int[phases];
            List<double[]> schedule = new ArrayList<>();
            for (int k = 0; k < phases; k++) {
                int kk = k;
                phaseBest[k] = argmax(Arrays.stream(staticPhase).mapToDouble(u -> u[kk]).toArray());
                schedule.add(sc.candidates().get(phaseBest[k]));
            }
            double[] oracleScore = collect(submit(pool, sc, new TwinRun.Held(schedule), seeds, firstSeed)).stream()
                    .mapToDouble(Scored::score).toArray();
            List<List<TwinRun.WeightPoint>> weights = control.stream().map(Scored::weights).toList();
            int[][] settleByChange = settling(sc, staticPhase, weights);
            return new Outcome(sc, seeds, staticScore, staticPhase, best, phaseBest, control.stream().mapToDouble(Scored::score).toArray(),
                    oracleScore, phaseMeans(control, phases), Arrays.stream(settleByChange).flatMapToInt(Arrays::stream).toArray(),
                    control.stream().mapToLong(Scored::outOfRange).sum(), classMeans(control), shares(sc, weights), settleByChange,
                    weights);
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<Future<Scored>> submit(ExecutorService pool, Scenario sc, TwinRun.Policy policy, int seeds, long firstSeed) {
        List<Future<Scored>> out = new ArrayList<>(seeds);
        for (int i = 0; i < seeds; i++) {
            long seed = firstSeed + i;
            out.add(pool.submit(() -> scored(sc, policy, seed)));
        }
        return out;
    }

    private static List<Scored> collect(List<Future<Scored>> runs) {
        List<Scored> out = new ArrayList<>(runs.size());
        try {
            for (Future<Scored> f : runs) {
                out.add(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a twin run failed: " + e.getCause(), e.getCause());
        }
        return out;
    }

    /** Per phase, the mean utility over the runs. */
    private static double[] phaseMeans(List<Scored> runs, int phases) {
        double[] out = new double[phases];
        for (Scored r : runs) {
            for (int k = 0; k < phases; k++) {
                out[k] += r.phaseUtility()[k] / runs.size();
            }
        }
        return out;
    }

    /** Per phase and class, the mean of each figure over the runs. */
    private static double[][][] classMeans(List<Scored> runs) {
        double[][][] first = runs.get(0).classFigures();
        double[][][] out = new double[first.length][first[0].length][first[0][0].length];
        for (Scored r : runs) {
            for (int k = 0; k < out.length; k++) {
                for (int c = 0; c < out[k].length; c++) {
                    for (int f = 0; f < out[k][c].length; f++) {
                        out[k][c][f] += r.classFigures()[k][c][f] / runs.size();
                    }
                }
            }
        }
        return out;
    }

    /** Per seed and change of phase, the cycles until the controller's weights sat in the phase's band. */
    private static int[][] settling(Scenario sc, double[][] staticPhase, List<List<TwinRun.WeightPoint>> weights) {
        int phases = sc.load().phases().size(), n = sc.candidates().size();
        List<int[]> out = new ArrayList<>();
        for (int k = phases == 1 ? 0 : 1; k < phases; k++) { // one phase: settling from the start
            boolean[] band = band(staticPhase, k);
            long from = sc.load().startNanos(k), to = sc.load().startNanos(k + 1);
            int[] change = new int[weights.size()];
            int i = 0;
            for (List<TwinRun.WeightPoint> seed : weights) {
                int cycles = 0, settled = -1;
                for (TwinRun.WeightPoint p : seed) {
                    if (p.atNanos() <= from || p.atNanos() > to) {
                        continue;
                    }
                    cycles++;
                    if (settled < 0 && band[nearest(sc.candidates(), p.weights())]) {
                        settled = cycles;
                    }
                }
                change[i++] = settled < 0 ? cycles : settled;
            }
            out.add(change);
        }
        return out.toArray(new int[0][]);
    }

    /** Per phase and class, the controller's weight share over the measured part's cycles, averaged over seeds. */
    private static double[][] shares(Scenario sc, List<List<TwinRun.WeightPoint>> weights) {
        int phases = sc.load().phases().size(), classes = sc.load().classes().size();
        double[][] out = new double[phases][classes];
        for (int k = 0; k < phases; k++) {
            long from = sc.measuredFrom(k), to = sc.load().startNanos(k + 1);
            for (List<TwinRun.WeightPoint> seed : weights) {
                double[] sum = new double[classes];
                int n = 0;
                for (TwinRun.WeightPoint p : seed) {
                    if (p.atNanos() > from && p.atNanos() <= to) {
                        double total = Arrays.stream(p.weights()).sum();
                        for (int c = 0; c < classes; c++) {
                            sum[c] += p.weights()[c] / total;
                        }
                        n++;
                    }
                }
                for (int c = 0; c < classes && n > 0; c++) {
                    out[k][c] += sum[c] / n / weights.size();
                }
            }
        }
        return out;
    }

    /** Per candidate, whether its mean utility in phase {@code k} lies within {@link #BAND} of the phase's range of its best. */
    static boolean[] band(double[][] staticPhase, int k) {
        int n = staticPhase.length;
        double hi = Double.NEGATIVE_INFINITY, lo = Double.POSITIVE_INFINITY;
        for (double[] u : staticPhase) {
            hi = Math.max(hi, u[k]);
            lo = Math.min(lo, u[k]);
        }
        boolean[] band = new boolean[n];
        for (int j = 0; j < n; j++) {
            band[j] = staticPhase[j][k] >= hi - BAND * (hi - lo);
        }
        return band;
    }

    /** The candidate whose shares of the total weight are nearest {@code w}'s. */
    static int nearest(List<double[]> candidates, double[] w) {
        int best = 0;
        double bestDistance = Double.POSITIVE_INFINITY;
        double sw = Arrays.stream(w).sum();
        for (int j = 0; j < candidates.size(); j++) {
            double[] c = candidates.get(j);
            double sc = Arrays.stream(c).sum(), d = 0;
            for (int i = 0; i < w.length; i++) {
                d += Math.abs(c[i] / sc - w[i] / sw);
            }
            if (d < bestDistance) {
                bestDistance = d;
                best = j;
            }
        }
        return best;
    }

    private static int argmax(double[] v) {
        int best = 0;
        for (int i = 1; i < v.length; i++) {
            if (v[i] > v[best]) {
                best = i;
            }
        }
        return best;
    }
}
