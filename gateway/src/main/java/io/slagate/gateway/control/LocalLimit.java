package io.slagate.gateway.control;

import java.util.Locale;

/**
 * The fast inner loop under the resource manager, for one server at one gateway: when
 * the server's service times jump to {@value #JUMP} times what is normal for it, its cap here drops at once
 * to the cap that keeps its throughput at the slower pace (Little: N · normal / now), without waiting for the
 * manager's next cycle (tens of seconds). It never raises the cap above what the manager granted.
 *
 * <p>A cut helps only a server that is slow because it has too much to do (a CPU shared by the requests it
 * executes, a thrashing pool): with fewer requests each answer comes sooner, and the queueing moves to the
 * gateway, where the classes are told apart. A server that is slow whatever its load (a slow database behind
 * it, a remote call) answers no sooner, and the cut only takes away capacity: the slowdown run with a sleeping
 * backend tripled premium's response times that way. So after a cut the limit watches the answers given under
 * it: no faster than half-way from the slow pace to the pace a shared server would have at the smaller cap, and
 * the server is slower, not overloaded; the cap goes back at once and the slower pace becomes the normal.
 *
 * <p>The slots come back a tenth of the granted cap at a time (a probe), each judged once the answers admitted before
 * it are in: at once while the answers are back within {@value #RECOVERED} times normal, else after {@code holdTicks}.
 * A tenth that makes the answers slower by over {@value #PROBE_WORSE}x finds the server still past what it can share
 * (its demand stays higher): it is taken back and the cap held there for another {@code holdTicks}, so a server whose
 * demand stays higher is held at what it can share rather than given back into the overload. When no tenth costs
 * anything the slots are all back (recovered; or, still slow, slower whatever its load: the slower pace is the normal
 * and the manager decides from there, having seen the reduced cap).
 *
 * <p>Every judgement is on the mean of at least {@value #JUDGE_ANSWERS} answers, gathered over as many ticks as
 * it takes (at most {@value #MAX_GATHER_TICKS}, then on at least {@value #MIN_ANSWERS}): the mean of two
 * exponential answers is over twice its expectation one time in ten, and a limit judged on single ticks fired
 * and lifted several times a second.
 *
 * <p>Normal is the service time over the last {@value #NORMAL_ANSWERS} or so answers (an average that a jump does not
 * move), started from the statistics window's mean: a window of a few seconds follows a step within its own length.
 *
 * <p>Pure: fed once per tick by its owner, which applies the cap it returns and reports {@link #limiting}.
 */
public final class LocalLimit {
    static final double JUMP = 2;
    /** How many answers the normal service time remembers. */
    static final int NORMAL_ANSWERS = 500;
    static final double RECOVERED = 1.5;
    /** Answers a judgement wants (the mean of 30 exponential answers is within ±18% of its expectation, one sd). */
    static final int JUDGE_ANSWERS = 30;
    /** Ticks a judgement gathers answers for at most; fewer than {@link #MIN_ANSWERS} by then say nothing. */
    static final int MAX_GATHER_TICKS = 10;
    static final int MIN_ANSWERS = 5;
    /** How much slower the answers under a tenth more slots must be for the probe after a hold to find it still needed. */
    static final double PROBE_WORSE = 1.1;

    /**
     * Where the limit is. Each transition is one method: {@link #cut} (normal → cut), {@link #recovered} (cut → giving
     * back or normal), {@link #slowerNotOverloaded} (cut → normal), {@link #probe} (cut or holding → probing or giving
     * back, and a further tenth within them), {@link #stillNeeded} (probing or giving back → holding),
     * {@link #probedToTheTop} (probing or giving back → normal), {@link #heldLongEnough} (cut or holding → normal, a
     * tenth at a time).
     */
    enum State {
        /** No local cap: the manager's grant is in force. */
        NORMAL,
        /** Cut at a jump; watching the answers under the cut. */
        CUT,
        /** A tenth more was found slower: held where the server keeps up, no probe until the hold ends. */
        HOLDING,
        /** A tenth more tried after the hold (the answers never said recovered), its judgement awaited. */
        PROBING,
        /** The answers said recovered: a tenth more at a time, each judged. */
        GIVING_BACK
    }

