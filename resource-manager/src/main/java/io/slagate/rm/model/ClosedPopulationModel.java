package io.slagate.rm.model;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleUnaryOperator;

/**
 * A flow as a finite population of clients with think time sharing its w slots: the machine-repairman
 * model M/M/m//N (closed, product form), solved exactly for integer m and N and interpolated between
 * them. This is what the paper's own experiments are (closed-loop clients), and what M/M/1 gets wrong:
 * giving such a flow more slots raises its throughput, and with it its arrival rate.
 *
 * <p>Its inputs are measured, none configured. The gateway measures the flow's throughput X~, its
 * response time R~ and its service time S~ at the share w~ it had; the population N and think time
 * Z are those for which the model reproduces that measurement: Z = N/X~ − R~ (Little's law over the
 * whole loop) and R_model(N, Z, S~, w~) = R~, solved for N. A gateway cannot measure Z directly from
 * a transparent position: clients pool their connections, so the gap between two requests on one
 * connection is not any client's think time. Where no N reproduces the measurement (a flow that
 * does not queue for its slots tells nothing about its population), {@link #population} is null and
 * the prediction falls back to the open {@link ErlangCModel}. A forecast arrival rate does not enter: a
 * closed population's rate is what its share makes of it, not an input (the open fallback takes it).
 */
public final class ClosedPopulationModel implements ResponseTimeModel {
    /** Calibrated populations beyond this are open traffic for all practical purposes. */
    static final double MAX_CLIENTS = 5_000;
    /**
     * A calibrated population is at most this many times the clients in the system (X~·R~), i.e. the
     * think time at most three response times. Near a saturated share the calibration is ill-conditioned:
     * R_model(N) − R~ hardly moves with N, so a 1% noise in X~ finds thousands of clients with a long think
     * time, and those predict minutes for a share a tenth of a slot smaller (R(w) ≈ N·(S/w − 1/X~) + R~).
     * The correction takes the level from the measurement, so only the model's shape matters, and a
     * capped population keeps its shape sane. The paper's clients (Z = 1, R ≥ 1) are well inside it.
     */
    static final double POPULATION_CAP = 4;
    /**
     * A window whose busy slots X~·S~ exceed the share w~ cannot come from any population at that share:
     * the share changed during the window, or the flow is no closed population at all (an open flood).
     * No population is calibrated from it and the flow is treated as open ({@link ErlangCModel}), which
     * says the share cannot hold the load. That is safe in a flood: the share is not taken from the other
     * classes on a closed model's promise that the flood would slow itself down. (Calibrating the smallest
     * population, Z = 0, made a 6x flood of basic take premium's slots in FlashCrowdTest.) It is
     * pessimistic for closed-loop clients whose share just changed; their next window calibrates again.
     */
    static final double BUSY_BEYOND_SHARE = 1;
    private static final ErlangCModel OPEN = new ErlangCModel();

    /** A calibrated flow: N clients (real, interpolated), think time Z, service time S. */
    public record Population(double clients, double thinkSeconds, double serviceSeconds) {
    }

    /** Calibrations of the observations of the current decision (each is used for every candidate w). */
    private final Map<FlowObservation, Population> calibrated = new ConcurrentHashMap<>();
    private static final Population NOT_CLOSED = new Population(Double.NaN, Double.NaN, Double.NaN);

    @Override
    public String name() {
        return "closed";
    }

    @Override
    public double predictSeconds(FlowObservation o, double w) {
        Population p = population(o);
        if (p == null) {
            return OPEN.predictSeconds(o, w);
        }
        return responseSeconds(p, Math.max(w, 1e-3));
    }

