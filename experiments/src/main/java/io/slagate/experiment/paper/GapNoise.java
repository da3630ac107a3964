package io.slagate.experiment.paper;

import java.util.List;
import java.util.SplittableRandom;

/**
 * How much of experiment B's utility gap the measurement's noise alone decides. Each phase's best static weights are
 * run twice more after the search; the two readings' difference estimates one run's spread σ (pooled over the phases:
 * σ² = mean of (U₁ − U₂)² / 2). A controller's phase is one run, compared with the mean of those two; a controller that
 * holds the best static weights exactly therefore reads a gap of N(0, σ²) minus the shared N(0, σ²/2) of its phase's
 * oracle, and the chance that every phase of every run reads at least −threshold is what the goal "gap ≥ −threshold"
 * asks of luck alone.
 */
public final class GapNoise {
    private GapNoise() {
    }

    /** One run's utility spread σ, pooled over the phases' re-measured pairs {U₁, U₂}; NaN with none. */
    public static double oneRunSd(List<double[]> pairs) {
        double sum = 0;
        for (double[] p : pairs) {
            double d = p[0] - p[1];
            sum += d * d / 2;
        }
        return pairs.isEmpty() ? Double.NaN : Math.sqrt(sum / pairs.size());
    }

    /**
     * The chance that a controller holding the best static weights reads a gap of at least −{@code threshold} in every
     * one of {@code phases} phases of each of {@code runs} runs, the runs sharing each phase's oracle (mean of two
     * runs), each reading with spread {@code sd}: a seeded Monte Carlo of {@code draws} sweeps.
     */
    public static double chanceEqualMeets(double sd, int phases, int runs, double threshold, int draws, long seed) {
        if (!(sd >= 0) || phases < 1 || runs < 1 || draws < 1) {
            throw new IllegalArgumentException("sd ≥ 0, phases, runs and draws ≥ 1");
        }
        SplittableRandom r = new SplittableRandom(seed);
        int met = 0;
        for (int d = 0; d < draws; d++) {
            boolean all = true;
            for (int p = 0; p < phases && all; p++) {
                double oracle = sd * Math.sqrt(0.5) * gaussian(r);
                for (int k = 0; k < runs && all; k++) {
                    all = sd * gaussian(r) - oracle >= -threshold;
                }
            }
            met += all ? 1 : 0;
        }
        return met / (double) draws;
    }

    /** Student's t at the two-sided 95% level for 1 to 15 degrees of freedom; beyond, the normal's 1.96 plus a margin. */
    private static final double[] T95 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131};

    /**
     * The mean of the gaps over every phase of every run and the half-width of its 95% interval, from their own scatter
     * (Student's t): the goal's question asked of the whole sweep, where the minimum asks it of the unluckiest reading.
     * The scatter includes the phases' differences as well as the noise, so the interval is the wider of the two.
     * {NaN, NaN} with fewer than two gaps.
     */
    public static double[] meanWithInterval(double[] gaps) {
        int n = gaps.length;
        if (n < 2) {
            return new double[] {Double.NaN, Double.NaN};
        }
        double mean = 0;
        for (double g : gaps) {
            mean += g / n;
        }
        double ss = 0;
        for (double g : gaps) {
            ss += (g - mean) * (g - mean);
        }
        double t = n - 1 <= T95.length ? T95[n - 2] : 1.96 + 2.5 / (n - 1);
        return new double[] {mean, t * Math.sqrt(ss / (n - 1) / n)};
    }

    /** A standard normal deviate (Box–Muller, one of the pair). */
    private static double gaussian(SplittableRandom r) {
        double u = 1 - r.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r.nextDouble());
    }
}
