package io.slagate.gateway.sched;

import io.slagate.config.SlagateConfig;
import java.util.Arrays;

/**
 * The resource allocation a gateway enforces: the server shares w_{g,c} per class and the caps
 * N_{g,s} per server (section III-A). Immutable; a new one replaces the old with one volatile
 * write, and the scheduler reads it once per scheduling pass. Shrinking a cap never blocks nor
 * drops anything: requests already out simply finish and no new one goes out until it is met.
 *
 * @param version increases with every allocation the resource manager publishes; 0 = static
 */
public record Allocation(long version, double[] weights, int[] caps) {
    public Allocation {
        weights = weights.clone();
        caps = caps.clone();
        for (double w : weights) {
            if (!(w > 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("weights must be positive and finite: " + Arrays.toString(weights));
            }
        }
        for (int c : caps) {
            if (c < 0) {
                throw new IllegalArgumentException("caps must be ≥ 0: " + Arrays.toString(caps));
            }
        }
    }

    public double weight(int classIndex) {
        return weights[classIndex];
    }

    public int cap(int serverIndex) {
        return caps[serverIndex];
    }

    public int classCount() {
        return weights.length;
    }

    public int serverCount() {
        return caps.length;
    }

    /** This allocation (of {@code was}'s classes and servers) carried over by name to those of {@code next}. */
    public Allocation carriedOver(SlagateConfig was, SlagateConfig next) {
        Allocation fresh = fromConfig(next);
        double[] w = fresh.weights().clone();
        for (int c = 0; c < w.length; c++) {
            int old = was.classIndex(next.classes().get(c).name());
            if (old >= 0) {
                w[c] = weight(old);
            }
        }
        int[] n = fresh.caps().clone();
        for (int s = 0; s < n.length; s++) {
            String id = next.servers().get(s).id();
            for (int o = 0; o < was.servers().size(); o++) {
                if (was.servers().get(o).id().equals(id)) {
                    n[s] = Math.min(cap(o), next.servers().get(s).concurrency());
                }
            }
        }
        return new Allocation(version(), w, n);
    }

    /**
     * The static allocation of a configuration: its weights (1 for a class without one) and caps
     * (N_s for a server without one).
     */
    public static Allocation fromConfig(SlagateConfig config) {
        var classes = config.classes();
        var servers = config.servers();
        double[] w = new double[classes.size()];
        int[] n = new int[servers.size()];
        for (int c = 0; c < w.length; c++) {
            w[c] = config.allocation().weights().getOrDefault(classes.get(c).name(), 1.0);
        }
        for (int s = 0; s < n.length; s++) {
            n[s] = config.allocation().caps().getOrDefault(servers.get(s).id(), servers.get(s).concurrency());
        }
        return new Allocation(0, w, n);
    }

    /** N_g = Σ_s N_{g,s} (eq. 1). */
    public int totalCap() {
        int n = 0;
        for (int c : caps) {
            n += c;
        }
        return n;
    }

    @Override
    public double[] weights() {
        return weights.clone();
    }

    @Override
    public int[] caps() {
        return caps.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Allocation a && a.version == version && Arrays.equals(a.weights, weights) && Arrays.equals(a.caps, caps);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(version) * 31 + Arrays.hashCode(weights) * 17 + Arrays.hashCode(caps);
    }

    @Override
    public String toString() {
        return "Allocation{v" + version + ", w=" + Arrays.toString(weights) + ", N=" + Arrays.toString(caps) + "}";
    }
}
