package io.slagate.rm.tune;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Nelder–Mead's simplex, as Active Harmony searches a cluster's parameters (Chung &amp; Hollingsworth §III):
 * d + 1 points; each step reflects the worst through the centroid of the others, expands a reflection that
 * became the best, contracts one that did not improve, and shrinks the simplex toward the best when even the
 * contraction fails. Points are clamped to the unit cube (a knob's bounds), and a simplex that has shrunk below
 * {@code tolerance} starts again around the best point (Active Harmony's restart on convergence), so the search
 * keeps following a changing workload.
 */
public final class NelderMead implements SearchStrategy {
    private enum Phase { INITIAL, REFLECT, EXPAND, CONTRACT, SHRINK }

    private final int d;
    private final double[] step;
    private final double tolerance;
    private double[][] simplex;
    private double[] values;
    private int filled;
    private Phase phase = Phase.INITIAL;
    private double[] pending;
    private double[] reflected;
    private double reflectedValue;
    private int shrinkIndex;
    private double[] best;
    private double bestValue = Double.NEGATIVE_INFINITY;

    /**
     * @param start     the starting point (the configuration in force), in [0, 1]^d
     * @param step      the initial simplex's edge, as a share of each knob's range
     * @param tolerance a simplex smaller than this (largest distance from the best) restarts around the best
     */
    public NelderMead(double[] start, double step, double tolerance) {
        this(start, filled(start.length, step), tolerance);
    }

    /** @param step the initial simplex's edge along each knob, as a share of its range */
    public NelderMead(double[] start, double[] step, double tolerance) {
        if (start.length < 1 || step.length != start.length) {
            throw new IllegalArgumentException("a simplex needs at least one knob, and one step per knob");
        }
        this.d = start.length;
        this.step = step.clone();
        this.tolerance = tolerance;
        initial(clamp(start.clone()));
    }

    private void initial(double[] around) {
        simplex = new double[d + 1][];
        values = new double[d + 1];
        simplex[0] = around;
        for (int i = 0; i < d; i++) {
            double[] p = around.clone();
            // step up, or down where up would leave the cube
            p[i] = around[i] + step[i] <= 1 ? around[i] + step[i] : around[i] - step[i];
            simplex[i + 1] = clamp(p);
        }
        filled = 0;
        phase = Phase.INITIAL;
    }

    private static double[] filled(int n, double v) {
        double[] a = new double[n];
        Arrays.fill(a, v);
        return a;
    }

    @Override
    public double[] next() {
        switch (phase) {
            case INITIAL -> pending = simplex[filled];
            case REFLECT -> {
                sort();
                if (size() < tolerance) {
                    initial(simplex[0].clone()); // converged: a fresh simplex around the best
                    pending = simplex[0];
                } else {
                    reflected = toward(centroid(), simplex[d], -1);
                    pending = reflected;
                }
            }
            case EXPAND -> pending = toward(centroid(), simplex[d], -2);
            case CONTRACT -> pending = toward(centroid(), simplex[d], 0.5);
            case SHRINK -> pending = toward(simplex[0], simplex[shrinkIndex], 0.5);
        }
        return pending.clone();
    }

    @Override
    public void report(double value) {
        if (Double.isNaN(value)) {
            value = Double.NEGATIVE_INFINITY; // a failed measurement is the worst outcome, never a silent success
        }
        if (value > bestValue) {
            bestValue = value;
            best = pending.clone();
        }
        switch (phase) {
            case INITIAL -> {
                values[filled++] = value;
                if (filled == d + 1) {
                    phase = Phase.REFLECT;
                }
            }
            case REFLECT -> {
                reflectedValue = value;
                if (value > values[0]) {
                    phase = Phase.EXPAND;
                } else if (value > values[d - 1]) {
                    replaceWorst(reflected, value);
                } else {
                    phase = Phase.CONTRACT;
                }
            }
            case EXPAND -> {
                if (value > reflectedValue) {
                    replaceWorst(pending, value);
                } else {
                    replaceWorst(reflected, reflectedValue);
                }
            }
            case CONTRACT -> {
                if (value > values[d]) {
                    replaceWorst(pending, value);
                } else {
                    shrinkIndex = 1;
                    phase = Phase.SHRINK;
                }
            }
            case SHRINK -> {
                simplex[shrinkIndex] = pending;
                values[shrinkIndex] = value;
                shrinkIndex++;
                if (shrinkIndex > d) {
                    phase = Phase.REFLECT;
                }
            }
        }
    }

    private void replaceWorst(double[] p, double v) {
        simplex[d] = p;
        values[d] = v;
        phase = Phase.REFLECT;
    }

    /** Best first. */
    private void sort() {
        Integer[] order = new Integer[d + 1];
        for (int i = 0; i <= d; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> values[i]).reversed());
        double[][] s = new double[d + 1][];
        double[] v = new double[d + 1];
        for (int i = 0; i <= d; i++) {
            s[i] = simplex[order[i]];
            v[i] = values[order[i]];
        }
        simplex = s;
        values = v;
    }

    private double[] centroid() {
        double[] c = new double[d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                c[j] += simplex[i][j] / d;
            }
        }
        return c;
    }

    /** from + t·(to − from), clamped. */
    private static double[] toward(double[] from, double[] to, double t) {
        double[] p = new double[from.length];
        for (int j = 0; j < p.length; j++) {
            p[j] = from[j] + t * (to[j] - from[j]);
        }
        return clamp(p);
    }

    private double size() {
        double m = 0;
        for (int i = 1; i <= d; i++) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                s += (simplex[i][j] - simplex[0][j]) * (simplex[i][j] - simplex[0][j]);
            }
            m = Math.max(m, Math.sqrt(s));
        }
        return m;
    }

    static double[] clamp(double[] p) {
        for (int j = 0; j < p.length; j++) {
            p[j] = Math.max(0, Math.min(1, Double.isFinite(p[j]) ? p[j] : 0.5));
        }
        return p;
    }

    @Override
    public double[] best() {
        return best == null ? null : best.clone();
    }

    @Override
    public double bestValue() {
        return bestValue;
    }
}
