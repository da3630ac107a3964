package io.slagate.experiment.twin;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;

/**
 * A random time in seconds: a request's work at a server of speed 1, or a client's think time. Exponential,
 * lognormal with a given coefficient of variation, a mixture of two exponentials (bimodal), or fixed.
 */
public final class Demand {
    private final String text;
    private final double mean;
    private final ToDoubleFunction<SplittableRandom> draw;

    private Demand(String text, double mean, ToDoubleFunction<SplittableRandom> draw) {
        this.text = text;
        this.mean = mean;
        this.draw = draw;
    }

    public double sample(SplittableRandom random) {
        return draw.applyAsDouble(random);
    }

    public double mean() {
        return mean;
    }

    @Override
    public String toString() {
        return text;
    }

    public static Demand exponential(double mean) {
        positive("mean", mean);
        return new Demand(String.format(Locale.ROOT, "exponential(%g)", mean), mean, r -> exponential(r, mean));
    }

    /** Lognormal of this mean and coefficient of variation (σ/μ). */
    public static Demand lognormal(double mean, double cv) {
        positive("mean", mean);
        positive("cv", cv);
        double s2 = Math.log(1 + cv * cv);
        double mu = Math.log(mean) - s2 / 2, s = Math.sqrt(s2);
        return new Demand(String.format(Locale.ROOT, "lognormal(%g, cv %g)", mean, cv), mean, r -> {
            double z = Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
            return Math.exp(mu + s * z);
        });
    }

    /** With probability {@code p} an exponential of mean {@code shortMean}, else one of mean {@code longMean}. */
    public static Demand bimodal(double p, double shortMean, double longMean) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("a probability between 0 and 1: " + p);
        }
        positive("shortMean", shortMean);
        positive("longMean", longMean);
        return new Demand(String.format(Locale.ROOT, "bimodal(%g: %g, %g)", p, shortMean, longMean), p * shortMean + (1 - p) * longMean,
                r -> exponential(r, r.nextDouble() < p ? shortMean : longMean));
    }

    public static Demand fixed(double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("a time must be finite and not negative: " + seconds);
        }
        return new Demand(String.format(Locale.ROOT, "fixed(%g)", seconds), seconds, r -> seconds);
    }

    private static double exponential(SplittableRandom r, double mean) {
        return -mean * Math.log(1 - r.nextDouble());
    }

    private static void positive(String what, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be positive and finite: " + v);
        }
    }
}
