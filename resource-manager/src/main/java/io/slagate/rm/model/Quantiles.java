package io.slagate.rm.model;

import java.util.function.DoubleUnaryOperator;

/** Solving a distribution's tail for a quantile. */
final class Quantiles {
    private Quantiles() {
    }

    /**
     * The x ≥ 0 with {@code tail(x) = share}, for a tail P(R > x) that falls from 1 toward 0: the
     * bracket grows from {@code scale} by doubling (capped at {@code cap}, returned when the tail is
     * still above {@code share} there), then bisection to a relative 1e-9.
     */
    static double solve(DoubleUnaryOperator tail, double share, double scale, double cap) {
        double hi = Math.max(scale, 1e-9);
        while (tail.applyAsDouble(hi) > share) {
            if (hi >= cap) {
                return cap;
            }
            hi = Math.min(cap, hi * 2);
        }
        double lo = 0;
        for (int i = 0; i < 100 && hi - lo > 1e-9 * hi; i++) {
            double mid = (lo + hi) / 2;
            if (tail.applyAsDouble(mid) > share) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }
}
