package io.slagate.experiment.twin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Control quality in the build: the controller, run by the twin over 20 seeds, against the static weights an
 * operator could hold instead. A change to the controller that makes it worse fails here.
 */
class ControlQualityTest {
    private static final int SEEDS = 20;

    @Test
    void experimentB_controllerBeatsTheBestStaticWeightsAndKeepsUpWithThePhaseOracle() {
        PolicyComparison.Outcome o = PolicyComparison.run(TwinExperiments.b(TwinExperiments.B_PHASE_SECONDS), SEEDS, 1, 2);
        System.out.print(TwinReport.phases(o) + TwinReport.controllerClasses(o));
        System.out.println(o.line());
        double[] a = o.gapToBestStatic(), b = o.gapToPhaseOracle();
        assertTrue(a[0] - a[1] > 0, "the controller against the best static weights: " + o.line());
        assertTrue(b[0] - b[1] >= -0.05, "the controller against the phase oracle: " + o.line());
        assertEquals(0, o.predictionsOutOfRange(), o.line());
        // Settling within 3 cycles at the 90th percentile is out of reach on B: Φ_D's one best split needs a bet on data
        // that an open plant gives alike (AlikePlantsTest), and on Φ_C's plateau the band's edge moves with the seeds.
        // Over these 20 seeds the p90 reads 8; this bound keeps it from getting worse.
        assertTrue(o.settlePercentile(0.9) <= 12, "settling: " + o.line());
    }

    @Test
    void experimentCSaturatedPoint_controllerHoldsItsOwnAgainstTheBestStaticWeights() {
        PolicyComparison.Outcome o = PolicyComparison.run(TwinExperiments.c(20, 20, TwinExperiments.B_PHASE_SECONDS), SEEDS, 1, 2);
        System.out.print(TwinReport.phases(o) + TwinReport.controllerClasses(o));
        System.out.println(o.line());
        double[] gap = o.gapToBestStatic();
        assertTrue(gap[0] - gap[1] >= -0.05, "the controller against the best static weights: " + o.line());
        assertTrue(o.settlePercentile(0.9) <= 3, "settling: " + o.line());
    }
}
