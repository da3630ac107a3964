package io.slagate.experiment.twin;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A random time in seconds: a request's work at a server of speed 1, or a client's think time. Exponential,
 * lognormal with a given coefficient of variation, a mixture of two exponentials (bimodal), or fixed.
 */
public interface Demand {
    double sample(SplittableRandom random);

    double mean();

    static Demand exponential(double mean) {
        positive("mean", mean);
        return new Demand() {
            @Override
            public double sample(SplittableRandom r) {
                return -mean * Math.log(1 - r.nextDouble());
            }

            @Override
            public double mean() {
                return mean;
            }

            @Override
            public String toString() {
                return String.format(Locale.ROOT, "exponential(%g)", mean);
            }
        };
    }

    /** Lognormal of this mean and coefficient of variation (σ/μ). */
    static Demand lognormal(double mean, double cv) {
        positive("mean", mean);
        positive("cv", cv);
        double s2 = Math.log(1 + cv * cv);
        double mu = Math.log(mean) - s2 / 2;
        double s = Math.sqrt(s2);
        return new Demand() {
            @Override
            public double sample(SplittableRandom r) {
                double u = 1 - r.nextDouble();
                double z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r.nextDouble());
                return Math.exp(mu + s * z);
            }

            @Override
            public double mean() {
                return mean;
            }

            @Override
            public String toString() {
                return String.format(Locale.ROOT, "lognormal(%g, cv %g)", mean, cv);
            }
        };
    }

    /** With probability {@code p} an exponential of mean {@code shortMean}, else one of mean {@code longMean}. */
    static Demand bimodal(double p, double shortMean, double longMean) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("a probability between 0 and 1: " + p);
        }
        positive("shortMean", shortMean);
        positive("longMean", longMean);
        return new Demand() {
            @Override
            public double sample(SplittableRandom r) {
                double m = r.nextDouble() < p ? shortMean : longMean;
                return -m * Math.log(1 - r.nextDouble());
            }

            @Override
            public double mean() {
                return p * shortMean + (1 - p) * longMean;
            }

            @Override
            public String toString() {
                return String.format(Locale.ROOT, "bimodal(%g: %g, %g)", p, shortMean, longMean);
            }
        };
    }

    static Demand fixed(double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("a time must be finite and not negative: " + seconds);
        }
        return new Demand() {
            @Override
            public double sample(SplittableRandom r) {
                return seconds;
            }

            @Override
            public double mean() {
                return seconds;
            }

            @Override
            public String toString() {
                return String.format(Locale.ROOT, "fixed(%g)", seconds);
            }
        };
    }

    private static void positive(String what, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be positive and finite: " + v);
        }
    }
}