    private final int holdTicks;
    private final double tickSeconds;
    private State state = State.NORMAL;
    private int cap = -1; // −1 while NORMAL
    private double normalSeconds = Double.NaN;
    private int heldTicks;
    private int skipTicks; // after a cut or a probe, the ticks that still answer requests admitted before it
    private int skipAnswers; // and those answers
    private double skipWork;
    private boolean saidRecovered; // a judgement under this cut said recovered: its probes give back
    private int cutFrom; // the granted cap and the mean service time that the cut was made at
    private double cutAtSeconds;
    private String reason = "";
    private double lastMeanSeconds; // the last complete judgement's mean under the cut
    private double probeBaseSeconds; // the mean just before the probe being judged

    // the judgement being gathered
    private int gatherTicks;
    private int gatherAnswers;
    private double gatherWork;
    private int gatheredAnswers; // how many answers the last complete judgement had

    /** With ticks of 100 ms. */
    public LocalLimit(int holdTicks) {
        this(holdTicks, 0.1);
    }

    /**
     * @param holdTicks   ticks a reduced cap holds while the server stays slow, before it is given back anyway
     * @param tickSeconds how long a tick is
     */
    public LocalLimit(int holdTicks, double tickSeconds) {
        this.holdTicks = holdTicks;
        this.tickSeconds = tickSeconds;
    }

    /**
     * One tick: the answers and their mean service time since the last tick, the window's mean service
     * time (the first normal; NaN without one) and the cap the manager granted.
     *
     * @return the cap in force here (≤ granted)
     */
    public int tick(int answers, double meanSeconds, double windowMeanSeconds, int granted) {
        if (!(normalSeconds > 0)) {
            normalSeconds = windowMeanSeconds > 0 ? windowMeanSeconds : Double.NaN;
        }
        if (state != State.NORMAL) {
            heldTicks++;
        }
        if (skipTicks > 0) {
            skip(answers, meanSeconds);
            return current(granted);
        }
        double mean = gather(answers, meanSeconds);
        if (state == State.NORMAL) {
            return judgeUncapped(mean, granted);
        }
        // the grant before the cut: while the limit holds, the manager takes the reduced cap as the server's capacity and
        // grants about that, so a probe's room and the point of giving back whole are judged against what it was
        int ceiling = Math.max(granted, cutFrom);
        int tenth = Math.max(1, ceiling / 10);
        if (state == State.PROBING || state == State.GIVING_BACK) {
            return judgeProbe(mean, tenth, ceiling, windowMeanSeconds, granted);
        }
        if (mean > 0) {
            lastMeanSeconds = mean;
            // a server whose work is shared answers in proportion to the requests it executes: at cap/cutFrom of them,
            // as much sooner. Closer to the slow pace than to that, and fewer requests did not help
            if (state == State.CUT && mean <= RECOVERED * normalSeconds) {
                return recovered(mean, tenth, ceiling, granted);
            }
            if (state == State.CUT && mean > (cutAtSeconds + cutAtSeconds * cap / cutFrom) / 2) {
                return slowerNotOverloaded(mean, granted);
            }
        }
        if (heldTicks < holdTicks) {
            return current(granted);
        }
        if (lastMeanSeconds > 0 && cap + tenth < ceiling) {
            probe(lastMeanSeconds, tenth); // the hold is over: a tenth more, judged
            return current(granted);
        }
        return heldLongEnough(ceiling, windowMeanSeconds, granted);
    }

    /** The state the limit is in. */
    State state() {
        return state;
    }

