package io.slagate.experiment;

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
final class GapNoise {
    private GapNoise() {
    }

    /** One run's utility spread σ, pooled over the phases' re-measured pairs {U₁, U₂}; NaN with none. */
    static double oneRunSd(List<double[]> pairs) {
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
    static double chanceEqualMeets(double sd, int phases, int runs, double threshold, int draws, long seed) {
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

    /** A standard normal deviate (Box–Muller, one of the pair). */
    private static double gaussian(SplittableRandom r) {
        double u = 1 - r.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r.nextDouble());
    }
}
