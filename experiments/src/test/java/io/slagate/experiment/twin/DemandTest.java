package io.slagate.experiment.twin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Each random time has the mean (and spread) it is given: a moment off here would bias every twin run built on it. */
class DemandTest {
    private static double[] meanAndCv(Demand d, int n) {
        SplittableRandom r = new SplittableRandom(11);
        double sum = 0, sq = 0;
        for (int i = 0; i < n; i++) {
            double x = d.sample(r);
            sum += x;
            sq += x * x;
        }
        double m = sum / n;
        return new double[] {m, Math.sqrt(sq / n - m * m) / m};
    }

    @Test
    void samplesHaveTheirMeanAndSpread() {
        double[] e = meanAndCv(Demand.exponential(2), 400_000);
        assertEquals(2, e[0], 0.02 * 2);
        assertEquals(1, e[1], 0.02, "an exponential's CV is 1");
        double[] l = meanAndCv(Demand.lognormal(1, 1.5), 400_000);
        assertEquals(1, l[0], 0.02);
        assertEquals(1.5, l[1], 0.1);
        Demand b = Demand.bimodal(0.9, 0.5, 5);
        assertEquals(0.95, b.mean(), 1e-12);
        assertEquals(0.95, meanAndCv(b, 400_000)[0], 0.02 * 0.95);
        assertEquals(3, meanAndCv(Demand.fixed(3), 10)[0], 0);
    }

    @Test
    void impossibleTimesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Demand.exponential(0));
        assertThrows(IllegalArgumentException.class, () -> Demand.lognormal(1, -1));
        assertThrows(IllegalArgumentException.class, () -> Demand.bimodal(1.5, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> Demand.fixed(Double.POSITIVE_INFINITY));
    }
}