    /** Probing or giving back: a judgement of the last tenth decides the next step (none yet: the cap stays). */
    private int judgeProbe(double mean, int tenth, int ceiling, double windowMeanSeconds, int granted) {
        if (!(mean > 0)) {
            return current(granted);
        }
        if (mean > PROBE_WORSE * probeBaseSeconds) {
            return stillNeeded(mean, tenth, granted);
        }
        if (cap + tenth >= ceiling) {
            return probedToTheTop(windowMeanSeconds, granted);
        }
        probe(mean, tenth);
        return current(granted);
    }

    /** The tenth made the answers slower: taken back, and the cap held there for another hold. */
    private int stillNeeded(double mean, int tenth, int granted) {
        int back = Math.max(1, cap - tenth);
        reason = String.format(Locale.ROOT, "still needed: %.1f ms at cap %d against %.1f ms at %d; held again at %d", mean * 1e3,
                cap, probeBaseSeconds * 1e3, back, back);
        cap = back;
        heldTicks = 0;
        state = State.HOLDING;
        lastMeanSeconds = probeBaseSeconds;
        return current(granted);
    }

    /** No slower with each tenth more, up to the grant: the limit ends. */
    private int probedToTheTop(double windowMeanSeconds, int granted) {
        release();
        if (saidRecovered) {
            reason = "recovered: cap given back";
        } else { // judged neither way under the cut, and more slots cost nothing: slower whatever its load
            reason = "held long enough, more slots cost nothing: cap given back to the manager's";
            if (windowMeanSeconds > 0) {
                normalSeconds = windowMeanSeconds;
            }
        }
        return granted;
    }

    /** Under the cut the answers are back within {@value #RECOVERED}x normal: the slots come back, a tenth at a time. */
    private int recovered(double mean, int tenth, int ceiling, int granted) {
        saidRecovered = true;
        if (cap + tenth >= ceiling) {
            release();
            reason = "recovered: cap given back";
            return granted;
        }
        probe(mean, tenth);
        return current(granted);
    }

    /** Fewer requests did not make the answers sooner: the cut is given back at once, and the slower pace is the normal. */
    private int slowerNotOverloaded(double mean, int granted) {
        reason = String.format(Locale.ROOT, "slower, not overloaded: %.1f ms at cap %d against %.1f ms at %d; cap given back, "
                + "%.1f ms the new normal", mean * 1e3, cap, cutAtSeconds * 1e3, cutFrom, mean * 1e3);
        normalSeconds = mean;
        release();
        return granted;
    }

    /** After the hold, with nothing to probe by (or no room for a tenth): a tenth back, up to the ceiling, where the limit ends. */
    private int heldLongEnough(int ceiling, double windowMeanSeconds, int granted) {
        int c = giveBack(ceiling);
        if (state == State.NORMAL && windowMeanSeconds > 0) {
            normalSeconds = windowMeanSeconds; // still slower after the hold: the new normal
        }
        return Math.min(c, granted);
    }

    private void release() {
        cap = -1;
        state = State.NORMAL;
    }

    /** A tenth more slots, judged once the answers admitted before them are in, against {@code baseSeconds} before them. */
    private void probe(double baseSeconds, int tenth) {
        state = saidRecovered ? State.GIVING_BACK : State.PROBING;
        probeBaseSeconds = baseSeconds;
        cap += tenth;
        skipTicks = Math.max(1, (int) Math.ceil(2 * baseSeconds / tickSeconds - 1e-9));
        skipAnswers = 0;
        skipWork = 0;
    }

    /**
     * A tick while the answers to requests admitted before the cut come in: the slow pace at the old cap, which the cut's
     * own judgement, taken as the step began, may have read half-way (the gateway test's overloaded server: 73 ms against
     * 200). All of them together, however few: a judgement's 30 answers rarely come in the skip (10 slots at 200 ms give
     * 10), and the half-way reading then made the cut look useless.
     */
    private void skip(int answers, double meanSeconds) {
        if (answers > 0 && meanSeconds > 0) {
            skipAnswers += answers;
            skipWork += answers * meanSeconds;
        }
        if (--skipTicks == 0) {
            if (state == State.CUT && skipAnswers >= MIN_ANSWERS && skipWork / skipAnswers > cutAtSeconds) {
                cutAtSeconds = skipWork / skipAnswers;
            }
            gatherTicks = 0;
            gatherAnswers = 0;
            gatherWork = 0;
        }
    }

