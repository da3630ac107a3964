package io.slagate.rm.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The online correction fed a synthetic plant whose right answer is known: the plant's response time
 * moves with the share exactly half as much as M/M/1 says. The gain must settle at 0.5, the reported
 * error must fall, and the bound must hold. No clock: cycles are calls.
 */
class ModelCorrectionTest {
    /** The plant's truth: t(w) = 0.2 + 4/w. */
    private static double plant(double w) {
        return 0.2 + 4 / w;
    }

    /** A model with the right shape and twice the plant's sensitivity: t(w) = t~ + 8(1/w − 1/w~). The right gain is 0.5. */
    private static final ResponseTimeModel TWICE = new ResponseTimeModel() {
        @Override
        public double predictSeconds(FlowObservation o, double w) {
            return o.responseSeconds() + 8 * (1 / w - 1 / o.weight());
        }

        @Override
        public String name() {
            return "twice";
        }
    };

    @Test
    void gain_settlesWhereThePlantIs_errorFalls() {
        ModelCorrection c = new ModelCorrection(4);
        FlowObservation now = new FlowObservation(4, plant(5), 5);
        double firstError = Double.NaN;
        for (int cycle = 0; cycle < 40; cycle++) {
            double w = cycle % 2 == 0 ? 8 : 4; // the controller alternates between two shares
            double predicted = c.predict("g/premium", TWICE, now, w);
            c.predicted("g/premium", now, w, predicted);
            FlowObservation measured = new FlowObservation(4, plant(w), w);
            c.observe("g/premium", measured, 1);
            if (cycle == 0) {
                firstError = c.error("g/premium");
            }
            now = measured;
        }
        assertEquals(0.5, c.gain("g/premium"), 0.01);
        assertTrue(c.error("g/premium") < firstError / 20, "error " + c.error("g/premium") + " from " + firstError);
    }

    @Test
    void noSharePredictedFor_noUpdate_andBoundsHold() {
        ModelCorrection c = new ModelCorrection(2);
        FlowObservation o = new FlowObservation(4, 1.0, 5);
        c.predicted("f", o, 8, 0.5);
        c.observe("f", new FlowObservation(4, 0.9, 5), 1); // the new share is not in force yet
        assertTrue(Double.isNaN(c.error("f")));
        assertEquals(1.0, c.gain("f"));
        for (int i = 0; i < 50; i++) {
            c.predicted("f", o, 8, 0.9); // predicted a small change...
            c.observe("f", new FlowObservation(4, 0.1, 8), 1); // ...and the plant moved nine times as far
        }
        assertEquals(2.0, c.gain("f"), 1e-6, "held at the bound");
        assertThrows(IllegalArgumentException.class, () -> new ModelCorrection(0.5));
        assertThrows(IllegalArgumentException.class, () -> new ModelCorrection(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new ModelCorrection(Double.POSITIVE_INFINITY));
    }

    @Test
    void prediction_keepsTheMeasuredLevel_atTheMeasuredShare() {
        ModelCorrection c = new ModelCorrection(4);
        FlowObservation o = new FlowObservation(18, 0.9, 10, 18, 0.5);
        for (ResponseTimeModel m : new ResponseTimeModel[] {new MM1Model(), new ErlangCModel(), new ClosedPopulationModel()}) {
            assertEquals(0.9, c.predict("f", m, o, 10), 1e-9, m.name());
            assertTrue(c.predict("f", m, o, 8) > c.predict("f", m, o, 12), m.name() + ": fewer slots, longer");
        }
    }

    @Test
    void aPredictionThatMissesTenfold_isReportedWithWhatLedToIt() {
        ModelCorrection c = new ModelCorrection(4);
        List<String> said = new ArrayList<>();
        c.onBlownPrediction(said::add);
        c.predicted("f", new FlowObservation(4, 1.0, 5), 4, 3.0); // off by 2x: not reported
        c.observe("f", new FlowObservation(4, 1.5, 4), 1);
        assertEquals(List.of(), said);
        c.predicted("f", new FlowObservation(4, 1.5, 4), 3, 150.0);
        c.observe("f", new FlowObservation(4, 1.0, 3), 1);
        assertEquals(1, said.size());
        assertTrue(said.get(0).startsWith("model error 14900% for f: predicted 150.0000 s at w=3.000 (from t~=1.5000 s at w~=4.000)"),
                said.get(0));
    }
}
