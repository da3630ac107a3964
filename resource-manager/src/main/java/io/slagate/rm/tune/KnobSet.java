package io.slagate.rm.tune;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The knobs of one tuner (one partition, in Active Harmony's terms), applied together: a configuration is applied
 * knob by knob, and when one fails (refused, no answer) those already set go back to their values from before, the
 * failed one is marked broken and left out of later configurations (logged at WARN, listed by {@link #broken}), and
 * the failure is reported: a configuration is never left half-applied.
 */
public final class KnobSet {
    private static final Logger LOG = LoggerFactory.getLogger(KnobSet.class);

    private final List<Tunable> knobs;
    private final boolean[] broken;

    public KnobSet(List<Tunable> knobs) {
        this.knobs = List.copyOf(knobs);
        this.broken = new boolean[knobs.size()];
    }

    public int size() {
        return knobs.size();
    }

    public Tunable knob(int i) {
        return knobs.get(i);
    }

    /** The knob values at {@code unit} (empty for null: nothing measured yet). */
    public double[] values(double[] unit) {
        if (unit == null) {
            return new double[0];
        }
        double[] v = new double[unit.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = knobs.get(i).fromUnit(unit[i]);
        }
        return v;
    }

    /** Where knob {@code values} (one per knob, in order) lie in the unit cube. */
    public double[] unit(double[] values) {
        if (values.length != knobs.size()) {
            throw new IllegalArgumentException("one value per knob: " + values.length + " for " + knobs.size());
        }
        double[] u = new double[values.length];
        for (int i = 0; i < u.length; i++) {
            u[i] = knobs.get(i).toUnit(values[i]);
        }
        return u;
    }

    /** Names of the knobs marked broken. */
    public List<String> broken() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < knobs.size(); i++) {
            if (broken[i]) {
                out.add(knobs.get(i).name());
            }
        }
        return out;
    }

    /**
     * The knobs whose value in force lies outside their bounds, each as "name value [min, max]": tuning starts from the
     * nearest bound, so the configuration from before tuning is not one it can return to.
     */
    public List<String> outsideBounds() throws Tunable.KnobException {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < knobs.size(); i++) {
            Tunable k = knobs.get(i);
            if (broken[i]) {
                continue;
            }
            double v = k.read();
            if (v < k.min() || v > k.max()) {
                out.add(k.name() + " " + v + " [" + k.min() + ", " + k.max() + "]");
            }
        }
        return out;
    }

    /** The values in force, in the unit cube (a broken knob: where it was last known, or 0.5). */
    public double[] readUnit() throws Tunable.KnobException {
        double[] u = new double[knobs.size()];
        for (int i = 0; i < u.length; i++) {
            u[i] = broken[i] ? 0.5 : knobs.get(i).toUnit(knobs.get(i).read());
        }
        return u;
    }

    /**
     * Applies the configuration at {@code unit} (broken knobs untouched).
     *
     * @throws Tunable.KnobException when a knob failed: the others are back where they were, the failed one is broken
     */
    public void applyUnit(double[] unit) throws Tunable.KnobException {
        List<Integer> done = new ArrayList<>();
        List<Double> before = new ArrayList<>();
        for (int i = 0; i < knobs.size(); i++) {
            if (broken[i]) {
                continue;
            }
            Tunable k = knobs.get(i);
            try {
                double previous = k.read();
                k.apply(k.fromUnit(unit[i]));
                done.add(i);
                before.add(previous);
            } catch (Tunable.KnobException e) {
                broken[i] = true;
                LOG.warn("tuning: knob {} failed ({}); it is left out from now on, and the knobs set with it go back", k.name(),
                        e.getMessage());
                for (int j = done.size() - 1; j >= 0; j--) {
                    Tunable back = knobs.get(done.get(j));
                    try {
                        back.apply(before.get(j));
                    } catch (Tunable.KnobException again) {
                        broken[done.get(j)] = true;
                        LOG.error("tuning: knob {} could not be set back to {} ({}); left out from now on", back.name(), before.get(j),
                                again.getMessage());
                    }
                }
                throw e;
            }
        }
    }
}
