package io.slagate.rm.tune;

import java.util.Random;

/**
 * Hill climbing as the multi-tier auto-tuning thesis tunes online (§6.1): from the best point so far, a step along
 * one knob at a time, up or down; a step that improves is kept and the same move tried again, one that does not is
 * undone and the next knob tried; when no single step improves, the step halves. Randomness only from the given
 * source (which knob to start from).
 */
public final class HillClimb implements SearchStrategy {
    private final int d;
    private final double minStep;
    private double step;
    private double[] best;
    private double bestValue = Double.NEGATIVE_INFINITY;
    private double[] pending;
    private int knob;
    private int direction = 1;
    private int triedSinceImprovement;

    public HillClimb(double[] start, double step, double minStep, Random random) {
        this.d = start.length;
        this.step = step;
        this.minStep = minStep;
        this.best = NelderMead.clamp(start.clone());
        this.knob = d == 0 ? 0 : random.nextInt(d);
    }

    @Override
    public double[] next() {
        if (bestValue == Double.NEGATIVE_INFINITY) {
            pending = best.clone(); // measure the start first
            return pending.clone();
        }
        pending = best.clone();
        pending[knob] = Math.max(0, Math.min(1, pending[knob] + direction * step));
        return pending.clone();
    }

    @Override
    public void report(double value) {
        if (Double.isNaN(value)) {
            value = Double.NEGATIVE_INFINITY;
        }
        if (value > bestValue) {
            boolean first = bestValue == Double.NEGATIVE_INFINITY;
            bestValue = value;
            best = pending.clone();
            if (!first) {
                triedSinceImprovement = 0;
                return; // the same move again
            }
            return;
        }
        // no better: the other direction, then the next knob; a full round without gain halves the step
        if (direction > 0) {
            direction = -1;
        } else {
            direction = 1;
            knob = (knob + 1) % Math.max(1, d);
        }
        if (++triedSinceImprovement >= 2 * d) {
            triedSinceImprovement = 0;
            step = Math.max(minStep, step / 2);
        }
    }

    @Override
    public double[] best() {
        return best.clone();
    }

    @Override
    public double bestValue() {
        return bestValue;
    }
}
