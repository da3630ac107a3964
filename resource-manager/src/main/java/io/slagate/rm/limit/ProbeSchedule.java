package io.slagate.rm.limit;

/**
 * When the knee search probes above the knee: every so many windows at it, the wait doubling after each probe that
 * was refuted or undone (up to {@code maxWait} windows) and back to one after a probe that paid; and whether a refuted
 * probe has confirmed the knee in force (a probe above the estimate it left).
 */
final class ProbeSchedule {
    private final int maxWait;
    private int wait = 1;
    private int windowsAtKnee;
    private boolean verified;

    ProbeSchedule(int maxWait) {
        this.maxWait = maxWait;
    }

    /** One more window at the knee: whether a probe is due. */
    boolean due() {
        return ++windowsAtKnee >= wait;
    }

    /** N_s changed: the windows at the knee count again. */
    void moved() {
        windowsAtKnee = 0;
    }

    /** A probe refuted or undone: the next waits twice as long. */
    void backOff() {
        wait = Math.min(maxWait, wait * 2);
    }

    /** A probe paid: the knee may have moved up, probe on at once. */
    void paid() {
        wait = 1;
    }

    /** Whether a refuted probe has confirmed the knee in force. */
    boolean verified() {
        return verified;
    }

    /** A new knee estimate ({@code false}), or a refuted probe that went above the estimate it left ({@code true}). */
    void verified(boolean v) {
        verified = v;
    }
}
