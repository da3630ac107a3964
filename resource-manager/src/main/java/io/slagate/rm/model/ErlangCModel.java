package io.slagate.rm.model;

/**
 * Open M/M/m (Erlang C): the flow's w slots are w servers, each taking a request for the measured
 * service time S~, fed by Poisson arrivals at the measured rate λ~ — the right model for open
 * clients, where the slots of a share work in parallel rather than as one fast server (M/M/1).
 * R(m) = S + C(m, a)·S/(m − a), a = λ~·S~ the offered load in slots, C the Erlang C probability of
 * waiting. A fractional share interpolates linearly between its neighbouring integers.
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
        double a = o.arrivalRate() * s;
        double m = Math.max(w, 1e-3);
        int lo = (int) Math.floor(m);
        double frac = m - lo;
        double rLo = lo < 1 ? unstable(a, m) : responseSeconds(lo, a, s);
        if (frac < 1e-9) {
            return rLo;
        }
        double rHi = responseSeconds(lo + 1, a, s);
        return rLo + frac * (rHi - rLo);
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

    /** The probability of waiting in M/M/m, from the Erlang B recursion (stable for any m). */
    static double erlangC(int m, double a) {
        double b = 1;
        for (int k = 1; k <= m; k++) {
            b = a * b / (k + a * b);
        }
        return m * b / (m - a * (1 - b));
    }
}
