package io.slagate.rm.tune;

import io.slagate.config.TuningSettings;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Online tuning with a safe/experimental split: the thesis's Sibling-Rivalry tuner over Active Harmony's
 * search. Fed once per control cycle with each side's measured utility (eq. 7 under the configured combining), it
 * runs trials on the experimental side: a configuration from the strategy, applied whole ({@link KnobSet}), a settle
 * time, then a measurement period. A trial is aborted at once when its side's utility falls below the safe side's by
 * more than {@code abortDrop} (its side goes back to the best configuration); at the end of its period it is promoted
 * to the safe side only when it beat the safe side by {@code minGain} over the same period, so a change of load
 * cannot pass for a gain, and by twice the standard error of the period's paired differences (their spread, with ticks
 * that share a statistics window counted once), so that noise cannot either; a gain beyond {@code minGain} but within
 * that is measured one period more and judged on both together. After {@code stallTrials} trials without a promotion it
 * stops and monitors; it starts again
 * when the safe side's utility moves by more than {@code drift} from what it was when tuning stopped, or on demand.
 * After an aborted trial the experimental side first recovers: the next trial waits (at most one period) until that
 * side is back within {@code abortDrop} of the safe side, because a bad trial leaves damage that outlives it (a backlog
 * in the queues, a collapsed server) and the next trial must not be charged with it (found in the two-workload
 * experiment, where every trial after a collapse was aborted while the side still drained).
 * No clock of its own: time enters through {@link #tick}.
 */
public final class Tuner extends TunerBase {
    private static final Logger LOG = LoggerFactory.getLogger(Tuner.class);

    /** REFERENCE: an interleaved tuner measuring the best configuration between trials. */
    public enum State { BASELINE, SETTLING, MEASURING, REFERENCE, RECOVERING, MONITORING, STOPPED }

    /** One trial: its knob values, the two sides' mean utilities over what was measured, and how it ended. */
    public record Trial(int number, double[] values, double experimental, double safe, String outcome) {
    }

    /** The experimental side's knobs; the safe side's are {@link #knobs}. */
    private final KnobSet experimental;
    private double sumExp;
    private double sumSafe;
    private double sumGapSq; // Σ (uExp - uSafe)²: the paired differences' spread, for the noise of their mean
    private boolean extended; // the trial's period was extended once: a gain within the noise, measured again

    public Tuner(TuningSettings settings, KnobSet safe, KnobSet experimental, Random random) {
        this(settings, safe, experimental, random, 1);
    }

    /**
     * @param correlated how many consecutive ticks measure overlapping statistics windows (the window over the control
     *                   cycle): the period holds that many times fewer independent measurements than ticks
     */
    public Tuner(TuningSettings settings, KnobSet safe, KnobSet experimental, Random random, int correlated) {
        super(settings, safe, random, correlated);
        this.experimental = experimental;
    }

    /**
     * One control cycle.
     *
     * @param uSafe the safe side's measured utility (NaN without traffic)
     * @param uExp  the experimental side's
     */
    @Override
    public void tick(long now, double uSafe, double uExp) {
        if (state == State.STOPPED) {
            return;
        }
        if (phaseStart == Long.MIN_VALUE) {
            phaseStart = now;
        }
        long elapsed = now - phaseStart;
        switch (state) {
            case BASELINE -> baseline(now, elapsed, uSafe, uExp);
            case SETTLING -> {
                if (elapsed >= settings.settle().toNanos()) {
                    phase(State.MEASURING, now);
                }
            }
            case MEASURING -> measuring(now, elapsed, uSafe, uExp);
            case RECOVERING -> recovering(now, elapsed, uSafe, uExp);
            case MONITORING -> monitoring(now, elapsed, uSafe, uExp);
            default -> { }
        }
    }

    private void monitoring(long now, long elapsed, double uSafe, double uExp) {
        accumulate(uSafe, uExp);
        if (elapsed >= settings.period().toNanos() && samples > 0) {
            double level = sumSafe / samples;
            if (Double.isNaN(monitorLevel)) {
                monitorLevel = level;
            } else if (Math.abs(level - monitorLevel) > settings.drift() * Math.max(Math.abs(monitorLevel), 1e-9)) {
                LOG.info("tuning: the safe side's utility moved from {} to {} (beyond {}%): tuning again", fmt(monitorLevel),
                        fmt(level), Math.round(100 * settings.drift()));
                start(now);
                return;
            }
            phase(State.MONITORING, now);
        }
    }

    private void recovering(long now, long elapsed, double uSafe, double uExp) {
        boolean recovered = Double.isFinite(uSafe) && Double.isFinite(uExp) && uSafe - uExp <= settings.abortDrop();
        if (recovered || elapsed >= settings.period().toNanos()) {
            if (!recovered) {
                LOG.info("tuning: the experimental side is still {} below the safe side one period after an abort; trials go on",
                        fmt(uSafe - uExp));
            }
            nextTrial(now);
        }
    }

    private void measuring(long now, long elapsed, double uSafe, double uExp) {
        accumulate(uSafe, uExp);
        if (Double.isFinite(uSafe) && Double.isFinite(uExp) && uSafe - uExp > settings.abortDrop()) {
            // the sample that crossed the bound is what the log names: the period's means so far may not show it
            // (a trial read -0.552 against -0.613 on its means when one second fell 0.3 behind)
            end(now, String.format(Locale.ROOT, "aborted: %s below the safe side's %s by more than %s (means so far %s and %s)",
                    fmt(uExp), fmt(uSafe), fmt(settings.abortDrop()), fmt(sumExp / samples), fmt(sumSafe / samples)));
        } else if (elapsed >= settings.period().toNanos() && samples > 0) {
            end(now, null);
        }
    }

    private void baseline(long now, long elapsed, double uSafe, double uExp) {
        accumulate(uSafe, uExp);
        if (elapsed >= settings.period().toNanos() && samples > 0) {
            baselineUtility = sumSafe / samples;
            bestLevel = baselineUtility;
            try {
                best = knobs.readUnit();
                if (initial == null) {
                    initial = best.clone();
                    List<String> outside = knobs.outsideBounds();
                    if (!outside.isEmpty()) {
                        LOG.warn("tuning: the safe side runs {} outside the knobs' bounds; trials start from the nearest bound,"
                                + " which is also what Revert returns to (widen the bounds to include it)", outside);
                    }
                }
            } catch (Tunable.KnobException e) {
                LOG.warn("tuning: cannot read the safe side's knobs ({}); not tuning", e.getMessage());
                state = State.STOPPED;
                return;
            }
            strategy = newStrategy(best.clone());
            LOG.info("tuning: the safe side's utility before tuning {}; trials start from {}", fmt(baselineUtility),
                    Arrays.toString(values(best)));
            nextTrial(now);
        }
    }

    /** Starts tuning again now (from the best configuration), whatever the state. */
    @Override
    public void start(long now) {
        strategy = best == null ? null : newStrategy(best.clone());
        sinceImprovement = 0;
        monitorLevel = Double.NaN;
        if (strategy == null) {
            phase(State.BASELINE, now);
        } else {
            nextTrial(now);
        }
    }

    /** Stops tuning; both sides keep the best configuration (a trial under way ends unjudged, its side back on the best). */
    @Override
    public void stop() {
        if (state == State.SETTLING || state == State.MEASURING || state == State.RECOVERING) {
            restoreExperimental();
        }
        state = State.STOPPED;
        LOG.info("tuning: stopped; both sides on {}", Arrays.toString(values(best)));
    }

    /**
     * Stops tuning and puts both sides back on the configuration they had before tuning began (the operator's
     * one-click revert); that configuration is the best known from then on. False, with nothing changed, before
     * the first baseline (there is nothing to revert to) or when a side refuses it (that side's knobs are back
     * where they were, as {@link KnobSet} guarantees).
     */
    @Override
    public boolean revert() {
        if (initial == null) {
            return false;
        }
        try {
            knobs.applyUnit(initial);
            experimental.applyUnit(initial);
        } catch (Tunable.KnobException e) {
            LOG.warn("tuning: revert refused: {}", e.getMessage());
            return false;
        }
        best = initial.clone();
        state = State.STOPPED;
        LOG.info("tuning: reverted both sides to the configuration before tuning, {}", Arrays.toString(values(best)));
        return true;
    }

    /**
     * Puts both sides on a configuration found before (the best the console wrote back to the configuration file,
     * knob values in the knobs' order), so that a restart starts where tuning left off: the baseline then measures it,
     * and it is what a revert goes back to in this run.
     */
    @Override
    public void restore(double[] values) throws Tunable.KnobException {
        double[] unit = knobs.unit(values);
        knobs.applyUnit(unit);
        experimental.applyUnit(unit);
        LOG.info("tuning: both sides start from the best configuration written back before, {}", Arrays.toString(values));
    }

    private void nextTrial(long now) {
        pending = strategy.nextOtherThan(best, bestLevel, knobs); // the safe side runs the best all along
        try {
            experimental.applyUnit(pending);
        } catch (Tunable.KnobException e) {
            trials.add(new Trial(trials.size() + 1, values(pending), Double.NaN, Double.NaN, "knob failed: " + e.getMessage()));
            strategy.report(Double.NEGATIVE_INFINITY);
            phase(State.SETTLING, now); // the experimental side is back where it was; the next trial follows the settle time
            pending = null;
            return;
        }
        phase(State.SETTLING, now);
    }

    private void end(long now, String forced) {
        double mExp = sumExp / samples;
        double mSafe = sumSafe / samples;
        if (forced == null && !extended && mExp - mSafe > settings.minGain() && mExp - mSafe <= 2 * noise()) {
            // a gain beyond minGain but within the noise: one period more, pooled with this one, before judging (the
            // noise of the mean falls by √2, so a real gain a little under the noise is not lost to one short period)
            extended = true;
            phaseStart = now;
            LOG.debug("tuning: {} against {} within twice the noise {}: measuring another period", fmt(mExp), fmt(mSafe), fmt(noise()));
            return;
        }
        boolean pooled = extended;
        extended = false;
        double[] tried = pending;
        strategy.report(mExp);
        bestLevel = mSafe;
        String outcome;
        if (forced != null) {
            outcome = forced;
            restoreExperimental();
            sinceImprovement++;
        } else if (mExp - mSafe > settings.minGain() && mExp - mSafe <= 2 * noise()) {
            // by more than minGain, but not beyond the noise of the period's paired differences: 30 s of experiment
            // tuning's utility moves by ±0.01, and promotions on such gains walked the safe side around the optimum
            outcome = String.format(Locale.ROOT, "kept out: %s against %s (within twice the noise %s%s)", fmt(mExp), fmt(mSafe),
                    fmt(noise()), pooled ? " over two periods" : "");
            sinceImprovement++;
        } else if (mExp - mSafe > settings.minGain()) {
            try {
                knobs.applyUnit(tried);
                best = tried.clone();
                bestLevel = mExp;
                outcome = String.format(Locale.ROOT, "promoted: %s against %s%s", fmt(mExp), fmt(mSafe), pooled ? " over two periods" : "");
                sinceImprovement = 0;
            } catch (Tunable.KnobException e) {
                outcome = "better, but the safe side refused it: " + e.getMessage();
                restoreExperimental();
                sinceImprovement++;
            }
        } else {
            outcome = String.format(Locale.ROOT, "kept out: %s against %s", fmt(mExp), fmt(mSafe));
            sinceImprovement++;
        }
        Trial t = new Trial(trials.size() + 1, values(tried), mExp, mSafe, outcome);
        trials.add(t);
        LOG.info("tuning: trial {} {}: {}", t.number(), Arrays.toString(t.values()), outcome);
        if (sinceImprovement >= settings.stallTrials()) {
            restoreExperimental();
            LOG.info("tuning: {} trials without a gain: monitoring at {}", sinceImprovement, Arrays.toString(values(best)));
            phase(State.MONITORING, now);
            return;
        }
        if (forced != null) {
            phase(State.RECOVERING, now); // the experimental side is back on the best; the next trial waits for it to recover
            return;
        }
        nextTrial(now);
    }

    private void restoreExperimental() {
        try {
            experimental.applyUnit(best);
        } catch (Tunable.KnobException e) {
            LOG.warn("tuning: the experimental side could not go back to the best configuration: {}", e.getMessage());
        }
    }

    private void accumulate(double uSafe, double uExp) {
        if (Double.isFinite(uSafe) && Double.isFinite(uExp)) {
            sumSafe += uSafe;
            sumExp += uExp;
            sumGapSq += (uExp - uSafe) * (uExp - uSafe);
            samples++;
        }
    }

    /**
     * The standard error of the period's mean paired difference (experimental − safe): the differences' spread over
     * √(independent measurements), counting {@code correlated} consecutive ticks as one. 0 with fewer than two samples.
     */
    private double noise() {
        return Math.sqrt(meanVariance(sumExp - sumSafe, sumGapSq, samples, correlated));
    }

    /**
     * The squared standard error of a period's mean, from the sum and the sum of squares of its {@code n} ticks: their
     * spread over the independent measurements among them, {@code correlated} consecutive ticks counting as one (they
     * share a statistics window). 0 with fewer than two ticks. Shared with {@link InterleavedTuner}.
     */
    static double meanVariance(double sum, double sumSq, int n, int correlated) {
        if (n < 2) {
            return 0;
        }
        double mean = sum / n;
        double variance = Math.max(0, (sumSq - n * mean * mean) / (n - 1));
        return variance * Math.min(n, correlated) / n;
    }

    private void phase(State s, long now) {
        state = s;
        phaseStart = now;
        sumSafe = 0;
        sumExp = 0;
        sumGapSq = 0;
        samples = 0;
    }

}
