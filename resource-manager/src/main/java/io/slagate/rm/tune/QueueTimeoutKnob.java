package io.slagate.rm.tune;

import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The queue timeout of a side's classes, in seconds: how long a request may wait in the gateways' queues
 * before it is shed with a fault. Set by the manager and sent with every allocation, so the gateways apply it from the
 * next cycle to the requests that arrive after it; the classes of the other side keep theirs. Its trade-off is real
 * only because the objective charges each shed request ({@code ClassGoals.failedUtility}); otherwise shedding would
 * always read better than answering late.
 */
public final class QueueTimeoutKnob extends BoundedKnob {
    private final List<String> classes;
    private final TunedSettings overrides;
    private final ToLongFunction<String> configuredMillis;

    /**
     * @param classes          the side's classes, all set to the same value
     * @param configuredMillis a class's configured queue timeout
     */
    public QueueTimeoutKnob(List<String> classes, TunedSettings overrides, ToLongFunction<String> configuredMillis, double min, double max) {
        super("queueTimeout", min, max, false);
        if (min < 0.001) {
            throw new IllegalArgumentException("knob queueTimeout: at least 1 ms, not " + min + " s");
        }
        if (classes.isEmpty()) {
            throw new IllegalArgumentException("knob queueTimeout: the side has no classes");
        }
        this.classes = List.copyOf(classes);
        this.overrides = overrides;
        this.configuredMillis = configuredMillis;
    }

    @Override
    public String name() {
        return "queueTimeout";
    }

    @Override
    public double read() {
        String first = classes.get(0);
        Long set = overrides.queueTimeout(first);
        return (set != null ? set : configuredMillis.applyAsLong(first)) / 1000.0;
    }

    @Override
    public void apply(double seconds) {
        long ms = Math.max(1, Math.round(1000 * clamp(seconds)));
        for (String c : classes) {
            overrides.setQueueTimeout(c, ms);
        }
    }
}
