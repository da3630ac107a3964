package io.slagate.rm.tune;

import java.util.List;

/**
 * What the resource manager, the console and the experiments see of a tuner: fed once per control cycle,
 * started, stopped and reverted by the operator. Two kinds: {@link Tuner} (a safe and an experimental side at the same
 * time) and {@link InterleavedTuner} (no safe side: trials alternate in time with the best configuration).
 */
public interface OnlineTuner {
    /**
     * One control cycle.
     *
     * @param uSafe the safe side's measured utility (an interleaved tuner: all traffic's), NaN without traffic
     * @param uExp  the experimental side's (ignored by an interleaved tuner)
     */
    void tick(long now, double uSafe, double uExp);

    /** Starts tuning again now (from the best configuration), whatever the state. */
    void start(long now);

    /** Stops tuning; the best configuration stays in force (a trial under way ends unjudged). */
    void stop();

    /** Stops and goes back to the configuration before tuning began; false, with nothing changed, when it cannot. */
    boolean revert();

    /** Puts the best configuration written back before (knob values in the knobs' order) in force. */
    void restore(double[] values) throws Tunable.KnobException;

    Tuner.State state();

    List<Tuner.Trial> trials();

    /** The best configuration's knob values, or empty before the baseline. */
    double[] bestValues();

    /** The utility measured before tuning (NaN until measured). */
    double baselineUtility();

    /** The configuration before tuning (knob values), or empty before the first baseline. */
    double[] initialValues();
}
