package io.slagate.rm.limit;

/**
 * S_0 of the knee K = X_max · S_0: the server's service time when it does not queue, measured at {@code min} first,
 * over disjoint windows until it is the mean of {@value KneeLimit#BASELINE_ANSWERS} answers, then refined by windows
 * well below the knee and replaced by one faster by a tenth and by three times its own sampling error. Beside it the
 * slot factor: how much longer a slot is held per answer than the server's service time (the gateway's dispatch and
 * relay around each answer), measured at min on windows with requests waiting. One {@link KneeLimit}'s.
 */
final class ServiceBaseline {
    private boolean measuring = true;
    private double work; // Σ service · answers and Σ answers of the disjoint windows measured at min
    private double answers;
    // Σ, Σ² and count of (a slot's time per answer / service time) over the windows at min that had requests waiting
    private double slotRatio;
    private double slotRatioSq;
    private int slotWindows;
    /**
     * How much longer a slot is held per answer than the server's service time, measured at min (X(1) · S ≤ 1). The
     * knee is N* = X_max / X(1) (Fig. 7), so it is X_max times the slot's time, not the server's: experiment A's
     * CPU-bound backend answered in 50 ms, and a slot at N_s = 1 gave 17.3 answers/s (58 ms), so X_max · S_0 put the
     * knee at 8.4 where the curve's is 9.8.
     */
    private double slotFactor = 1;
    private int nextWindow; // cycles at the limit at which the next disjoint window is complete
    private double value = Double.NaN;

    /** Whether it is still being measured at min. */
    boolean measuring() {
        return measuring;
    }

    /** The server's service time S_0, seconds (NaN while measured). */
    double value() {
        return value;
    }

    /** The time a slot is held per answer at min: S_0 times the slot factor. */
    double slot() {
        return value * slotFactor;
    }

    /** Answers counted toward the first measurement so far. */
    double answers() {
        return answers;
    }

    /** A server found slower (a slow database, a GC storm): its service time now is the baseline. */
    void restart(double service) {
        value = service;
    }

    /**
     * A settled window at min while measuring; counted only when disjoint from the last one counted.
     *
     * @param cyclesAtLimit the control cycles since N_s was set
     * @param windowCycles  control cycles a window spans
     * @return true once the measurement is complete
     */
    boolean measure(ConcurrencyLimit.Sample s, int limit, double x, double service, int cyclesAtLimit, int windowCycles) {
        if (cyclesAtLimit < nextWindow) {
            return false; // overlaps the window already counted
        }
        if (!(Double.isFinite(s.answers()) && s.answers() > 0)) {
            value = service; // how many answers is unknown: one window
            measuring = false;
            return true;
        }
        work += service * s.answers();
        answers += s.answers();
        if (s.waiting() > 0) { // a slot without a request waiting for it idles: no measure of its time
            double r = limit / x / service;
            slotRatio += r;
            slotRatioSq += r * r;
            slotWindows++;
        }
        nextWindow = cyclesAtLimit + windowCycles;
        if (answers < KneeLimit.BASELINE_ANSWERS) {
            return false;
        }
        value = work / answers;
        measureSlotFactor();
        measuring = false;
        return true;
    }

    /**
     * The slot factor, taken only when it is above 1 by twice its standard error, judged from the windows' own spread:
     * in a window the throughput and the service time come from the same answers, so the ratio is exact where the slot
     * really is held longer, and only noise where it is not.
     */
    private void measureSlotFactor() {
        if (slotWindows < 3) {
            return;
        }
        double mean = slotRatio / slotWindows;
        double sd = Math.sqrt(Math.max(0, slotRatioSq / slotWindows - mean * mean) * slotWindows / (slotWindows - 1));
        if (mean - 2 * sd / Math.sqrt(slotWindows) > 1) {
            slotFactor = Math.min(2, mean);
        }
    }

    /** A window after the measurement: a real drop replaces the baseline, a window well below the knee refines it. */
    void refine(ConcurrencyLimit.Sample s, double service, double knee) {
        if (service < (1 - drop(s.answers())) * value) {
            value = service; // a real drop (a faster server), beyond the window's own sampling noise
        } else if (!Double.isNaN(knee) && s.inUse() <= KneeLimit.BELOW_KNEE * knee && service < (1 + KneeLimit.SATURATED) * value) {
            value = 0.75 * value + 0.25 * service; // averaged: a running minimum of noisy windows only falls
        }
    }

    /**
     * How much faster than the baseline a window must be to replace it: a tenth, and three times the sampling error of
     * the window's mean (1/√answers for exponential service), so that noisy windows do not ratchet the baseline down.
     */
    private static double drop(double answers) {
        return Double.isFinite(answers) && answers > 0 ? Math.max(KneeLimit.DROP, 3 / Math.sqrt(answers)) : KneeLimit.DROP;
    }
}
