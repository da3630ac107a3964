package io.slagate.rm.limit;

import io.slagate.rm.limit.LastStep.Step;
import java.util.Locale;

/**
 * N_s at the knee of the server's throughput against the requests it executes, found online. The knee
 * is where the line N·X(1) meets the plateau X_max (the operational-analysis knee of experiment A,
 * Fig. 7): K = X_max · S_0, with S_0 = 1/X(1) the service time of a server that does not queue. Both
 * are measured, never configured:
 *
 * <ul>
 *   <li><b>S_0, the baseline</b>: measured at {@code min} first (a start above the knee has never seen it:
 *       reduced capacity at start, as Envoy's adaptive concurrency measures its minimum RTT), over disjoint
 *       windows until it is the mean of {@value #BASELINE_ANSWERS} answers (one window of 30 exponential
 *       answers is ±18%, and the knee K = X_max · S_0 inherits that error whole); refined by windows well below
 *       the knee, and replaced by a window faster by a tenth and by three times its own sampling error. A service time {@value #SLOWER}
 *       times the baseline at or below the knee, with throughput down by as much (Little's law: the slots are
 *       busy, each answer takes longer), is no queueing any server does there: the server is slower (a slow
 *       database, a GC storm). Once that held for two disjoint windows (one disturbed window on a shared host
 *       is not a slower server), the baseline becomes the new service time and the search starts again, so the
 *       limit does not drift down and stay there;</li>
 *   <li><b>growing</b> (slow start: N_s by half while requests wait): each step must buy at least {@value #EFFICIENCY} of
 *       its proportional throughput gain. The first step that does not has passed the knee; a real knee is
 *       smooth, so one more step measures the plateau X_max (the mean of the two windows past the knee), and
 *       N_s goes to K; if that step pays, the first was a noisy window and growth goes on. The plateau is judged by throughput, not by service time: on a real server the
 *       service time rises well before the knee (the CPU is shared with everything else on the host);</li>
 *   <li><b>saturated beyond what the knee in force explains</b> (a start value, or capacity lost): a window whose
 *       service time is over S_0 · max(1, N_s/K) by {@value #SATURATED} is at the plateau, or below it, so K = X·S_0 at once.
 *       Made a growth step or more above it (a start value), that estimate is a lower bound (the window may still drain the
 *       start value's requests, or the server thrash there), and the limit grows from it as from min;</li>
 *   <li><b>at the knee</b>: a probe by {@value #PROBE} of N_s (at least one slot) every so many windows (the knee may have
 *       moved up). A probe that does not buy its throughput goes back and doubles the wait before the next, up to
 *       {@value #MAX_PROBE_WAIT} windows; the mean of its two windows raises the knee estimate when it is above it by more
 *       than twice their sampling error (the plateau rose), and never lowers it (at a smooth knee they are below the
 *       plateau). One that buys its throughput is followed by another (small steps: a probe's gain is near the
 *       measurement noise); paid probes do not move the estimate. No probe while a class of the pool misses its goal at a
 *       knee that a refuted probe has confirmed (a probe above the estimate it left): slots past the knee cannot fix that,
 *       and the queueing a probe adds at the server would add to it. A probe whose window measured any class's utility
 *       lower by more than {@value #PROBE_UTILITY_BOUND} is undone at once, back to the estimate (and the next waits twice
 *       as long), whatever it bought: the bound holds for at most one window. An undo does not confirm the knee: a class
 *       far under its goal moves by more than the bound from window to window;</li>
 *   <li><b>no demand</b> (nothing waits and fewer than nine tenths of N_s execute): it holds — an idle
 *       server says nothing about its knee.</li>
 * </ul>
 *
 * It acts only on windows that reflect the N_s in force: {@code settleCycles} cycles after the requests
 * executing came within it, after each change.
 */
public final class KneeLimit implements ConcurrencyLimit {
    static final double SATURATED = 0.15;
    static final double HEADROOM = 0;
    /** A probe above the knee adds this share of N_s (at least one slot). */
    static final double PROBE = 0.05;
    /** A service time this many times the baseline at or below the knee is a slower server, not queueing. */
    static final double SLOWER = 1.5;
    /** A step up must buy at least this share of its proportional throughput gain. */
    static final double EFFICIENCY = 0.4;
    /** Windows with at most this share of the knee executing refine the baseline. */
    static final double BELOW_KNEE = 0.6;
    /** A window this much faster than the baseline replaces it at once. */
    static final double DROP = 0.1;
    /** The baseline is the mean service time of at least this many answers (±6% for exponential service). */
    static final int BASELINE_ANSWERS = 300;
    /** The most windows between two probes up after refuted ones. */
    static final int MAX_PROBE_WAIT = 32;
    /**
     * A probe that lowers any class's measured utility by more than this (eq. 7's units) is undone at once, whatever
     * throughput it bought: slots past the knee must not cost a class its goal.
     */
    static final double PROBE_UTILITY_BOUND = 0.05;