    /** No local cap: cut when the judgement's mean jumped above normal, else let the normal follow it. */
    private int judgeUncapped(double mean, int granted) {
        if (!(mean > 0) || !(normalSeconds > 0)) {
            return granted;
        }
        if (mean > jump(gatheredAnswers) * normalSeconds && granted > 1) {
            return cut(mean, granted);
        }
        if (mean <= JUMP * normalSeconds) { // a jump it cannot act on (one slot) is not the normal
            normalSeconds += Math.min(0.5, gatheredAnswers / (double) NORMAL_ANSWERS) * (mean - normalSeconds);
        }
        return granted;
    }

    /** The mean jumped: the cap drops at once to what keeps the throughput at the slower pace (Little). */
    private int cut(double mean, int granted) {
        cap = Math.max(1, Math.min(granted - 1, (int) Math.ceil(granted * normalSeconds / mean - 1e-9)));
        cutFrom = granted;
        cutAtSeconds = mean;
        heldTicks = 0;
        // the requests admitted before the cut answer at the slow pace for about that long again: judged with
        // them, an overloaded server looked "slower, not overloaded" (the gateway test, once in a few runs)
        skipTicks = Math.max(1, (int) Math.ceil(2 * mean / tickSeconds - 1e-9));
        skipAnswers = 0;
        skipWork = 0;
        state = State.CUT;
        saidRecovered = false;
        lastMeanSeconds = 0;
        reason = String.format(Locale.ROOT, "service time %.1f ms, %.1fx the normal %.1f ms: cap %d → %d", mean * 1e3,
                mean / normalSeconds, normalSeconds * 1e3, granted, cap);
        return cap;
    }

    /**
     * How many times normal a judgement's mean must be to fire: {@value #JUMP}, and six standard errors above normal (the
     * mean of n exponential answers has a relative error of 1/√n): once in a million judgements or less on noise alone,
     * where the mean of 20 answers is over 2x its expectation once in 5,000.
     */
    private static double jump(int answers) {
        return Math.max(JUMP, 1 + 6 / Math.sqrt(answers));
    }

    /** Adds a tick to the judgement being gathered; its mean once complete (and a fresh one begun), else NaN. */
    private double gather(int answers, double meanSeconds) {
        if (answers > 0 && meanSeconds > 0) {
            gatherAnswers += answers;
            gatherWork += answers * meanSeconds;
        }
        gatherTicks++;
        boolean complete = gatherAnswers >= JUDGE_ANSWERS || (gatherTicks >= MAX_GATHER_TICKS && gatherAnswers >= MIN_ANSWERS);
        double mean = complete ? gatherWork / gatherAnswers : Double.NaN;
        gatheredAnswers = complete ? gatherAnswers : 0;
        if (complete || gatherTicks >= MAX_GATHER_TICKS) {
            gatherTicks = 0;
            gatherAnswers = 0;
            gatherWork = 0;
        }
        return mean;
    }

    /** After the hold, with nothing to probe by: a tenth back, up to {@code ceiling}, where the limit ends. */
    private int giveBack(int ceiling) {
        cap += Math.max(1, ceiling / 10);
        if (cap < ceiling) {
            return cap;
        }
        release();
        reason = "held long enough: cap given back to the manager's";
        return ceiling;
    }

    private int current(int granted) {
        return cap < 0 ? granted : Math.min(cap, granted);
    }

    /** Whether a reduced cap is in force here. */
    public boolean limiting() {
        return cap >= 0;
    }

    /** Why the cap last changed. */
    public String reason() {
        return reason;
    }
}
