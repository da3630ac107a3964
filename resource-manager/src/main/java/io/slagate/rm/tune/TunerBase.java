package io.slagate.rm.tune;

import io.slagate.config.TuningSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * What the two online tuners share: the search strategy over one set of knobs (the safe side's, or the only
 * one), the state and the phase it started, the best configuration and the one before tuning (unit cube),
 * the trials, and how they read out. How a trial is run and judged is each tuner's own ({@link Tuner}:
 * beside a safe side; {@link InterleavedTuner}: between references on all traffic).
 */
abstract class TunerBase implements OnlineTuner {
    protected final TuningSettings settings;
    /** The knobs the strategy searches and the values are read from. */
    protected final KnobSet knobs;
    protected final Random random;
    /** Consecutive ticks that measure overlapping statistics windows (window / cycle): one measurement, not several. */
    protected final int correlated;
    protected SearchStrategy strategy;
    protected Tuner.State state = Tuner.State.BASELINE;
    protected long phaseStart = Long.MIN_VALUE;
    protected int samples;
    /** The configuration on trial. */
    protected double[] pending;
    protected double[] best;
    /** The configuration when tuning first began: what a revert goes back to. */
    protected double[] initial;
    /** The best configuration's utility on the strategy's scale. */
    protected double bestLevel = Double.NaN;
    protected int sinceImprovement;
    protected double monitorLevel = Double.NaN;
    protected double baselineUtility = Double.NaN;
    protected final List<Tuner.Trial> trials = new ArrayList<>();

    TunerBase(TuningSettings settings, KnobSet knobs, Random random, int correlated) {
        if (correlated < 1) {
            throw new IllegalArgumentException("correlated must be at least 1: " + correlated);
        }
        this.settings = settings;
        this.knobs = knobs;
        this.random = random;
        this.correlated = correlated;
    }

    protected SearchStrategy newStrategy(double[] start) {
        return SearchStrategy.of(settings, start, knobs, random);
    }

    protected double[] values(double[] unit) {
        return knobs.values(unit);
    }

    protected static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    @Override
    public Tuner.State state() {
        return state;
    }

    @Override
    public List<Tuner.Trial> trials() {
        return List.copyOf(trials);
    }

    /** The best configuration's knob values, or empty before the baseline. */
    @Override
    public double[] bestValues() {
        return values(best);
    }

    /** The utility measured before tuning (NaN until measured). */
    @Override
    public double baselineUtility() {
        return baselineUtility;
    }

    /** The configuration before tuning (knob values), or empty before the first baseline. */
    @Override
    public double[] initialValues() {
        return values(initial);
    }
}
