package io.slagate.rm.limit;

import java.util.Locale;

/**
 * N_s at the knee of the server's throughput against the requests it executes, found online. The knee
 * is where the line N·X(1) meets the plateau X_max (the operational-analysis knee of experiment A,
 * Fig. 7): K = X_max · S_0, with S_0 the service time of a server that does not queue. Both are
 * measured, never configured:
 *
 * <ul>
 *   <li><b>S_0, the baseline</b>: the service time of windows that cannot be queueing (below any knee known),
 *       averaged — a running minimum of noisy windows would only fall, and drag the knee down with it; a
 *       window a tenth faster replaces it. A start above the knee has never seen it, so the first window
 *       runs at {@code min} to measure it (one window of reduced capacity at start, as
 *       Envoy's adaptive concurrency measures its minimum RTT). When a cut of N by a fifth or more does not
 *       shorten the service time, the server is slower, not queueing (a slow database, a GC storm): the
 *       baseline becomes the new service time, so the limit does not drift down and stay there;</li>
 *   <li><b>saturated</b> (the service time above S_0 by {@value #SATURATED}, with demand): the server queues
 *       internally, its throughput is X_max, and K = X·S_0. N_s goes to K·(1 + {@value #HEADROOM}), a small
 *       queue that keeps the server busy;</li>
 *   <li><b>not queueing</b> (within {@value #FLAT} of S_0) while the gateways' queues hold requests: below
 *       any knee known, N_s grows by half (slow start); at the target, by a tenth (a probe: the knee may have
 *       moved up). A probe that the next window refutes (saturated: back to the knee) doubles the windows to
 *       wait before the next one, up to {@value #MAX_PROBE_WAIT}; one that holds resets the wait. Between the
 *       two thresholds it holds, so that it does not oscillate around the knee;</li>
 *   <li><b>no demand</b> (nothing waits and fewer than nine tenths of N_s execute): it holds — an idle
 *       server says nothing about its knee.</li>
 * </ul>
 *
 * It acts only on windows that reflect the N_s in force: {@code settleCycles} cycles after the requests
 * executing came within it, after each change.
 */
public final class KneeLimit implements ConcurrencyLimit {
    static final double SATURATED = 0.15;
    static final double FLAT = 0.05;
    static final double HEADROOM = 0.1;
    /** The knee estimate's smoothing (weight of the newest saturated window). */
    static final double SMOOTHING = 0.5;
    /** Windows with at most this share of the knee executing refine the baseline. */
    static final double BELOW_KNEE = 0.8;
    /** A window this much faster than the baseline replaces it at once. */
    static final double DROP = 0.1;
    /** The most settled windows between two probes up after refuted ones. */
    static final int MAX_PROBE_WAIT = 32;

    private final int min;
    private final int max;
    private final int settleCycles;
    private int limit;
    private int resumeAt; // the start value, restored once the baseline is measured (0: not probing)
    private int cyclesAtLimit;
    private double baseline = Double.NaN;
    private double knee = Double.NaN;
    private int previousLimit;
    private double previousService = Double.NaN;
    private String reason = "start";
    private boolean probing; // the last change was a probe up at the knee
    private int probeWait = 1; // settled windows to wait before the next probe
    private int windowsSinceProbe;

    /** @param settleCycles control cycles for the statistics window to reflect a new N_s */
    public KneeLimit(int min, int max, int start, int settleCycles) {
        if (min < 1 || max < min || start < min || start > max || settleCycles < 1) {
            throw new IllegalArgumentException("need 1 ≤ min ≤ start ≤ max and settleCycles ≥ 1");
        }
        this.min = min;
        this.max = max;
        this.settleCycles = settleCycles;
        if (start > min) {
            limit = min;
            resumeAt = start;
            reason = "measuring the baseline service time at N_s = " + min + " before the start value " + start;
        } else {
            limit = start;
        }
    }

