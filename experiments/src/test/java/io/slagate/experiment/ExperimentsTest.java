package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.load.SecondSample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The experiments' own arithmetic on synthetic samples whose answer is known. */
class ExperimentsTest {
    private static SecondSample premium(double second, int phase, double weight) {
        return new SecondSample(second, phase, false, "premium", 10, 10, 10, 10, 100, 90, 150, 200, 250, 0, 5, weight, 0);
    }

    @Test
    void settleSeconds_isWhereTheWeightStaysInItsBand() {
        List<SecondSample> s = new ArrayList<>();
        // phase 2 starts at 100 s: the weight moves 5 → 8 over 4 s, overshoots once at 107, then stays at 8
        double[] w = {5, 6, 7, 7.8, 8, 8.1, 8, 9.5, 8, 7.9, 8, 8, 8.1, 8, 8, 7.9, 8, 8, 8, 8};
        for (int i = 0; i < w.length; i++) {
            s.add(premium(100 + i, 2, w[i]));
        }
        assertEquals(8.0, Experiments.settleSeconds(s, 2), 1e-9, "from 108 s on (the overshoot at 107 s resets it)");
        List<SecondSample> never = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            never.add(premium(i, 1, i % 2 == 0 ? 2 : 8)); // a 2-cycle: never within ±0.5 of its mean 5
        }
        assertTrue(Double.isNaN(Experiments.settleSeconds(never, 1)));
    }

    @Test
    void contour_interpolatesTheZeroCrossings() {
        int[] grid = {5, 10};
        double[][] u = {{1.0, 0.5}, {-1.0, -1.5}};
        String c = RegionReport.contour(grid, u);
        assertTrue(c.contains("(7.5, 5)"), c); // u goes 1.0 → −1.0 between L_P 5 and 10 at L_B 5: halfway
        assertTrue(c.contains("(6.3, 10)"), c); // 0.5 → −1.5 at L_B 10: a quarter of the way, 6.25
        assertTrue(c.contains("total clients 13 to 16"), c); // 12.5 and 16.25, rounded
    }
}
