package io.slagate.experiment;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Repetitions of one figure: the mean with [min..max], as every headline line prints it, and the
 * alternating order (A B B A A B …) in which two sides are run so that a drift over the run (a warming
 * JIT, a neighbour's load) falls on both.
 */
record Spread(double mean, double min, double max, int n) {
    static Spread of(List<Double> values) {
        if (values.isEmpty()) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            sum += v;
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return new Spread(sum / values.size(), min, max, values.size());
    }

    static Spread of(double... values) {
        return of(Arrays.stream(values).boxed().toList());
    }

    /** The mean, and [min..max] after it when there is more than one repetition; {@code format} as for one value. */
    String format(String format) {
        String m = String.format(Locale.ROOT, format, mean);
        return n < 2 ? m : m + String.format(Locale.ROOT, " [" + format + ".." + format + "]", min, max);
    }

    /** Whether side A runs at position {@code i} of an ABBA order: A B B A A B B A … */
    static boolean aAt(int i) {
        return (i % 4 == 0) || (i % 4 == 3);
    }
}
