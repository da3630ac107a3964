package io.slagate.rm.tune;

import io.slagate.config.TuningSettings;
import java.util.Arrays;
import java.util.Random;

/**
 * A search over the unit cube [0, 1]^d of normalized knob values, driven by measurements it cannot
 * make itself: {@link #next} proposes a point, {@link #report} returns its measured objective (higher is better).
 * One report per proposal, in order. Implementations keep no clock and draw randomness only from the source they
 * are given, so that a test replays them exactly.
 */
public interface SearchStrategy {
    /** The next point to try. */
    double[] next();

    /** The measured objective of the point last returned by {@link #next}. */
    void report(double value);

    /** The best point reported so far (null before any report). */
    double[] best();

    /** Its value (−∞ before any report). */
    double bestValue();

    /**
     * The next point whose knob values differ from {@code known}'s: a proposal that rounds to them (the simplex's start,
     * say) gets {@code knownValue} reported for it at once, at most eight times in a row. Used for a configuration that
     * is measured anyway (the best, on the safe side or in the reference periods), so that no trial is spent on it.
     */
    default double[] nextOtherThan(double[] known, double knownValue, KnobSet knobs) {
        double[] p = next();
        for (int i = 0; i < 8 && known != null && Double.isFinite(knownValue)
                && Arrays.equals(knobs.values(p), knobs.values(known)); i++) {
            report(knownValue);
            p = next();
        }
        return p;
    }

    /**
     * The configured strategy ({@code simplex}, {@code hill} or {@code restarts}) from {@code start}, for {@code knobs}:
     * the simplex's first steps move each knob by at least one of its values, so that a knob of few values (a choice of
     * two models) is explored at all (a quarter of its range would round back to where it was). {@code restarts}
     * restarts every max(knobs + 3, stallTrials / 2) trials: after the simplex's first points and a few steps, and before
     * the tuner gives up on a stall. A first simplex on a plateau (every neighbour as bad as the start) otherwise stalls
     * before any restart: experiment tuning --two-tier stopped so at trial 13 with restarts every 12.
     */
    static SearchStrategy of(TuningSettings settings, double[] start, KnobSet knobs, Random random) {
        int restartEvery = Math.max(start.length + 3, settings.stallTrials() / 2);
        double[] steps = new double[start.length];
        for (int i = 0; i < steps.length; i++) {
            Tunable k = knobs.knob(i);
            steps[i] = Math.max(0.25, k.integer() && k.max() > k.min() ? 1 / (k.max() - k.min()) : 0);
        }
        return switch (settings.strategy()) {
            case "hill" -> new HillClimb(start, 0.2, 0.02, random);
            case "restarts" -> new RandomRestarts(start, p -> new NelderMead(p, steps, 0.02), restartEvery, random);
            default -> new NelderMead(start, steps, 0.02);
        };
    }
}
