package io.slagate.experiment;

import java.util.List;

/**
 * The tuning experiment's arithmetic on its per-second series (rows of second, safe utility, experimental utility):
 * what the safe side lost while tuning ran, and what the experimental side's users paid.
 */
final class TuningFigures {
    /** The span over which a drop is judged: one second's utility is too noisy to blame on a trial. */
    static final int SPAN = 5;

    private TuningFigures() {
    }

    /** The lowest mean of column {@code col} over any {@value #SPAN} consecutive rows within [from, to); NaN if none. */
    static double worstSpanMean(List<double[]> series, double from, double to, int col) {
        double worst = Double.NaN;
        for (int i = 0; i + SPAN <= series.size(); i++) {
            if (series.get(i)[0] < from || series.get(i + SPAN - 1)[0] >= to) {
                continue;
            }
            double sum = 0;
            boolean finite = true;
            for (int j = i; j < i + SPAN; j++) {
                double v = series.get(j)[col];
                finite &= Double.isFinite(v);
                sum += v;
            }
            if (finite && !(sum / SPAN >= worst)) {
                worst = sum / SPAN;
            }
        }
        return worst;
    }

    /** How far the safe side's worst span mean over [from, to) fell below {@code level} (0 when it never did). */
    static double safeDrop(List<double[]> series, double from, double to, double level) {
        double worst = worstSpanMean(series, from, to, 1);
        return Double.isFinite(worst) ? Math.max(0, level - worst) : 0;
    }

    /** Seconds within [from, to) in which the experimental side's utility was below the safe side's. */
    static int secondsBelowSafe(List<double[]> series, double from, double to) {
        int n = 0;
        for (double[] x : series) {
            if (x[0] >= from && x[0] < to && Double.isFinite(x[1]) && Double.isFinite(x[2]) && x[2] < x[1]) {
                n++;
            }
        }
        return n;
    }

    /** The index of the largest value (the first of equals); −1 when none is finite. */
    static int best(double[] values) {
        int best = -1;
        for (int i = 0; i < values.length; i++) {
            if (Double.isFinite(values[i]) && (best < 0 || values[i] > values[best])) {
                best = i;
            }
        }
        return best;
    }

    /** Whether the tuned utility is within {@code margin} (a fraction of |best|) of the best. */
    static boolean within(double tuned, double best, double margin) {
        return tuned >= best - margin * Math.abs(best);
    }
}
