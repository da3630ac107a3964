package io.slagate.rm.model;

import java.util.function.DoubleUnaryOperator;

/**
 * Open M/M/m (Erlang C): the flow's w slots are w servers, each taking a request for the measured
 * service time S~, fed by Poisson arrivals at the measured rate λ~ — the right model for open
 * clients, where the slots of a share work in parallel rather than as one fast server (M/M/1).
 * R(m) = S + C(m, a)·S/(m − a), a = λ~·S~ the offered load in slots, C the Erlang C probability of
 * waiting. A fractional share interpolates linearly between its neighbouring integers; one whose lower
 * integer is unstable while the share itself is not takes the heavy-traffic form S + S/(m − a).
 *
 * <p>Without a measured service time it falls back to {@link MM1Model}. Where m ≤ a (unstable) the
 * prediction is above {@link #UNSTABLE_SECONDS} and decreasing in m, so the least unstable share ranks best.
 */
public final class ErlangCModel implements ResponseTimeModel {
    private static final MM1Model FALLBACK = new MM1Model();

    @Override
    public String name() {
        return "mmm";
    }

    @Override
    public double predictSeconds(FlowObservation o, double w) {
        if (o.isEmpty() || !o.hasServiceTime()) {
            return FALLBACK.predictSeconds(o, w);
        }
        double s = o.serviceSeconds();
        double a = o.rateAhead() * s;
        double m = Math.max(w, 1e-3);
        int lo = (int) Math.floor(m);
        double frac = m - lo;
        if (frac > 1e-9 && lo <= a && a < m) {
            // stable, though its lower integer is not: interpolating towards that one's "unstable" predicted
            // minutes for shares a tenth of a slot below a stable one (found by the model-error WARN in experiment
            // C). Near saturation C → 1, and the heavy-traffic form S + S/(m − a) is continuous, falls with m, and
            // lies above the exact value at the next integer, so predictions stay non-increasing in m.
            return Math.min(s + s / (m - a), UNSTABLE_SECONDS);
        }
        double rLo = lo < 1 ? unstable(a, m) : responseSeconds(lo, a, s);
        if (frac < 1e-9) {
            return rLo;
        }
        double rHi = responseSeconds(lo + 1, a, s);
        return rLo + frac * (rHi - rLo);
    }

    /**
     * The response-time quantile of M/M/m under FCFS: a request waits with probability C, then for an
     * Exp(m/S − λ) time, and is served for an Exp(1/S) time, so P(R > x) = (1 − C)·e^{−x/S} + C·P(W' + S > x)
     * with W' and S independent exponentials. A fractional share interpolates between its neighbours;
     * an unstable or sub-slot share takes the exponential default on its mean.
     */
    @Override
    public double predictQuantileSeconds(FlowObservation o, double w, double p) {
        if (o.isEmpty() || !o.hasServiceTime()) {
            return FALLBACK.predictQuantileSeconds(o, w, p);
        }
        double s = o.serviceSeconds();
        double a = o.rateAhead() * s;
        double m = Math.max(w, 1e-3);
        int lo = (int) Math.floor(m);
        double frac = m - lo;
        if (lo < 1 || lo <= a) {
            return ResponseTimeModel.super.predictQuantileSeconds(o, w, p);
        }
        double qLo = quantile(lo, a, s, p);
        return frac < 1e-9 ? qLo : qLo + frac * (quantile(lo + 1, a, s, p) - qLo);
    }

    static double quantile(int m, double a, double s, double p) {
        double c = erlangC(m, a);
        double mu = 1 / s;
        double theta = m / s - a / s;
        DoubleUnaryOperator tail = x -> {
            double waitThenServe = Math.abs(theta - mu) < 1e-9 * mu ? (1 + mu * x) * Math.exp(-mu * x)
                    : (theta * Math.exp(-mu * x) - mu * Math.exp(-theta * x)) / (theta - mu);
            return (1 - c) * Math.exp(-mu * x) + c * waitThenServe;
        };
        return Quantiles.solve(tail, 1 - p, s, UNSTABLE_SECONDS);
    }

    /** Mean response time of M/M/m with offered load a and mean service s; above UNSTABLE when m ≤ a. */
    static double responseSeconds(int m, double a, double s) {
        if (m <= a) {
            return unstable(a, m);
        }
        double r = s + erlangC(m, a) * s / (m - a);
        return Math.min(r, UNSTABLE_SECONDS);
    }

    private static double unstable(double a, double m) {
        return UNSTABLE_SECONDS * (1 + Math.max(0, a - m + 1));
    }

    /**
     * The probability of waiting in M/M/m, from the Erlang B recursion (stable for any m), in O(√a) steps rather than
     * O(m) for large shares: where m exceeds a by more than 10√a + 30 slots the probability is below 1e-20 (the
     * queue's Gaussian tail, e^(−β²/2) at β = 10), so 0; and the recursion starts 10√a + 30 slots below a, from the
     * fluid value B ≈ 1 − k/a, whose error the recursion contracts by k/a per step (to under e^−50 by k = a). The
     * capacity search and the optimizer ask for shares of thousands of slots; the full recursion made each ask cost that
     * many steps.
     */
    static double erlangC(int m, double a) {
        double margin = 10 * Math.sqrt(a) + 30;
        if (m - a > margin) {
            return 0;
        }
        int start = (int) Math.max(0, Math.floor(a - margin));
        double b = start == 0 ? 1 : 1 - start / a;
        for (int k = start + 1; k <= m; k++) {
            b = a * b / (k + a * b);
        }
        return m * b / (m - a * (1 - b));
    }
}
