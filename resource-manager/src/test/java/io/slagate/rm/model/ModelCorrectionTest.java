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
            c.decidedAt("g/premium", now);
            FlowObservation measured = new FlowObservation(4, plant(w), w);
            c.observe("g/premium", measured, TWICE);
            if (cycle == 0) {
                firstError = c.error("g/premium");
            }
            now = measured;
        }
        assertEquals(0.5, c.gain("g/premium"), 0.01);
        assertTrue(c.error("g/premium") < firstError / 20, "error " + c.error("g/premium") + " from " + firstError);
    }

    /** A model exactly as sensitive as the plant: t(w) = t~ + 4(1/w − 1/w~). */
    private static final ResponseTimeModel EXACT = new ResponseTimeModel() {
        @Override
        public double predictSeconds(FlowObservation o, double w) {
            return o.responseSeconds() + 4 * (1 / w - 1 / o.weight());
        }

        @Override
        public String name() {
            return "exact";
        }
    };

    /**
     * The share chose 4 slots, but the next window ran partly under the 8 before it: 6 slots on the window's mean.
     * Judged at the share the window measured, an exact model is exact (gain 1, no error); judged at the share chosen,
     * it would have looked twice too sensitive, and a window lagging every cut would have taught it to under-react.
     */
    @Test
    void aWindowMeasuredPartlyUnderTheShareBefore_isJudgedAtItsOwnShare() {
        ModelCorrection c = new ModelCorrection(4);
        for (int cycle = 0; cycle < 10; cycle++) {
            c.decidedAt("f", new FlowObservation(4, plant(8), 8));
            c.observe("f", new FlowObservation(4, plant(6), 6), EXACT);
        }
        assertEquals(1.0, c.gain("f"), 1e-9);
        assertEquals(0.0, c.error("f"), 1e-9);
    }

    /** A plant whose response time follows the load per slot, t = 0.1 + 0.01·λ/w, and a model that knows it exactly. */
    private static final ResponseTimeModel LOAD_PER_SLOT = new ResponseTimeModel() {
        @Override
        public double predictSeconds(FlowObservation o, double w) {
            return o.responseSeconds() + 0.01 * (o.rateAhead() / w - o.arrivalRate() / o.weight());
        }

        @Override
        public String name() {
            return "load-per-slot";
        }
    };

    /**
     * A ramp: the arrivals rise by a tenth every cycle while the share moves. Judged at the rate the decision saw, every
     * rise would count as the model's under-reaction and drive the gain to its bound; judged at the rate measured, the
     * exact model stays exact.
     */
    @Test
    void aRampRaisingTheRate_isNotCountedAgainstTheModel() {
        ModelCorrection c = new ModelCorrection(4);
        double lambda = 50;
        double w = 3;
        FlowObservation now = new FlowObservation(lambda, 0.1 + 0.01 * lambda / w, w);
        for (int cycle = 0; cycle < 20; cycle++) {
            c.decidedAt("f", now);
            lambda *= 1.1;
            w += cycle % 3 == 2 ? -1 : 1;
            now = new FlowObservation(lambda, 0.1 + 0.01 * lambda / w, w);
            c.observe("f", now, LOAD_PER_SLOT);
            assertEquals(0.0, c.error("f"), 1e-9, "cycle " + cycle);
        }
        assertEquals(1.0, c.gain("f"), 1e-9);
    }

    /**
     * A class shed by its queue (arrivals 400/s, 280/s answered): its t~ is its queue's bound and timeout, and an open
     * model there is at its instability edge, where a rate a few requests higher predicts thousands of seconds. Such a
     * measurement judges nothing: no error, no gain, no warning.
     */
    @Test
    void aFlowMeasuredInOverload_judgesNothing() {
        ModelCorrection c = new ModelCorrection(4);
        List<String> said = new ArrayList<>();
        c.onBlownPrediction(text -> said.add(text.get()));
        ResponseTimeModel mm1 = new MM1Model();
        c.decidedAt("f", new FlowObservation(400, 0.19, 3, 280, 0.02));
        c.observe("f", new FlowObservation(406, 0.19, 2.8, 281, 0.02), mm1);
        assertTrue(Double.isNaN(c.error("f")));
        assertEquals(1.0, c.gain("f"));
        assertEquals(List.of(), said);
        assertTrue(mm1.predictSeconds(new FlowObservation(400, 0.19, 3, 280, 0.02).withForecast(406), 2.8) > 100 * 0.19,
                "what judging it would have compared: a model far past its edge");
    }

    @Test
    void aShareThatDidNotMove_teachesNoGain_andBoundsHold() {
        ModelCorrection c = new ModelCorrection(2);
        FlowObservation o = new FlowObservation(4, 1.0, 5);
        c.decidedAt("f", o);
        c.observe("f", new FlowObservation(4, 0.9, 5), TWICE); // the same share: the model predicts no change
        assertEquals(0.1 / 0.9, c.error("f"), 1e-9, "the error is measured all the same");
        assertEquals(1.0, c.gain("f"));
        c.observe("f", new FlowObservation(4, 0.1, 8), TWICE); // nothing decided since: nothing to judge
        assertEquals(1.0, c.gain("f"));
        for (int i = 0; i < 50; i++) {
            c.decidedAt("f", o);
            c.observe("f", new FlowObservation(4, 0.1, 5.5), TWICE); // the model said −0.145 s; the plant moved −0.9 s
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
        c.onBlownPrediction(text -> said.add(text.get()));
        c.decidedAt("f", new FlowObservation(4, 1.0, 5));
        c.observe("f", new FlowObservation(4, 1.5, 5), EXACT); // off by a third: not reported
        assertEquals(List.of(), said);
        c.decidedAt("f", new FlowObservation(4, 1.5, 4));
        c.observe("f", new FlowObservation(3, 0.01, 2), EXACT); // predicted 1.5 + 4·(1/2 − 1/4) = 2.5 s
        assertEquals(1, said.size());
        assertTrue(said.get(0).startsWith("model error 24900% for f: predicted 2.5000 s at w~=2.000 "
                + "(from t~=1.5000 s at w~=4.000, λ~=4.000), measured 0.0100 s (λ~=3.000"), said.get(0));
    }
}
