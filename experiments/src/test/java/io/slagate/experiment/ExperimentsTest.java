package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The experiments' own arithmetic on synthetic samples whose answer is known. */
class ExperimentsTest {
    @Test
    void settleCycles_countFromTheFirstDecisionAfterTheChangeUntilTheWeightStaysInItsBand() {
        List<DecisionTrace.Point> t = new ArrayList<>();
        // a change at 1,000 ms; decisions every 250 ms from 1,100: 5, 6, 7, 8, an overshoot to 9.5, then 8.5 for good
        double[] w = {5, 6, 7, 8, 9.8, 8.5, 8.5, 8.5, 8.5, 8.5};
        t.add(new DecisionTrace.Point(900, 5)); // before the change: not counted
        for (int i = 0; i < w.length; i++) {
            t.add(new DecisionTrace.Point(1_100 + 250L * i, w[i]));
        }
        double band = DecisionTrace.band(8.5); // ±1.275
        assertEquals(1.275, band, 1e-9);
        assertEquals(5, DecisionTrace.settleCycles(t, 1_000, 5_000, 8.5, band), "from the 6th decision (the overshoot resets it)");
        assertEquals(0, DecisionTrace.settleCycles(t, 1_000, 5_000, 5.5, 20), "a band that holds everything: settled at once");
        assertEquals(-1, DecisionTrace.settleCycles(t, 1_000, 5_000, 2, DecisionTrace.band(2)), "never near 2");
        assertEquals(1.0, DecisionTrace.band(4), 1e-9, "one slot at least");
        assertEquals(5, DecisionTrace.settleCycles(t, 1_000, 5_000, List.of(3.0, 7.0), 1.5), "within 1.5 of 7 but for 9.8");
        assertEquals(-1, DecisionTrace.settleCycles(t, 1_000, 5_000, List.of(3.0, 7.0), 1.0), "8.5 is 1.5 from 7: never within 1");
        assertEquals(-1, DecisionTrace.settleCycles(t, 1_000, 5_000, List.of(3.0, 11.0), 2.0), "the targets, not the span between "
                + "them: 6, 7 and 8 are more than 2 from both 3 and 11");
        assertEquals(5, DecisionTrace.settleCycles(t, 1_000, 5_000, List.of(5.0, 8.5), 1.0), "8.5 for good from the 6th");
    }

    /** The weights as good as the best: whose one run reads within the best's re-measurements' difference of its mean. */
    @Test
    void asGood_areTheWeightsWithinTheReMeasurementsNoise() {
        List<PointSweep.Run> tried = List.of(run(1, 0.2), run(3, 0.85), run(5, 0.9), run(7, 1.0), run(9, 0.7), run(7, 0.95), run(7, 0.85));
        PointSweep.Oracle o = new PointSweep.Oracle(tried, run(7, 0.9));
        assertEquals(List.of(3.0, 5.0, 7.0), DifferentiationExperiment.asGood(o), "noise 0.1 below the mean 0.9, 7 once");
        PointSweep.Oracle lucky = new PointSweep.Oracle(List.of(run(5, 0.5), run(7, 0.6), run(7, 1.0), run(7, 1.0)), run(7, 1.0));
        assertEquals(List.of(7.0), DifferentiationExperiment.asGood(lucky), "the best's weight even where its run read below");
    }

    private static PointSweep.Run run(double w, double u) {
        return new PointSweep.Run("static", 1, 1, u, w, Double.NaN);
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
