package io.slagate.rm.tune;


/**
 * One knob a tuner may turn: its name, bounds and kind, and how to read and set it on whatever owns it
 * (slagate itself, or a backend through an adapter). Strategies search the unit cube; {@link #fromUnit} and
 * {@link #toUnit} map between it and the knob's range.
 */
public interface Tunable {
    String name();

    double min();

    double max();

    /** Whole values only (a pool size, a cap). */
    boolean integer();

    /** The value in force, as the owner reports it. */
    double read() throws KnobException;

    /** Sets {@code value} (within the bounds, rounded for an integer knob); throws when the owner refused or did not answer. */
    void apply(double value) throws KnobException;

    /** The knob's value at {@code u} in [0, 1]. */
    default double fromUnit(double u) {
        double v = min() + Math.max(0, Math.min(1, u)) * (max() - min());
        return integer() ? Math.round(v) : v;
    }

    /** Where {@code value} lies in the unit interval. */
    default double toUnit(double value) {
        return max() == min() ? 0 : Math.max(0, Math.min(1, (value - min()) / (max() - min())));
    }

    /** Refuses bounds that are empty or not finite: a configuration error, named by the knob. */
    static void checkBounds(String name, double min, double max) {
        if (!Double.isFinite(min) || !Double.isFinite(max) || !(min < max)) {
            throw new IllegalArgumentException("knob " + name + ": bounds [" + min + ", " + max + "] are empty or not finite");
        }
    }

    /** A knob its owner did not set or read: refused, failed, or timed out. */
    final class KnobException extends Exception {
        public KnobException(String message) {
            super(message);
        }

        public KnobException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
