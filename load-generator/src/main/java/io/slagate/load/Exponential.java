package io.slagate.load;

import java.util.SplittableRandom;

/** Exponentially distributed durations from a seeded stream: think times and Poisson inter-arrival times. */
public final class Exponential {
    private final SplittableRandom random;
    private final double meanNanos;

    public Exponential(SplittableRandom random, double meanNanos) {
        this.random = random;
        this.meanNanos = meanNanos;
    }

    public long nextNanos() {
        return (long) (-Math.log(1 - random.nextDouble()) * meanNanos);
    }
}
