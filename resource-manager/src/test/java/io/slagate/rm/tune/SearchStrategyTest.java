package io.slagate.rm.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The strategies on functions whose optimum is known, measured with seeded noise. */
class SearchStrategyTest {
    /** A concave bowl with its top at (0.7, 0.3), value 0 there. */
    private static final ToDoubleFunction<double[]> BOWL = p -> -((p[0] - 0.7) * (p[0] - 0.7) + (p[1] - 0.3) * (p[1] - 0.3));

    /** Two hills: a low one at (0.2, 0.2) (value 0.5) and the high one at (0.8, 0.8) (value 1). */
    private static final ToDoubleFunction<double[]> TWO_HILLS = p -> Math.max(
            0.5 - 4 * ((p[0] - 0.2) * (p[0] - 0.2) + (p[1] - 0.2) * (p[1] - 0.2)),
            1.0 - 4 * ((p[0] - 0.8) * (p[0] - 0.8) + (p[1] - 0.8) * (p[1] - 0.8)));

    private static double[] search(SearchStrategy s, ToDoubleFunction<double[]> f, int trials, double noise, long seed) {
        Random r = new Random(seed);
        for (int i = 0; i < trials; i++) {
            double[] p = s.next();
            for (double x : p) {
                assertTrue(x >= 0 && x <= 1, "within the knobs' bounds: " + x);
            }
            s.report(f.applyAsDouble(p) + noise * r.nextGaussian());
        }
        return s.best();
    }

    private static double distance(double[] p, double x, double y) {
        return Math.hypot(p[0] - x, p[1] - y);
    }

    @Test
    void nelderMead_findsTheTopOfABowl_underNoise() {
        double[] best = search(new NelderMead(new double[] {0.1, 0.9}, 0.2, 0.01), BOWL, 60, 0.0005, 1);
        assertTrue(distance(best, 0.7, 0.3) < 0.08, "best " + best[0] + ", " + best[1]);
    }

    @Test
    void hillClimb_findsTheTopOfABowl_underNoise() {
        double[] best = search(new HillClimb(new double[] {0.1, 0.9}, 0.2, 0.02, new Random(2)), BOWL, 80, 0.0005, 3);
        assertTrue(distance(best, 0.7, 0.3) < 0.12, "best " + best[0] + ", " + best[1]);
    }

    @Test
    void randomRestarts_leaveALocalHill_thatAPlainSimplexStaysOn() {
        double[] stuck = search(new NelderMead(new double[] {0.15, 0.15}, 0.1, 0.01), TWO_HILLS, 80, 0.001, 4);
        assertTrue(distance(stuck, 0.2, 0.2) < 0.1, "the simplex alone stays on the low hill: " + stuck[0] + ", " + stuck[1]);
        RandomRestarts restarts = new RandomRestarts(new double[] {0.15, 0.15}, p -> new NelderMead(p, 0.1, 0.01), 20, new Random(5));
        double[] found = search(restarts, TWO_HILLS, 80, 0.001, 4);
        assertTrue(distance(found, 0.8, 0.8) < 0.1, "restarts reach the high one: " + found[0] + ", " + found[1]);
        assertEquals(1.0, restarts.bestValue(), 0.05);
    }

    @Test
    void aFailedMeasurement_isTheWorst_neverTheBest() {
        NelderMead s = new NelderMead(new double[] {0.5}, 0.2, 0.01);
        s.next();
        s.report(0.3);
        s.next();
        s.report(Double.NaN);
        assertEquals(0.3, s.bestValue(), 1e-12);
        assertEquals(0.5, s.best()[0], 1e-12);
    }
}
