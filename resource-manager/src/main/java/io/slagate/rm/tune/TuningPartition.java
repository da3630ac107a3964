package io.slagate.rm.tune;

import io.slagate.config.TuningSettings;
import java.util.List;

/**
 * One work line of the online tuner (Active Harmony's parameter partitioning): its settings, its own {@link Tuner} over
 * its own pools' knobs, and the classes each side's utility is measured on. Partitions share no server and no class,
 * so their trials run at the same time without measuring each other.
 */
public final class TuningPartition {
    private final TuningSettings settings;
    private final OnlineTuner tuner;
    private final List<String> safeClasses;
    private final List<String> trialClasses;
    private volatile double[] lastSides = {Double.NaN, Double.NaN};

    public TuningPartition(TuningSettings settings, OnlineTuner tuner) {
        this.settings = settings;
        this.tuner = tuner;
        this.safeClasses = List.copyOf(settings.twins().keySet());
        this.trialClasses = List.copyOf(settings.twins().values());
    }

    public String name() {
        return settings.partition();
    }

    public TuningSettings settings() {
        return settings;
    }

    public OnlineTuner tuner() {
        return tuner;
    }

    public List<String> safeClasses() {
        return safeClasses;
    }

    public List<String> trialClasses() {
        return trialClasses;
    }

    /** One control cycle with the two sides' measured utilities (NaN without traffic). */
    public void tick(long now, double uSafe, double uExp) {
        lastSides = new double[] {uSafe, uExp};
        tuner.tick(now, uSafe, uExp);
    }

    /** The safe and the experimental side's utilities at the last cycle. */
    public double[] sides() {
        return lastSides.clone();
    }
}
