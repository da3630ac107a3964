package io.slagate.gateway.classify;

import io.slagate.config.SlagateConfig;
import io.slagate.config.TuningSettings;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The safe/experimental split of online tuning (issue 18): of each class with a twin on the experimental pool,
 * exactly {@code share} of the requests (every request n for which ⌊(n + 1)·share⌋ passes ⌊n·share⌋) go to the
 * twin, so both sides see the same mix. One atomic increment per request of a split class; none for the others.
 */
public final class TwinSplit {
    public static final TwinSplit NONE = new TwinSplit(new int[0], 0);

    private final int[] twinOf;
    private final double share;
    private final AtomicLongArray seen;

    private TwinSplit(int[] twinOf, double share) {
        this.twinOf = twinOf;
        this.share = share;
        this.seen = new AtomicLongArray(Math.max(1, twinOf.length));
    }

    public static TwinSplit of(SlagateConfig config) {
        TuningSettings t = config.controller().tuning();
        if (t == null || t.twins().isEmpty()) {
            return NONE;
        }
        int[] twin = new int[config.classes().size()];
        Arrays.fill(twin, -1);
        t.twins().forEach((safe, trial) -> {
            int s = config.classIndex(safe);
            int e = config.classIndex(trial);
            if (s >= 0 && e >= 0) {
                twin[s] = e;
            }
        });
        return new TwinSplit(twin, t.share());
    }

    /** The class the request goes to: its own, or for its share of requests its twin. */
    public int route(int classIndex) {
        if (classIndex >= twinOf.length || twinOf[classIndex] < 0) {
            return classIndex;
        }
        long n = seen.getAndIncrement(classIndex);
        return (long) ((n + 1) * share) > (long) (n * share) ? twinOf[classIndex] : classIndex;
    }
}
