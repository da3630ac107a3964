package io.slagate.rm.tune;

import io.slagate.config.ControllerSettings;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One of the resource manager's own settings as a knob: the control cycle Γ (seconds), the damping, the
 * weight resolution, or the response-time model (picked among named choices; its value is the index). Global to every
 * pool, so it is only ever tuned with interleaved trials ({@link InterleavedTuner}): no side can be spared it.
 */
public final class ControllerKnob extends BoundedKnob {
    private final String name;
    private final List<String> choices;
    private final Supplier<ControllerSettings> current;
    private final Consumer<UnaryOperator<ControllerSettings>> change;

    /**
     * @param choices the models a {@code model} knob picks among (empty for the others)
     * @param current the settings in force
     * @param change  puts a change of the settings in force (the manager's next cycle decides with them)
     */
    public ControllerKnob(String name, double min, double max, boolean integer, List<String> choices,
                          Supplier<ControllerSettings> current, Consumer<UnaryOperator<ControllerSettings>> change) {
        super(name, min, max, integer || name.equals("model"));
        if (name.equals("model") && choices.size() < 2) {
            throw new IllegalArgumentException("knob model: at least two models to pick among");
        }
        if (!List.of("cycle", "damping", "resolution", "model").contains(name)) {
            throw new IllegalArgumentException("not a controller knob: " + name);
        }
        this.name = name;
        this.choices = List.copyOf(choices);
        this.current = current;
        this.change = change;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public double read() throws KnobException {
        ControllerSettings c = current.get();
        return switch (name) {
            case "cycle" -> c.cycle().toNanos() / 1e9;
            case "damping" -> c.damping();
            case "resolution" -> c.resolution();
            default -> {
                int i = choices.indexOf(c.model());
                if (i < 0) {
                    throw new KnobException("the model in force, " + c.model() + ", is not among the knob's choices " + choices);
                }
                yield i;
            }
        };
    }

    @Override
    public void apply(double value) {
        double v = clamp(value);
        change.accept(switch (name) {
            case "cycle" -> c -> c.withCycle(Duration.ofMillis(Math.max(20, Math.round(v * 1000))));
            case "damping" -> c -> c.withDamping(v);
            case "resolution" -> c -> c.withResolution(v);
            default -> c -> c.withModel(choices.get((int) v));
        });
    }
}