    @Override
    public int update(Sample s) {
        if (s.inUse() > limit) {
            // the gateways still execute more than N_s (a cut not yet applied, or requests admitted under the
            // old N_s still running): the window describes the old N_s; count from when they are within it
            cyclesAtLimit = 0;
            reason = "waiting for the gateways to be within N_s (" + s.inUse() + " executing)";
            return limit;
        }
        cyclesAtLimit++;
        if (cyclesAtLimit < settleCycles || !(s.throughput() > 0) || !(s.serviceSeconds() > 0)) {
            return limit;
        }
        double service = s.serviceSeconds();
        if (Double.isNaN(baseline) || service < (1 - DROP) * baseline) {
            baseline = service; // the first, or a real drop (a faster server)
        } else if (service <= (1 + FLAT) * baseline && (Double.isNaN(knee) || s.inUse() <= BELOW_KNEE * knee)) {
            // refined by averaging windows that cannot be queueing (below any knee known): a running minimum of
            // noisy windows only falls and drags the knee down with it; windows near the knee would drag it up
            baseline = (1 - SMOOTHING / 2) * baseline + SMOOTHING / 2 * service;
        }
        if (resumeAt > 0) {
            int start = resumeAt;
            resumeAt = 0;
            return change(start, String.format(Locale.ROOT, "baseline service time %.4f s measured; back to the start value", baseline), s);
        }
        boolean demand = s.waiting() > 0 || s.inUse() >= 0.9 * limit;
        if (!demand) {
            reason = "no demand: holding";
            return limit;
        }
        if (previousLimit > 0 && limit <= 0.8 * previousLimit && service >= 0.9 * previousService) {
            baseline = service; // a cut that did not shorten the service: the server is slower, not queueing
            knee = Double.NaN;
            return change(Math.min(max, limit + Math.max(1, limit / 2)), String.format(Locale.ROOT,
                    "N_s cut from %d to %d and the service time stayed %.4f s: the server is slower, not queueing; new baseline",
                    previousLimit, limit, service), s);
        }
        if (service > (1 + SATURATED) * baseline) {
            if (probing) {
                probeWait = Math.min(MAX_PROBE_WAIT, probeWait * 2); // refuted: the knee did not move
            }
            double k = s.throughput() * baseline;
            knee = Double.isNaN(knee) ? k : (1 - SMOOTHING) * knee + SMOOTHING * k;
            int target = clamp((int) Math.round(knee * (1 + HEADROOM)));
            if (target == limit) {
                reason = "saturated at the knee: holding";
                return limit;
            }
            return change(target, String.format(Locale.ROOT, "saturated (service %.4f s, baseline %.4f s, %.1f answers/s): knee %.1f",
                    service, baseline, s.throughput(), knee), s);
        }
        if (service <= (1 + FLAT) * baseline) {
            boolean atKnee = !Double.isNaN(knee) && limit >= knee * (1 + HEADROOM) - 0.5;
            if (probing) {
                probeWait = 1; // the probe held: the knee is higher
            }
            if (atKnee && ++windowsSinceProbe < probeWait * settleCycles) {
                reason = "not queueing at the knee: next probe in " + (probeWait * settleCycles - windowsSinceProbe) + " cycles";
                return limit;
            }
            int next = atKnee ? limit + Math.max(1, limit / 10) : Math.max(limit + 1, (int) Math.ceil(limit * 1.5));
            if (clamp(next) == limit) {
                reason = "not queueing, at max: holding";
                return limit;
            }
            int changed = change(clamp(next), atKnee ? "not queueing at the knee with demand: probing up" : "not queueing with demand: growing", s);
            probing = atKnee;
            windowsSinceProbe = 0;
            return changed;
        }
        reason = "near the knee: holding";
        return limit;
    }

    private int change(int next, String why, Sample s) {
        probing = false;
        previousLimit = limit;
        previousService = s.serviceSeconds();
        limit = next;
        cyclesAtLimit = 0;
        reason = why + " → N_s " + next;
        return limit;
    }

    private int clamp(int n) {
        return Math.max(min, Math.min(max, n));
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public double knee() {
        return knee;
    }

    @Override
    public String reason() {
        return reason;
    }
}
