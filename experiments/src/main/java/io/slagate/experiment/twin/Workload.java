package io.slagate.experiment.twin;

import java.util.List;

/**
 * What the clients do, phase by phase: per class a closed population (each client thinks, sends, waits for the
 * answer) and an open Poisson rate, either or both; per class the think time and the work a request brings.
 *
 * @param classes per class of the configuration, in its order
 * @param phases  one after the other
 */
public record Workload(List<ClassLoad> classes, List<Phase> phases) {
    /** @param customer whose requests they are (null: nobody's in particular) */
    public record ClassLoad(String className, String customer, Demand think, Demand work) {
    }

    /** @param population closed clients per class; @param rate open arrivals per second per class */
    public record Phase(String name, double seconds, int[] population, double[] rate) {
        public Phase {
            if (!(seconds > 0) || Double.isInfinite(seconds)) {
                throw new IllegalArgumentException("phase " + name + ": a length must be positive: " + seconds);
            }
            for (int p : population) {
                if (p < 0) {
                    throw new IllegalArgumentException("phase " + name + ": a population cannot be negative: " + p);
                }
            }
            for (double r : rate) {
                if (!(r >= 0) || Double.isInfinite(r)) {
                    throw new IllegalArgumentException("phase " + name + ": a rate must be finite and not negative: " + r);
                }
            }
        }

        public static Phase closed(String name, double seconds, int... population) {
            return new Phase(name, seconds, population, new double[population.length]);
        }
    }

    public Workload {
        classes = List.copyOf(classes);
        phases = List.copyOf(phases);
        for (Phase p : phases) {
            if (p.population().length != classes.size() || p.rate().length != classes.size()) {
                throw new IllegalArgumentException("phase " + p.name() + " names " + p.population().length + " classes, the load "
                        + classes.size());
            }
        }
    }

    public long startNanos(int phase) {
        double s = 0;
        for (int i = 0; i < phase; i++) {
            s += phases.get(i).seconds();
        }
        return VirtualTime.nanos(s);
    }

    public long endNanos() {
        return startNanos(phases.size());
    }

    public int maxPopulation(int c) {
        return phases.stream().mapToInt(p -> p.population()[c]).max().orElse(0);
    }
}
