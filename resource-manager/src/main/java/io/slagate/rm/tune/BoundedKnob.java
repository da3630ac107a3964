package io.slagate.rm.tune;


/**
 * What every knob shares: bounds, checked once, and whether only whole values are allowed. A subclass says
 * only how to read and set its value on whatever owns it.
 */
abstract class BoundedKnob implements Tunable {
    private final double min;
    private final double max;
    private final boolean integer;

    /** @throws IllegalArgumentException when the bounds are empty or not finite (a configuration error, named by the knob) */
    BoundedKnob(String name, double min, double max, boolean integer) {
        Tunable.checkBounds(name, min, max);
        this.min = min;
        this.max = max;
        this.integer = integer;
    }

    @Override
    public final double min() {
        return min;
    }

    @Override
    public final double max() {
        return max;
    }

    @Override
    public final boolean integer() {
        return integer;
    }

    /** {@code value} within the bounds, rounded for an integer knob. */
    final double clamp(double value) {
        return Math.max(min, Math.min(max, integer ? Math.round(value) : value));
    }
}