    private final int min;
    private final int max;
    private final int settleCycles;
    private final int windowCycles;
    private int limit;
    private final ServiceBaseline baseline = new ServiceBaseline();
    private int slowCycles; // consecutive cycles whose window said "slower server"

    private int resumeAt; // the start value, restored once the baseline is measured (0: not measuring)
    private int cyclesAtLimit;
    private double knee = Double.NaN;
    private double plateau; // the most answers/s a settled window measured (X_max), since the last new baseline
    private final LastStep last = new LastStep();
    private final ProbeSchedule probes = new ProbeSchedule(MAX_PROBE_WAIT);
    private boolean fromAbove; // the knee was estimated from a saturated window far above it: a lower bound to grow from
    private String reason = "start";

    /** With windows no longer than the settle time (each settled sample a window of its own). */
    public KneeLimit(int min, int max, int start, int settleCycles) {
        this(min, max, start, settleCycles, settleCycles);
    }

    /**
     * @param settleCycles control cycles for the statistics window to reflect a new N_s
     * @param windowCycles control cycles a statistics window spans (samples that many cycles apart are disjoint)
     */
    public KneeLimit(int min, int max, int start, int settleCycles, int windowCycles) {
        if (min < 1 || max < min || start < min || start > max || settleCycles < 1 || windowCycles < 1) {
            throw new IllegalArgumentException("need 1 ≤ min ≤ start ≤ max, settleCycles ≥ 1 and windowCycles ≥ 1");
        }
        this.min = min;
        this.max = max;
        this.settleCycles = settleCycles;
        this.windowCycles = windowCycles;
        limit = min;
        resumeAt = start > min ? start : 0;
        reason = "measuring the baseline service time at N_s = " + min + (start > min ? " before the start value " + start : "");
    }

