package io.slagate.gateway.classify;

import io.slagate.config.SlagateConfig;
import io.slagate.config.TuningSettings;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The safe/experimental split of online tuning: of each class with a twin on the experimental pool,
 * exactly its partition's {@code share} of the requests (every request n for which ⌊(n + 1)·share⌋ passes ⌊n·share⌋)
 * go to the twin, so both sides see the same mix. One atomic increment per request of a split class; none for the
 * others.
 */
public final class TwinSplit {
    public static final TwinSplit NONE = new TwinSplit(new int[0], new double[0]);

    private final int[] twinOf;
    private final double[] share;
    private final AtomicLongArray seen;

    private TwinSplit(int[] twinOf, double[] share) {
        this.twinOf = twinOf;
        this.share = share;
        this.seen = new AtomicLongArray(Math.max(1, twinOf.length));
    }

    public static TwinSplit of(SlagateConfig config) {
        if (config.controller().tuning().isEmpty()) {
            return NONE;
        }
        int[] twin = new int[config.classes().size()];
        double[] share = new double[twin.length];
        Arrays.fill(twin, -1);
        for (TuningSettings t : config.controller().tuning()) { // partitions' pools are disjoint, so are their classes
            t.twins().forEach((safe, trial) -> {
                int s = config.classIndex(safe);
                int e = config.classIndex(trial);
                if (s >= 0 && e >= 0) {
                    twin[s] = e;
                    share[s] = t.share();
                }
            });
        }
        return new TwinSplit(twin, share);
    }

    /** The class the request goes to: its own, or for its share of requests its twin. */
    public int route(int classIndex) {
        if (classIndex >= twinOf.length || twinOf[classIndex] < 0) {
            return classIndex;
        }
        long n = seen.getAndIncrement(classIndex);
        double f = share[classIndex];
        return (long) ((n + 1) * f) > (long) (n * f) ? twinOf[classIndex] : classIndex;
    }
}
