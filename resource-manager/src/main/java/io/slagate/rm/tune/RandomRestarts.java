package io.slagate.rm.tune;

import java.util.Random;
import java.util.function.Function;

/**
 * Another strategy, restarted from a random point of the cube every {@code every} trials, keeping the best point
 * seen across restarts: a local search (simplex, hill climbing) stuck on a local optimum gets another start.
 */
public final class RandomRestarts implements SearchStrategy {
    private final Function<double[], SearchStrategy> factory;
    private final int every;
    private final Random random;
    private final int d;
    private SearchStrategy current;
    private int trials;
    private double[] pending;
    private double[] best;
    private double bestValue = Double.NEGATIVE_INFINITY;

    /** @param factory a strategy starting from the point given */
    public RandomRestarts(double[] start, Function<double[], SearchStrategy> factory, int every, Random random) {
        this.factory = factory;
        this.every = every;
        this.random = random;
        this.d = start.length;
        this.current = factory.apply(start.clone());
    }

    @Override
    public double[] next() {
        if (trials > 0 && trials % every == 0) {
            double[] p = new double[d];
            for (int j = 0; j < d; j++) {
                p[j] = random.nextDouble();
            }
            current = factory.apply(p);
        }
        pending = current.next();
        return pending.clone();
    }

    @Override
    public void report(double value) {
        trials++;
        current.report(value);
        if (value > bestValue) {
            bestValue = value;
            best = pending.clone();
        }
    }

    @Override
    public double[] best() {
        return best == null ? null : best.clone();
    }

    @Override
    public double bestValue() {
        return bestValue;
    }
}
