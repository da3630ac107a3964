package io.slagate.rm.tune;

import io.slagate.config.TuningSettings;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Online tuning without a safe side, for knobs no side can be spared: the controller's own (Γ, damping,
 * weight resolution, model) act on every pool at once. Run only where the operator said so ({@code interleaved: true}).
 * Trials alternate in time with the best configuration: reference, trial, reference, trial, … each period after a settle
 * time. A trial is judged against the mean of the reference periods just before and just after it, so a load that
 * drifts steadily over the three periods cancels out (an A-B-A design); it is promoted when it beats that mean by
 * {@code minGain} and by twice the gain's standard error (from the three periods' spreads, ticks that share a
 * statistics window counted once: a reference period moved by ±0.05 in the controller experiment, and a fixed
 * {@code minGain} promoted on that noise). It is left unjudged when the two references differ by more than
 * {@code abortDrop} (the load collapsed or recovered under it, and their mean is no reference), and aborted at once
 * when a cycle of it falls below the reference before it by more than {@code abortDrop} (all traffic runs it, so the
 * bound is what users may lose, for at most one cycle). The strategy is told each trial's utility on one scale: its
 * gain over the references plus the best configuration's level, so a drifting load does not reorder the simplex. Half
 * of the time runs the best configuration; that is the price of having no safe side. No clock of its own: time enters through {@link #tick}.
 */
public final class InterleavedTuner extends TunerBase {
    private static final Logger LOG = LoggerFactory.getLogger(InterleavedTuner.class);

    /** What SETTLING leads to: a trial's MEASURING, or the best configuration's REFERENCE. */
    private Tuner.State afterSettle;
    private double sum;
    private double sumSq;
    /** The squared standard errors of the reference period before the trial, and of the trial's period. */
    private double refBeforeVar;
    private double trialVar;
    /** The mean utility of the last reference period (the best configuration, just before the trial under way). */
    private double refBefore = Double.NaN;
    /** The trial waiting for the reference period after it, and what it measured (NaN: none waits). */
    private double trialMean = Double.NaN;

    /** With ticks that each measure their own statistics window. */
    public InterleavedTuner(TuningSettings settings, KnobSet knobs, Random random) {
        this(settings, knobs, random, 1);
    }

    /** @param correlated how many consecutive ticks measure overlapping statistics windows (window / control cycle) */
    public InterleavedTuner(TuningSettings settings, KnobSet knobs, Random random, int correlated) {
        super(settings, knobs, random, correlated);
        if (!settings.interleaved()) {
            throw new IllegalArgumentException("partition " + settings.partition() + " is not interleaved: tuning without a safe "
                    + "side needs the operator's interleaved: true");
        }
    }

    /** @param u all traffic's measured utility (NaN without traffic); {@code ignored}: there is no second side */
    @Override
    public void tick(long now, double u, double ignored) {
        if (state == Tuner.State.STOPPED) {
            return;
        }
        if (phaseStart == Long.MIN_VALUE) {
            phaseStart = now;
        }
        long elapsed = now - phaseStart;
        switch (state) {
            case BASELINE -> baseline(now, elapsed, u);
            case SETTLING -> {
                if (elapsed >= settings.settle().toNanos()) {
                    phase(afterSettle, now);
                }
            }
            case MEASURING -> measuring(now, elapsed, u);
            case REFERENCE -> reference(now, elapsed, u);
            case MONITORING -> monitoring(now, elapsed, u);
            default -> { }
        }
    }

    private void monitoring(long now, long elapsed, double u) {
        accumulate(u);
        if (elapsed >= settings.period().toNanos() && samples > 0) {
            double level = sum / samples;
            if (Double.isNaN(monitorLevel)) {
                monitorLevel = level;
            } else if (Math.abs(level - monitorLevel) > settings.drift() * Math.max(Math.abs(monitorLevel), 1e-9)) {
                LOG.info("tuning {}: the utility moved from {} to {} (beyond {}%): tuning again", settings.partition(),
                        fmt(monitorLevel), fmt(level), Math.round(100 * settings.drift()));
                refBefore = level;
                refBeforeVar = meanVariance();
                strategy = newStrategy(best.clone());
                sinceImprovement = 0;
                monitorLevel = Double.NaN;
                nextTrial(now);
                return;
            }
            phase(Tuner.State.MONITORING, now);
        }
    }

    private void reference(long now, long elapsed, double u) {
        accumulate(u);
        if (elapsed >= settings.period().toNanos() && samples > 0) {
            double refAfter = sum / samples;
            double refAfterVar = meanVariance();
            if (!Double.isNaN(trialMean)) {
                judge(now, refAfter, refAfterVar);
                return;
            }
            refBefore = refAfter;
            refBeforeVar = refAfterVar;
            afterReference(now);
        }
    }

    private void measuring(long now, long elapsed, double u) {
        accumulate(u);
        if (Double.isFinite(u) && refBefore - u > settings.abortDrop()) {
            double mean = sum / samples;
            strategy.report(mean - refBefore + bestLevel);
            record(mean, refBefore, String.format(Locale.ROOT, "aborted: %s against the reference's %s (bound %s)",
                    fmt(u), fmt(refBefore), fmt(settings.abortDrop())));
            sinceImprovement++;
            backToBest(now); // the reference after it measures the recovery, and is the next trial's reference
        } else if (elapsed >= settings.period().toNanos() && samples > 0) {
            trialMean = sum / samples;
            trialVar = meanVariance();
            backToBest(now);
        }
    }

    private void baseline(long now, long elapsed, double u) {
        accumulate(u);
        if (elapsed >= settings.period().toNanos() && samples > 0) {
            baselineUtility = sum / samples;
            try {
                best = knobs.readUnit();
            } catch (Tunable.KnobException e) {
                LOG.warn("tuning {}: cannot read the knobs ({}); not tuning", settings.partition(), e.getMessage());
                state = Tuner.State.STOPPED;
                return;
            }
            if (initial == null) {
                initial = best.clone();
            }
            bestLevel = baselineUtility;
            refBefore = baselineUtility;
            refBeforeVar = meanVariance();
            strategy = newStrategy(best.clone());
            LOG.info("tuning {} (interleaved, no safe side): utility before tuning {}; trials start from {}",
                    settings.partition(), fmt(baselineUtility), Arrays.toString(values(best)));
            nextTrial(now);
        }
    }

    /** The trial's period and the reference periods on either side of it are in: promote it or keep it out. */
    private void judge(long now, double refAfter, double refAfterVar) {
        double reference = (refBefore + refAfter) / 2;
        double gain = trialMean - reference;
        double noise = Math.sqrt(trialVar + (refBeforeVar + refAfterVar) / 4);
        // References that disagree by more than a trial may cost: the load collapsed (or recovered) under the trial, and
        // their mean says nothing of it (a near-saturated load's collapse in one reference period promoted the trial
        // beside it). The strategy hears the trial against the better reference, the level the trial surely did not beat.
        double referencesApart = Math.abs(refAfter - refBefore);
        boolean unjudged = referencesApart > settings.abortDrop();
        strategy.report((unjudged ? trialMean - Math.max(refBefore, refAfter) : gain) + bestLevel);
        double[] tried = pending;
        double measured = trialMean;
        trialMean = Double.NaN;
        refBefore = refAfter;
        refBeforeVar = refAfterVar;
        if (unjudged) {
            record(measured, reference, String.format(Locale.ROOT, "unjudged: the references on either side of it differ by %s, "
                    + "more than abortDrop %s", fmt(referencesApart), fmt(settings.abortDrop())));
            sinceImprovement++;
        } else if (gain > settings.minGain() && gain <= 2 * noise) {
            record(measured, reference, String.format(Locale.ROOT, "kept out: %s against the references' %s (within twice the "
                    + "noise %s)", fmt(measured), fmt(reference), fmt(noise)));
            sinceImprovement++;
        } else if (gain > settings.minGain()) {
            try {
                knobs.applyUnit(tried);
                best = tried.clone();
                bestLevel += gain;
                sinceImprovement = 0;
                record(measured, reference, String.format(Locale.ROOT, "promoted: %s against the references' %s", fmt(measured),
                        fmt(reference)));
                // the new best's own level is measured before the next trial is judged against it
                afterSettle = Tuner.State.REFERENCE;
                phase(Tuner.State.SETTLING, now);
                return;
            } catch (Tunable.KnobException e) {
                record(measured, reference, "better, but its knobs refused it: " + e.getMessage());
                sinceImprovement++;
            }
        } else {
            record(measured, reference, String.format(Locale.ROOT, "kept out: %s against the references' %s", fmt(measured),
                    fmt(reference)));
            sinceImprovement++;
        }
        afterReference(now);
    }

    /** After a reference period: the next trial, or monitoring once the gain stalled. */
    private void afterReference(long now) {
        if (sinceImprovement >= settings.stallTrials()) {
            LOG.info("tuning {}: {} trials without a gain: monitoring at {}", settings.partition(), sinceImprovement,
                    Arrays.toString(values(best)));
            monitorLevel = Double.NaN;
            phase(Tuner.State.MONITORING, now);
            return;
        }
        nextTrial(now);
    }

    private void nextTrial(long now) {
        pending = strategy.nextOtherThan(best, bestLevel, knobs); // the reference periods measure the best
        try {
            knobs.applyUnit(pending);
        } catch (Tunable.KnobException e) {
            record(Double.NaN, Double.NaN, "knob failed: " + e.getMessage());
            strategy.report(Double.NEGATIVE_INFINITY);
            sinceImprovement++;
            afterSettle = Tuner.State.REFERENCE; // the knobs are back on the best: measure it again before the next trial
            phase(Tuner.State.SETTLING, now);
            return;
        }
        afterSettle = Tuner.State.MEASURING;
        phase(Tuner.State.SETTLING, now);
    }

    /** Puts the best configuration back and measures it after the settle time. */
    private void backToBest(long now) {
        try {
            knobs.applyUnit(best);
        } catch (Tunable.KnobException e) {
            LOG.warn("tuning {}: could not go back to the best configuration: {}", settings.partition(), e.getMessage());
        }
        afterSettle = Tuner.State.REFERENCE;
        phase(Tuner.State.SETTLING, now);
    }

    private void record(double trial, double reference, String outcome) {
        Tuner.Trial t = new Tuner.Trial(trials.size() + 1, values(pending), trial, reference, outcome);
        trials.add(t);
        LOG.info("tuning {}: trial {} {}: {}", settings.partition(), t.number(), Arrays.toString(t.values()), outcome);
    }

    @Override
    public void start(long now) {
        trialMean = Double.NaN;
        sinceImprovement = 0;
        monitorLevel = Double.NaN;
        if (best == null) {
            phase(Tuner.State.BASELINE, now);
            return;
        }
        strategy = newStrategy(best.clone());
        backToBest(now); // a fresh reference first: the last one may be old
    }

    @Override
    public void stop() {
        if (state == Tuner.State.SETTLING || state == Tuner.State.MEASURING) {
            try {
                if (best != null) {
                    knobs.applyUnit(best);
                }
            } catch (Tunable.KnobException e) {
                LOG.warn("tuning {}: could not go back to the best configuration: {}", settings.partition(), e.getMessage());
            }
        }
        trialMean = Double.NaN;
        state = Tuner.State.STOPPED;
        LOG.info("tuning {}: stopped; on {}", settings.partition(), Arrays.toString(values(best)));
    }

    @Override
    public boolean revert() {
        if (initial == null) {
            return false;
        }
        try {
            knobs.applyUnit(initial);
        } catch (Tunable.KnobException e) {
            LOG.warn("tuning {}: revert refused: {}", settings.partition(), e.getMessage());
            return false;
        }
        best = initial.clone();
        trialMean = Double.NaN;
        state = Tuner.State.STOPPED;
        LOG.info("tuning {}: reverted to the configuration before tuning, {}", settings.partition(), Arrays.toString(values(best)));
        return true;
    }

    @Override
    public void restore(double[] values) throws Tunable.KnobException {
        double[] unit = knobs.unit(values);
        knobs.applyUnit(unit);
        LOG.info("tuning {}: knobs put on {} (the best written back before, or an experiment's comparison)", settings.partition(),
                Arrays.toString(values));
    }

    private void accumulate(double u) {
        if (Double.isFinite(u)) {
            sum += u;
            sumSq += u * u;
            samples++;
        }
    }

    /** The squared standard error of the period's mean so far. */
    private double meanVariance() {
        return Tuner.meanVariance(sum, sumSq, samples, correlated);
    }

    private void phase(Tuner.State s, long now) {
        state = s;
        phaseStart = now;
        sum = 0;
        sumSq = 0;
        samples = 0;
    }

}
