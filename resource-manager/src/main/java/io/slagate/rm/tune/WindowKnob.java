package io.slagate.rm.tune;

import java.util.function.LongSupplier;

/**
 * The gateways' statistics window, in seconds: the span over which every gateway averages λ~ and t~ for the
 * manager (section III-B). A short one follows the load sooner and is noisier. Global, like the controller's own
 * knobs, so it is tuned only in an interleaved partition; sent with every allocation, and the gateways can only shorten
 * their configured window (that is what they hold).
 */
public final class WindowKnob extends BoundedKnob {
    private final TunedSettings overrides;
    private final LongSupplier configuredMillis;

    public WindowKnob(TunedSettings overrides, LongSupplier configuredMillis, double min, double max) {
        super("window", min, max, false);
        if (min <= 0) {
            throw new IllegalArgumentException("knob window: above 0 s, not " + min);
        }
        this.overrides = overrides;
        this.configuredMillis = configuredMillis;
    }

    @Override
    public String name() {
        return "window";
    }

    @Override
    public double read() {
        long set = overrides.statsWindowMillis();
        return (set > 0 ? set : configuredMillis.getAsLong()) / 1000.0;
    }

    @Override
    public void apply(double seconds) {
        overrides.setStatsWindow(Math.max(1, Math.round(1000 * clamp(seconds))));
    }
}
