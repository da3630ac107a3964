package io.slagate.rm.tune;

/**
 * A search over the unit cube [0, 1]^d of normalized knob values (issue 18), driven by measurements it cannot
 * make itself: {@link #next} proposes a point, {@link #report} returns its measured objective (higher is better).
 * One report per proposal, in order. Implementations keep no clock and draw randomness only from the source they
 * are given, so that a test replays them exactly.
 */
public interface SearchStrategy {
    /** The next point to try. */
    double[] next();

    /** The measured objective of the point last returned by {@link #next}. */
    void report(double value);

    /** The best point reported so far (null before any report). */
    double[] best();

    /** Its value (−∞ before any report). */
    double bestValue();
}
