package io.slagate.rm.limit;

import java.util.Locale;

/**
 * The knee search's last change of N_s and what the window before it measured, so that the next settled window can
 * judge it: whether it bought its throughput ({@link #paid}), and whether a probe cost a class its utility
 * ({@link #utilityDrop}).
 */
final class LastStep {
    /** What the last change was. */
    enum Step { NONE, GROW, PLATEAU, PROBE, CUT }

    private Step step = Step.NONE;
    private int fromLimit; // N_s before the last change, and what its window measured
    private double fromThroughput;
    private double[] fromUtilities = new double[0];

    /** A change from {@code fromLimit}, whose window measured {@code s}. */
    void record(Step next, int fromLimit, ConcurrencyLimit.Sample s) {
        this.step = next;
        this.fromLimit = fromLimit;
        this.fromThroughput = s.throughput();
        this.fromUtilities = s.utilities() == null ? new double[0] : s.utilities().clone();
    }

    /** No change to judge next time (N_s held). */
    void clear() {
        step = Step.NONE;
    }

    Step step() {
        return step;
    }

    int fromLimit() {
        return fromLimit;
    }

    double fromThroughput() {
        return fromThroughput;
    }

    /** Whether the step from {@code fromLimit} to {@code limit} bought at least {@code efficiency} of its proportional gain. */
    boolean paid(int limit, double x, double efficiency) {
        return x >= fromThroughput * (1 + efficiency * ((double) limit / fromLimit - 1));
    }

    /** The class whose measured utility fell most since the step, if by more than {@code bound}; else null. */
    String utilityDrop(double[] now, double bound) {
        int worst = -1;
        double drop = bound;
        for (int i = 0; i < Math.min(now.length, fromUtilities.length); i++) {
            double d = fromUtilities[i] - now[i];
            if (Double.isFinite(d) && d > drop) {
                drop = d;
                worst = i;
            }
        }
        return worst < 0 ? null : String.format(Locale.ROOT, "class %d's utility by %.3f (%.3f → %.3f)", worst, drop,
                fromUtilities[worst], now[worst]);
    }
}
