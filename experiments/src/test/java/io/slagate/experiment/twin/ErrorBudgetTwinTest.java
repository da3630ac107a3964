package io.slagate.experiment.twin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.experiment.paper.GapNoise;
import org.junit.jupiter.api.Test;

/**
 * Control quality in the build: with one contract near breach (80% of its budget spent at half time) and the load where
 * a static split keeps both contracts only now and then, the controller that weighs classes by their budgets keeps
 * both more often than the shipped controller, paired by seed (the twin is deterministic for a seed).
 */
class ErrorBudgetTwinTest {
    @Test
    void budgetAwareController_keepsBothContractsMoreOftenThanTheShippedOne() throws Exception {
        ErrorBudgetTwin setup = new ErrorBudgetTwin(ErrorBudgetTwin.TARGET_SECONDS, ErrorBudgetTwin.OBJECTIVE, 15, 15,
                ErrorBudgetTwin.REST_SECONDS, 0.5, 0.8, 0);
        ErrorBudgetTwin.Outcome o = setup.compare(20, 1, 2);
        double[] aware = o.kept(ErrorBudgetTwin.Outcome.AWARE, -1);
        double[] shipped = o.kept(ErrorBudgetTwin.Outcome.SHIPPED, -1);
        double[] d = new double[aware.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = aware[i] - shipped[i];
        }
        double[] gap = GapNoise.meanWithInterval(d);
        assertTrue(gap[0] - gap[1] > 0, "both contracts kept, budget-aware − shipped: " + gap[0] + " ± " + gap[1] + "\n" + o.report());
        assertEquals(6, o.bestStatic(), "the sweep's best static split by utility is 5:5 (the classes are alike)");
    }
}
