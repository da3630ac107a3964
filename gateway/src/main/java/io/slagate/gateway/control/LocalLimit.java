package io.slagate.gateway.control;

import java.util.Locale;

/**
 * The fast inner loop under the resource manager (issue 17, item 2), for one server at one gateway: when
 * the server's service times over the last tick jump to {@value #JUMP} times what is normal for it, its cap
 * here drops within a tick — to the cap that keeps its throughput at the
 * slower pace (Little: N · normal / now) — without waiting for the manager's next cycle (tens of seconds).
 * It gives the slots back gradually, a tenth of the granted cap per tick, once the server is back within
 * {@value #RECOVERED} times normal, or once it has held for {@code holdTicks} (by then the manager has seen
 * the slower server and the reduced cap, and decided). It never raises the cap above what the manager granted.
 *
 * <p>Normal is the service time over the last {@value #NORMAL_ANSWERS} or so answers (an average that a jump does not
 * move), started from the statistics window's mean. It is not the window itself: a window of a few seconds follows a
 * step within its own length, so a server three times slower was never three times its window's mean for long
 * enough (the last slowdown run: the limit never fired). After a hold the slower pace is the new normal.
 *
 * <p>Pure: fed once per tick by its owner, which applies {@link #cap} and reports {@link #limiting}.
 */
public final class LocalLimit {
    static final double JUMP = 2;
    /** How many answers the normal service time remembers. */
    static final int NORMAL_ANSWERS = 500;
    static final double RECOVERED = 1.5;
    /** Fewer answers than this in a tick say nothing. */
    static final int MIN_ANSWERS = 2;

    private final int holdTicks;
    private int cap = -1; // −1: not limiting
    private double normalSeconds = Double.NaN;
    private int heldTicks;
    private String reason = "";

    /** @param holdTicks ticks a reduced cap holds while the server stays slow, before it is given back anyway */
    public LocalLimit(int holdTicks) {
        this.holdTicks = holdTicks;
    }

    /**
     * One tick: the answers and their mean service time since the last tick, the window's mean service
     * time (the normal; NaN without one) and the cap the manager granted.
     *
     * @return the cap in force here (≤ granted)
     */
    public int tick(int answers, double meanSeconds, double windowMeanSeconds, int granted) {
        if (cap < 0) {
            if (!(normalSeconds > 0)) {
                normalSeconds = windowMeanSeconds > 0 ? windowMeanSeconds : Double.NaN;
            }
            boolean counts = answers >= MIN_ANSWERS && meanSeconds > 0 && normalSeconds > 0;
            if (counts && meanSeconds > JUMP * normalSeconds && granted > 1) {
                cap = Math.max(1, Math.min(granted - 1, (int) Math.ceil(granted * normalSeconds / meanSeconds - 1e-9)));
                heldTicks = 0;
                reason = String.format(Locale.ROOT, "service time %.1f ms, %.1fx the normal %.1f ms: cap %d → %d", meanSeconds * 1e3,
                        meanSeconds / normalSeconds, normalSeconds * 1e3, granted, cap);
                return cap;
            }
            if (counts && meanSeconds <= JUMP * normalSeconds) { // a jump it cannot act on (one slot) is not the normal
                normalSeconds += Math.min(0.5, answers / (double) NORMAL_ANSWERS) * (meanSeconds - normalSeconds);
            }
            return granted;
        }
        heldTicks++;
        boolean recovered = answers >= MIN_ANSWERS && meanSeconds <= RECOVERED * normalSeconds;
        if (recovered || heldTicks >= holdTicks) {
            cap += Math.max(1, granted / 10);
            if (cap >= granted) {
                cap = -1;
                if (!recovered) {
                    normalSeconds = windowMeanSeconds > 0 ? windowMeanSeconds : Double.NaN; // still slower: the new normal
                }
                reason = recovered ? "recovered: cap given back" : "held long enough: cap given back to the manager's";
                return granted;
            }
        }
        return Math.min(cap, granted);
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