    /** What a judging step returns when it does not decide N_s: the next one judges. */
    private static final int UNDECIDED = -1;

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
        double x = s.throughput();
        double service = s.serviceSeconds();
        plateau = Math.max(plateau, x);
        if (baseline.measuring()) {
            return measureBaseline(s, x, service);
        }
        baseline.refine(s, service, knee);
        boolean demand = s.waiting() > 0 || s.inUse() >= 0.9 * limit;
        if (!demand) {
            reason = "no demand: holding";
            return limit;
        }
        int next = slowerServer(s, x, service);
        if (next == UNDECIDED) {
            next = switch (last.step()) {
                case PLATEAU -> afterPlateauStep(s, x);
                case PROBE -> afterProbe(s, x);
                case GROW -> afterGrowthStep(s, x);
                default -> UNDECIDED;
            };
        }
        return next == UNDECIDED ? steady(s, x, service) : next;
    }

    /** A settled window at min while the baseline is measured ({@link ServiceBaseline}). */
    private int measureBaseline(Sample s, double x, double service) {
        if (!baseline.measure(s, limit, x, service, cyclesAtLimit, windowCycles)) {
            reason = String.format(Locale.ROOT, "measuring the baseline service time at N_s = %d: %.0f of %d answers",
                    limit, baseline.answers(), BASELINE_ANSWERS);
            return limit;
        }
        // this window is part of the baseline: nothing to judge against it
        if (resumeAt > 0) {
            return resume(s);
        }
        if (s.waiting() == 0 && s.inUse() < 0.9 * limit) {
            reason = "baseline measured; no demand: holding";
            return limit;
        }
        return change(grow(), Step.GROW, s, String.format(Locale.ROOT, "baseline service time %.4f s measured (a slot's %.4f s): growing",
                baseline.value(), slot()));
    }

    /** A service time far above the baseline at or below the knee, with throughput down, for two windows: a slower server. */
    private int slowerServer(Sample s, double x, double service) {
        boolean slower = !Double.isNaN(knee) && limit <= target() && service >= SLOWER * baseline.value() && x <= plateau / SLOWER;
        slowCycles = slower ? slowCycles + 1 : 0;
        if (!slower) {
            return UNDECIDED;
        }
        if (slowCycles < 2 * windowCycles) {
            reason = String.format(Locale.ROOT, "service time %.4f s at or below the knee (N_s %d), throughput down: confirming "
                    + "over two windows before calling the server slower", service, limit);
            return limit;
        }
        // at or below the knee no server queues this much, for this long: it is slower (a slow database, a GC storm)
        baseline.restart(service);
        knee = Double.NaN;
        fromAbove = false;
        plateau = x;
        return change(grow(), Step.GROW, s, String.format(Locale.ROOT,
                "service time %.4f s at or below the knee (N_s %d): the server is slower, not queueing; new baseline",
                service, limit));
    }

    /** The step past the first unpaid one: it measured the plateau, or it paid and the unpaid one was noise. */
    private int afterPlateauStep(Sample s, double x) {
        if (paid(x)) {
            return change(grow(), Step.GROW, s, String.format(Locale.ROOT,
                    "%d → %d slots bought %.1f → %.1f answers/s: the step before was noise; growing", last.fromLimit(), limit, last.fromThroughput(), x));
        }
        // K = X_max · S_0 (Fig. 7's N*). X_max is the mean of the two windows past the knee: the most any window
        // measured is biased up by the noise
        double xMax = (last.fromThroughput() + x) / 2;
        knee = xMax * slot();
        probes.verified(false);
        fromAbove = false;
        return change(target(), Step.CUT, s, String.format(Locale.ROOT,
                "plateau %.1f answers/s at N_s %d: knee %.1f (X_max · S_0, S_0 %.4f s)", xMax, limit, knee, slot()));
    }

    private int afterProbe(Sample s, double x) {
        String hurt = last.utilityDrop(s.utilities(), PROBE_UTILITY_BOUND);
        if (hurt != null) {
            // undone whatever it bought. It does not confirm the knee: a class far under its goal moves by more than
            // the bound from window to window (experiment A: -1.418 → -1.653 on a probe below the knee), and
            // confirming on that held the limit 20% under the knee while the missed goal stopped every later probe
            probes.backOff();
            // back to the estimate, not to the step before: paid probes do not move the estimate (a probe's gain near
            // the knee is within a window's noise), and a run of them undone one step at a time crept 30% above it
            return change(Math.min(last.fromLimit(), target()), Step.CUT, s, String.format(Locale.ROOT,
                    "the probe %d → %d lowered %s (bound %.2f): undone",
                    last.fromLimit(), limit, hurt, PROBE_UTILITY_BOUND));
        }
        if (!paid(x)) {
            return probeRefuted(s, x);
        }
        // the knee may have moved up: probe on in small steps (a probe's gain is near the noise, so a lucky window
        // must not start a slow-start burst)
        probes.paid();
        return change(Math.min(max, limit + probeStep()), Step.PROBE, s, String.format(Locale.ROOT,
                "%d → %d slots bought %.1f → %.1f answers/s: probing on", last.fromLimit(), limit, last.fromThroughput(), x));
    }

    /**
     * A probe that did not buy its throughput: past the knee. Its windows may say the knee is higher (it moved up: the
     * plateau rose), never lower: at a smooth knee (every real server's) the windows are below the plateau X_max (84% of
     * it at K on a curve like experiment A's), so taking their throughput · S_0 as the knee dragged the estimate down at
     * every refuted probe (experiment A settled at 8 against a measured 9.9). A knee that really fell is the saturated
     * and slower rules' to find. Raised only by more than twice the two windows' sampling error: the larger of two noisy
     * windows, taken at every refutation, ratcheted a knee of 10 to 11 in three probes.
     */
    private int probeRefuted(Sample s, double x) {
        double k = (last.fromThroughput() + x) / 2 * slot();
        double error = Double.isFinite(s.answers()) && s.answers() > 0 ? 1 / Math.sqrt(2 * s.answers()) : 0;
        if (k > knee * (1 + 2 * error)) {
            knee = (knee + k) / 2;
        }
        probes.backOff();
        // confirmed only if this probe went above the new estimate
        probes.verified(limit > target());
        return change(target(), Step.CUT, s, String.format(Locale.ROOT,
                "%d → %d slots bought %.1f → %.1f answers/s: past the knee; knee %.1f (X_max · S_0, S_0 %.4f s)", last.fromLimit(), limit,
                last.fromThroughput(), x, knee, slot()));
    }

    private int afterGrowthStep(Sample s, double x) {
        if (paid(x)) {
            return change(grow(), Step.GROW, s, String.format(Locale.ROOT, "%d → %d slots bought %.1f → %.1f answers/s: growing",
                    last.fromLimit(), limit, last.fromThroughput(), x));
        }
        if (Double.isNaN(knee)) {
            // past the knee, maybe not yet on the plateau (a real knee is smooth): one more step measures X_max
            return change(grow(), Step.PLATEAU, s, String.format(Locale.ROOT,
                    "%d → %d slots bought %.1f → %.1f answers/s: past the knee; measuring the plateau", last.fromLimit(), limit,
                    last.fromThroughput(), x));
        }
        double k = Math.max(last.fromThroughput(), x) * slot(); // both windows at or past the knee
        knee = (knee + k) / 2; // smoothed over detections
        return change(target(), Step.CUT, s, String.format(Locale.ROOT,
                "%d → %d slots bought %.1f → %.1f answers/s: past the plateau; knee %.1f (X_max · S_0, S_0 %.4f s)",
                last.fromLimit(), limit, last.fromThroughput(), x, knee, slot()));
    }

    /** No step to judge: saturated beyond the knee in force, a lower bound to grow from, growth, or a probe. */
    private int steady(Sample s, double x, double service) {
        if (saturatedBeyondKnee(service)) {
            return saturated(s, x, service);
        }
        if (fromAbove) {
            // a knee estimated far above it is a lower bound: that window may be below the plateau (experiment A's first
            // window at 200 read 0.8 of it, still draining; a thrashing server stays below it). Slow start from there
            // finds the knee as from min, with steps whose gains stand out of the noise: one-slot probes up from a low
            // estimate were judged on gains of 2-5% against a window's ±4-7%, and settled 20% low or high
            fromAbove = false;
            knee = Double.NaN;
            return change(grow(), Step.GROW, s, "the knee measured far above it is a lower bound: growing from it");
        }
        if (Double.isNaN(knee)) {
            return change(grow(), Step.GROW, s, "not saturated, requests waiting: growing");
        }
        if (s.goalMissed() && probes.verified()) {
            // a class misses its goal at a knee a probe has confirmed: more slots past it cannot fix that, and a probe's
            // queueing at the server would add to it; the manager's weights are what can help. A knee no probe has
            // confirmed yet may be low (one measured far above it, where a thrashing server answers below its
            // plateau): there a probe is what can help, and the utility bound keeps it safe
            reason = "at the knee, a class misses its goal: not probing";
            return limit;
        }
        if (probes.due() && limit < max) {
            return change(Math.min(max, limit + probeStep()), Step.PROBE, s, "probing above the knee");
        }
        reason = "at the knee: holding";
        return limit;
    }

    /**
     * Saturated beyond what the knee in force explains (a server at N_s above a knee K queues to S_0 · N_s / K, less at a
     * smooth knee): far above the knee (a start value), or the knee fell (capacity lost). Judged against the knee's own
     * prediction: one slot past a smooth knee already takes 1.25 S_0, and re-estimating there from a window below the
     * plateau dragged the knee down.
     */
    private boolean saturatedBeyondKnee(double service) {
        boolean saturated = service > (1 + SATURATED) * baseline.value();
        return saturated && limit > min && (Double.isNaN(knee)
                || limit > target() + probeStep() && service > (1 + SATURATED) * slot() * limit / knee);
    }

    private int saturated(Sample s, double x, double service) {
        double was = knee;
        knee = x * slot(); // this window is at the plateau, or below it if the server thrashes
        probes.verified(false);
        // a growth step or more above it: the window may be well below the plateau (experiment A's first window at
        // 200 read 0.8 of it, still draining; a thrashing server stays below it), so the estimate is a lower bound
        fromAbove = limit >= 1.5 * knee;
        return change(target(), Step.CUT, s, String.format(Locale.ROOT,
                "saturated (service %.4f s, baseline %.4f s, %.1f answers/s at N_s %d%s): knee %s%.1f", service, baseline.value(), x, limit,
                Double.isNaN(was) ? "" : String.format(Locale.ROOT, ", knee was %.1f", was), fromAbove ? "at least " : "", knee));
    }

    /** S_0 of the knee N* = X_max · S_0 = X_max / X(1): the time a slot is held per answer at min. */
    private double slot() {
        return baseline.slot();
    }

    private int resume(Sample s) {
        int start = resumeAt;
        resumeAt = 0;
        return change(start, Step.CUT, s, String.format(Locale.ROOT, "baseline service time %.4f s measured; back to the start value",
                baseline.value()));
    }

    /** Whether the last step bought at least {@value #EFFICIENCY} of its proportional gain. */
    private boolean paid(double x) {
        return last.paid(limit, x, EFFICIENCY);
    }

    private int probeStep() {
        return Math.max(1, (int) Math.round(limit * PROBE));
    }

    private int grow() {
        return Math.min(max, Math.max(limit + 1, (int) Math.ceil(limit * 1.5)));
    }

    private int target() {
        return Math.max(min, Math.min(max, (int) Math.round(knee * (1 + HEADROOM))));
    }

    private int change(int next, Step step, Sample s, String why) {
        if (next == limit) {
            last.clear(); // nothing to compare next time
            reason = why + ": holding at " + limit;
            return limit;
        }
        last.record(step, limit, s);
        limit = next;
        cyclesAtLimit = 0;
        probes.moved();
        slowCycles = 0;
        reason = why + " → N_s " + next;
        return limit;
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