    /**
     * The response-time quantile of the calibrated population, under FCFS with exponential service:
     * by the arrival theorem a request finds the station as the same system with N − 1 clients sees it
     * in equilibrium (π_{N−1}(j) clients there). Finding j < m it is served at once, R ~ Exp(1/S);
     * finding j ≥ m it first waits for j − m + 1 departures at rate m/S (an Erlang time), then is served.
     * P(R > x) mixes these over j and is solved for x. Fractional N and m interpolate as the mean does.
     */
    @Override
    public double predictQuantileSeconds(FlowObservation o, double w, double p) {
        Population pop = population(o);
        if (pop == null) {
            return OPEN.predictQuantileSeconds(o, w, p);
        }
        double m = Math.max(w, 1e-3);
        int n0 = (int) Math.floor(pop.clients());
        double fn = pop.clients() - n0;
        int m0 = (int) Math.floor(m);
        double fm = m - m0;
        double q00 = quantile(pop, Math.max(n0, 1), m0, m, p);
        double q01 = fm > 1e-9 ? quantile(pop, Math.max(n0, 1), m0 + 1, m, p) : q00;
        double qN0 = q00 + fm * (q01 - q00);
        if (fn < 1e-9) {
            return qN0;
        }
        double q10 = quantile(pop, n0 + 1, m0, m, p);
        double q11 = fm > 1e-9 ? quantile(pop, n0 + 1, m0 + 1, m, p) : q10;
        return qN0 + fn * (q10 + fm * (q11 - q10) - qN0);
    }

    private record QuantileKey(Population pop, int n, int m0, double m, double p) {
    }

    /** Quantiles of the current decisions' populations: each (N, m) is solved once per cycle, not per candidate. */
    private final Map<QuantileKey, Double> quantiles = new ConcurrentHashMap<>();

    private double quantile(Population pop, int n, int m0, double m, double p) {
        if (quantiles.size() > 10_000) {
            quantiles.clear();
        }
        return quantiles.computeIfAbsent(new QuantileKey(pop, n, m0, m0 < 1 ? m : m0, p),
                k -> exactQuantile(n, pop.thinkSeconds(), pop.serviceSeconds(), m0, m, p));
    }

    /** The p-quantile of M/M/m//N's response time (FCFS, exponential service), see {@link #predictQuantileSeconds}. */
    static double exactQuantile(int n, double z, double s, int m0, double m, double p) {
        if (m0 < 1) {
            return exactQuantile(n, z, s / Math.max(m, 1e-3), 1, 1, p);
        }
        // π_{N−1}(j): the station as an arriving client finds it
        double[] pi = new double[n];
        if (z <= 1e-12 * s) {
            pi[n - 1] = 1;
        } else {
            double ratio = s / z;
            double[] log = new double[n];
            double max = 0;
            for (int j = 1; j < n; j++) {
                log[j] = log[j - 1] + Math.log((n - 1 - j + 1) * ratio / Math.min(j, m0));
                max = Math.max(max, log[j]);
            }
            double total = 0;
            for (int j = 0; j < n; j++) {
                pi[j] = Math.exp(log[j] - max);
                total += pi[j];
            }
            for (int j = 0; j < n; j++) {
                pi[j] /= total;
            }
        }
        double mu = 1 / s;
        double a = m0 / s; // departures while all m slots are busy
        DoubleUnaryOperator tail = x -> {
            double t = 0;
            double served = Math.exp(-mu * x);
            int kMax = Math.max(0, n - 1 - m0 + 1);
            double[] below = poissonTerms(a * x, kMax + 1); // log P(Pois(ax) = i), i ≤ kMax
            double[] upper = m0 == 1 ? null : logUpperTail((a - mu) * x, kMax);
            double erlangTail = 0; // P(Erlang(k, a) > x) = Σ_{i<k} P(Pois(ax) = i)
            for (int j = 0; j < n; j++) {
                if (pi[j] < 1e-300) {
                    if (j >= m0) {
                        erlangTail += Math.exp(below[j - m0]);
                    }
                    continue;
                }
                if (j < m0) {
                    t += pi[j] * served;
                    continue;
                }
                int k = j - m0 + 1;
                erlangTail += Math.exp(below[k - 1]);
                double rest;
                if (m0 == 1) {
                    rest = Math.exp(below[k]); // Erlang(k + 1, μ) > x
                } else {
                    // ∫ f_W(u) e^{−μ(x−u)} du = e^{−μx} (a/(a−μ))^k P(Erlang(k, a−μ) ≤ x)
                    rest = Math.exp(-mu * x + k * Math.log(a / (a - mu)) + upper[k]);
                }
                t += pi[j] * Math.min(1, erlangTail + rest);
            }
            return t;
        };
        return Quantiles.solve(tail, 1 - p, s, UNSTABLE_SECONDS);
    }

