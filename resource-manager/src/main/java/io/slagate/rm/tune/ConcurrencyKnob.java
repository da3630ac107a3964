package io.slagate.rm.tune;

import java.util.function.IntSupplier;

/** Slagate's own knob N_s of one server, set as the resource manager's capacity pin (the console's "Pin N_s"). */
public final class ConcurrencyKnob extends BoundedKnob {
    private final String serverId;
    private final TunedSettings overrides;
    private final IntSupplier configured;

    /** @param configured the server's N_s when nothing is pinned */
    public ConcurrencyKnob(String serverId, TunedSettings overrides, IntSupplier configured, double min, double max) {
        super("concurrency", min, max, true);
        if (min < 1) {
            throw new IllegalArgumentException("knob concurrency: N_s is at least 1, not " + min);
        }
        this.serverId = serverId;
        this.overrides = overrides;
        this.configured = configured;
    }

    @Override
    public String name() {
        return "concurrency@" + serverId;
    }

    @Override
    public double read() {
        Integer pinned = overrides.capacity(serverId, System.nanoTime());
        return pinned != null ? pinned : configured.getAsInt();
    }

    @Override
    public void apply(double value) {
        overrides.pinCapacity(serverId, (int) clamp(value), Long.MAX_VALUE);
    }
}
