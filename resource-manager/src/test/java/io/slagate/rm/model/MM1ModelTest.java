package io.slagate.rm.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import org.junit.jupiter.api.Test;

class MM1ModelTest {
    private final MM1Model model = new MM1Model();

    @Test
    void eq8_eq9_handComputed() {
        // λ~ = 4 req/s, t~ = 0.5 s at w~ = 5: μ = 1/0.5 + 4/5 = 2.8 (eq. 8)
        FlowObservation o = new FlowObservation(4, 0.5, 5);
        assertEquals(2.8, MM1Model.serviceRate(o), 1e-12);
        assertEquals(0.5, model.predictSeconds(o, 5), 1e-12, "t(w~) = t~");
        // t(10) = 1 / (2 + 4 (1/5 − 1/10)) = 1 / 2.4 (eq. 9)
        assertEquals(1 / 2.4, model.predictSeconds(o, 10), 1e-12);
        // t(2) = 1 / (2 + 4 (0.2 − 0.5)) = 1 / 0.8
        assertEquals(1.25, model.predictSeconds(o, 2), 1e-12);
    }

    @Test
    void noTraffic_orNoMeasurement_predictionIgnoresW() {
        assertEquals(0.3, model.predictSeconds(new FlowObservation(0, 0.3, 5), 1), 0);
        assertEquals(0.3, model.predictSeconds(new FlowObservation(0, 0.3, 5), 50), 0);
        assertEquals(0, model.predictSeconds(new FlowObservation(3, 0, 5), 2), 0, "t~ = 0: nothing measured yet");
        assertEquals(0, model.predictSeconds(FlowObservation.NONE, 2), 0);
    }

    @Test
    void unstable_isFiniteAboveCap_andDecreasingInW() {
        FlowObservation o = new FlowObservation(4, 0.5, 5); // unstable for w ≤ λ/μ = 4/2.8 ≈ 1.43
        double atOne = model.predictSeconds(o, 1.0);
        double atHalf = model.predictSeconds(o, 0.5);
        assertTrue(Double.isFinite(atOne) && atOne > ResponseTimeModel.UNSTABLE_SECONDS, "unstable above the cap: " + atOne);
        assertTrue(atHalf > atOne, "less share, worse");
        assertTrue(model.predictSeconds(o, 1.5) < ResponseTimeModel.UNSTABLE_SECONDS, "stable just above λ/μ");
    }

    @Test
    void prediction_isConvexAndDecreasing_acrossTheCap() {
        FlowObservation o = new FlowObservation(9, 1.2, 10);
        double prevSlope = -Double.MAX_VALUE;
        for (double w = 0.05; w < 30; w += 0.05) {
            double a = model.predictSeconds(o, w);
            double b = model.predictSeconds(o, w + 0.05);
            double slope = (b - a) / 0.05;
            assertTrue(slope <= 0, "decreasing at w=" + w);
            assertTrue(slope >= prevSlope - 1e-6 * Math.abs(prevSlope), "convex at w=" + w);
            prevSlope = slope;
        }
    }
}
