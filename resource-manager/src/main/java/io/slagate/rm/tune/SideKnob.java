package io.slagate.rm.tune;

import java.util.List;

/**
 * One knob of a side (the split): the same value on every server of the side's pool, read from the first.
 * Applied server by server; when one refuses, those already set go back, so the side is never split in two.
 */
public final class SideKnob implements Tunable {
    private final List<Tunable> servers;

    public SideKnob(List<Tunable> servers) {
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("a side's knob needs at least one server");
        }
        this.servers = List.copyOf(servers);
    }

    @Override
    public String name() {
        return servers.get(0).name() + (servers.size() > 1 ? " (+" + (servers.size() - 1) + " servers)" : "");
    }

    @Override
    public double min() {
        return servers.get(0).min();
    }

    @Override
    public double max() {
        return servers.get(0).max();
    }

    @Override
    public boolean integer() {
        return servers.get(0).integer();
    }

    @Override
    public double read() throws KnobException {
        return servers.get(0).read();
    }

    @Override
    public void apply(double value) throws KnobException {
        double[] before = new double[servers.size()];
        for (int i = 0; i < servers.size(); i++) {
            before[i] = servers.get(i).read();
        }
        for (int i = 0; i < servers.size(); i++) {
            try {
                servers.get(i).apply(value);
            } catch (KnobException e) {
                for (int j = i - 1; j >= 0; j--) {
                    try {
                        servers.get(j).apply(before[j]);
                    } catch (KnobException ignored) {
                        // reported with the failure below; KnobSet marks the whole knob broken
                    }
                }
                throw e;
            }
        }
    }
}