    /** log P(Pois(λ) = i) for i = 0..last. */
    private static double[] poissonTerms(double lambda, int last) {
        double[] out = new double[last + 1];
        double logLambda = Math.log(Math.max(lambda, 1e-300));
        out[0] = -lambda;
        for (int i = 1; i <= last; i++) {
            out[i] = out[i - 1] + logLambda - Math.log(i);
        }
        return out;
    }

    /** log P(Pois(λ) ≥ k) for k = 0..kMax, summed from far enough above both kMax and λ that the rest is nil. */
    private static double[] logUpperTail(double lambda, int kMax) {
        int top = (int) Math.ceil(Math.max(kMax, lambda + 40 * Math.sqrt(lambda) + 40));
        double[] terms = poissonTerms(lambda, top);
        double[] out = new double[kMax + 1];
        double acc = Double.NEGATIVE_INFINITY;
        for (int i = top; i >= 0; i--) {
            double hi = Math.max(acc, terms[i]);
            acc = hi == Double.NEGATIVE_INFINITY ? hi : hi + Math.log(Math.exp(acc - hi) + Math.exp(terms[i] - hi));
            if (i <= kMax) {
                out[i] = acc;
            }
        }
        return out;
    }

    /** The population that reproduces {@code o}, or null when none does (then the flow is treated as open). */
    public Population population(FlowObservation o) {
        if (o.isEmpty() || !o.hasServiceTime() || !(o.throughput() > 0)) {
            return null;
        }
        if (calibrated.size() > 10_000) {
            calibrated.clear(); // observations change every cycle: keep only the recent ones
        }
        Population p = calibrated.computeIfAbsent(o, ClosedPopulationModel::calibrate);
        return p == NOT_CLOSED ? null : p;
    }

    private static Population calibrate(FlowObservation o) {
        double x = o.throughput();
        double r = o.responseSeconds();
        double s = o.serviceSeconds();
        double w = o.weight();
        double nMin = Math.max(x * r, 1e-6); // Z ≥ 0
        if (x * s > BUSY_BEYOND_SHARE * w) {
            return NOT_CLOSED;
        }
        // scan a geometric grid of N for a sign change of R_model − R~, then bisect
        double prevN = nMin;
        double prevG = g(prevN, x, r, s, w);
        if (Math.abs(prevG) <= 1e-6 * r) {
            return new Population(prevN, Math.max(0, prevN / x - r), s);
        }
        // beyond the cap a population is capped wherever its sign change lies: the grid coarsens there (a step of 1.5
        // rather than 1.05), and a change found there is not bisected. An open flow scans to MAX_CLIENTS, each step
        // O(N): at 1.05 all the way that cost a second per cycle at 100 gateways × 10 classes
        double cap = POPULATION_CAP * nMin;
        for (double n = nMin * 1.05; n <= MAX_CLIENTS; n *= prevN >= cap ? 1.5 : 1.05) {
            double gn = g(n, x, r, s, w);
            if (Math.signum(gn) != Math.signum(prevG)) {
                if (prevN >= cap) {
                    return capped(cap, r, s, w);
                }
                double lo = prevN;
                double hi = n;
                double glo = prevG;
                for (int i = 0; i < 60; i++) {
                    double mid = (lo + hi) / 2;
                    double gm = g(mid, x, r, s, w);
                    if (Math.signum(gm) == Math.signum(glo)) {
                        lo = mid;
                        glo = gm;
                    } else {
                        hi = mid;
                    }
                }
                double nStar = (lo + hi) / 2;
                if (nStar > POPULATION_CAP * nMin) {
                    return capped(POPULATION_CAP * nMin, r, s, w);
                }
                return new Population(nStar, nStar / x - r, s);
            }
            prevN = n;
            prevG = gn;
        }
        return NOT_CLOSED;
    }

