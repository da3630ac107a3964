package io.slagate.rm.tune;


/** A knob held in memory, bounds 0 to 100, whole values, refusing every set while {@link #fails}. */
final class FakeKnob implements Tunable {
    private final String name;
    double value;
    boolean fails;

    FakeKnob(String name, double value) {
        this.name = name;
        this.value = value;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public double min() {
        return 0;
    }

    @Override
    public double max() {
        return 100;
    }

    @Override
    public boolean integer() {
        return true;
    }

    @Override
    public double read() {
        return value;
    }

    @Override
    public void apply(double v) throws KnobException {
        if (fails) {
            throw new KnobException(name + " refused");
        }
        value = v;
    }
}