    /**
     * The capped population with the think time that still reproduces R~ at w~ (the level the correction
     * starts from): R falls as Z grows, so Z is bisected on [0, N·S]; Z = 0 where even clients that never
     * think wait less than R~.
     */
    private static Population capped(double n, double r, double s, double w) {
        if (responseSeconds(new Population(n, 0, s), w) <= r) {
            return new Population(n, 0, s);
        }
        double lo = 0;
        double hi = Math.max(n * s, r);
        while (responseSeconds(new Population(n, hi, s), w) > r && hi < 1e6 * s) {
            hi *= 2;
        }
        for (int i = 0; i < 60; i++) {
            double mid = (lo + hi) / 2;
            if (responseSeconds(new Population(n, mid, s), w) > r) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return new Population(n, (lo + hi) / 2, s);
    }

    private static double g(double n, double x, double r, double s, double w) {
        return responseSeconds(new Population(n, n / x - r, s), w) - r;
    }

    /** Mean response time of the population at m slots, interpolated over fractional N and m. */
    public static double responseSeconds(Population p, double m) {
        int n0 = (int) Math.floor(p.clients());
        double fn = p.clients() - n0;
        int m0 = (int) Math.floor(m);
        double fm = m - m0;
        double r00 = exact(Math.max(n0, 1), p.thinkSeconds(), p.serviceSeconds(), m0, m);
        double r01 = fm > 1e-9 ? exact(Math.max(n0, 1), p.thinkSeconds(), p.serviceSeconds(), m0 + 1, m) : r00;
        double rN0 = r00 + fm * (r01 - r00);
        if (fn < 1e-9) {
            return rN0;
        }
        double r10 = exact(n0 + 1, p.thinkSeconds(), p.serviceSeconds(), m0, m);
        double r11 = fm > 1e-9 ? exact(n0 + 1, p.thinkSeconds(), p.serviceSeconds(), m0 + 1, m) : r10;
        double rN1 = r10 + fm * (r11 - r10);
        return rN0 + fn * (rN1 - rN0);
    }

    /**
     * M/M/m//N exactly: the number k of the N clients at the station has p_k / p_{k−1} =
     * (N − k + 1)·(S/Z) / min(k, m); throughput X = Σ p_k·min(k, m)/S and R = N/X − Z. Below one slot
     * (m0 = 0) the flow gets a fraction m of one: its service stretches by 1/m.
     */
    static double exact(int n, double z, double s, int m0, double m) {
        if (m0 < 1) {
            return exact(n, z, s / Math.max(m, 1e-3), 1, 1);
        }
        if (z <= 1e-12 * s) {
            return n * s / Math.min(n, m0); // every client always at the station
        }
        double ratio = s / z;
        double p = 1;
        double total = 1;
        double busy = 0;
        for (int k = 1; k <= n; k++) {
            double f = (n - k + 1) * ratio / Math.min(k, m0); // p_k / p_{k−1}: it only falls as k grows
            p = p * f;
            total += p;
            busy += p * Math.min(k, m0);
            if (total > 1e250) {
                p /= 1e250;
                total /= 1e250;
                busy /= 1e250;
            }
            // once the terms fall, the rest sums to less than p·f/(1 − f) (busy: m0 times that): stop where that is
            // below 1e-15 of both sums; a large population with few at the station (an open flow) needs tens of terms,
            // not thousands
            if (f < 1 && p * m0 < 1e-15 * (1 - f) * Math.min(total, busy)) {
                break;
            }
        }
        double throughput = busy / total / s;
        double r = n / throughput - z;
        return Math.min(Math.max(r, s), UNSTABLE_SECONDS);
    }
}
