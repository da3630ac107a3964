package io.slagate.rm.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Properties every prediction must have, for every model and through the correction, over random observations (seeded,
 * so a failure repeats): finite and positive; never slower with more share; the measurement itself at the measured
 * share (for a flow measured stable and not in overload).
 */
class PredictionPropertiesTest {
    private static final int CASES = 3_000;

    /** A random flow: λ up to 500/s, S from 1 ms to 2 s, on 1 to 50 slots, at a utilization from 5% to 140%. */
    private static FlowObservation observation(Random r) {
        double s = Math.exp(Math.log(0.001) + r.nextDouble() * Math.log(2000));
        double w = 1 + r.nextInt(50);
        double rho = 0.05 + 1.35 * r.nextDouble();
        double lambda = rho * w / s;
        double x = Math.min(lambda, w / s * (0.9 + 0.1 * r.nextDouble()));
        double t = s * (1 + r.nextDouble() * (rho < 1 ? rho / (1 - rho) : 50));
        return new FlowObservation(lambda, t, w, x, s);
    }

    private static List<String> failures(ResponseTimeModel model, boolean corrected) {
        Random r = new Random(7);
        List<String> out = new ArrayList<>();
        ModelCorrection correction = new ModelCorrection(4);
        for (int i = 0; i < CASES && out.size() < 5; i++) {
            FlowObservation o = observation(r);
            double before = Double.POSITIVE_INFINITY;
            for (double w = 0.25; w <= 100; w *= 1.25) {
                double t = corrected ? correction.predict("f", model, o, w) : model.predictSeconds(o, w);
                if (!(t > 0) || !Double.isFinite(t)) {
                    out.add(model.name() + " " + o + " at w=" + w + ": " + t);
                    break;
                }
                if (t > before * (1 + 1e-9)) {
                    out.add(model.name() + " " + o + " slower at w=" + w + ": " + t + " after " + before);
                    break;
                }
                before = t;
            }
        }
        return out;
    }

    @Test
    void everyModel_predictsFinitePositive_neverSlowerWithMoreShare() {
        List<String> all = new ArrayList<>();
        for (String name : ResponseTimeModel.NAMES) {
            all.addAll(failures(ResponseTimeModel.named(name), false));
        }
        assertEquals(List.of(), all);
    }

    @Test
    void theCorrection_keepsEveryProperty() {
        List<String> all = new ArrayList<>();
        for (String name : ResponseTimeModel.NAMES) {
            all.addAll(failures(ResponseTimeModel.named(name), true));
        }
        assertEquals(List.of(), all);
    }

    @Test
    void theCorrection_agreesWithTheMeasurement_atTheMeasuredShare() {
        Random r = new Random(11);
        ModelCorrection correction = new ModelCorrection(4);
        for (String name : ResponseTimeModel.NAMES) {
            ResponseTimeModel model = ResponseTimeModel.named(name);
            for (int i = 0; i < CASES; i++) {
                FlowObservation o = observation(r);
                if (o.throughput() < 0.95 * o.arrivalRate() || model.predictSeconds(o, o.weight()) >= ResponseTimeModel.UNSTABLE_SECONDS) {
                    continue;
                }
                double t = correction.predict("f", model, o, o.weight());
                assertTrue(Math.abs(t - o.responseSeconds()) <= 1e-9 * o.responseSeconds(), name + " " + o + ": " + t);
            }
        }
    }

    /**
     * Cases from experiment B's log (20 closed-loop clients per class, 10 slots, 50 ms service): the open model's
     * edge sits inside what the closed loop measured served, and the additive correction from there crossed zero
     * (-7,345 s) or went astronomical, and the floor then made premium look served at 6 slots.
     */
    @Test
    void aServedFlowNearOrPastTheModelsEdge_isPredictedPositive_andNeverSlowerWithMoreShare() {
        ModelCorrection correction = new ModelCorrection(4);
        ResponseTimeModel mmm = ResponseTimeModel.named("mmm");
        // basic at 4 slots: 77.3/s measured served in 211 ms; M/M/4 at 53 ms is past its edge there (75.5/s)
        FlowObservation past = new FlowObservation(77.333, 0.2113, 4.0, 80.667, 0.0530);
        assertTrue(mmm.predictSeconds(past, 4.0) >= ResponseTimeModel.UNSTABLE_SECONDS, "the case is past the model's edge");
        assertEquals(0.2113, correction.predict("basic", mmm, past, 4.0), 1e-12, "the measurement at the measured share");
        assertEquals(0.2113 * 4 / 4.165, correction.predict("basic", mmm, past, 4.165), 1e-12, "its full share's work on "
                + "more slots: the least a closed population that keeps its share full gains");
        assertEquals(0.0530, correction.predict("basic", mmm, past, 40), 1e-12, "never below the service time");
        assertEquals(0.2113 * 4 / 3, correction.predict("basic", mmm, past, 3.0), 1e-12, "its busy slots' work on 3 slots");
        // premium at 5.33 slots: 95.3/s served in 154 ms; the model says seconds there, milliseconds one slot up
        FlowObservation near = new FlowObservation(95.333, 0.154, 5.332, 95.0, 0.054);
        double before = Double.POSITIVE_INFINITY;
        for (double w = 5.332; w <= 10; w += 0.05) {
            double t = correction.predict("premium", mmm, near, w);
            assertTrue(t > 1e-6 && t <= before * (1 + 1e-9), "at w=" + w + ": " + t + " after " + before);
            before = t;
        }
        assertEquals(0.154, correction.predict("premium", mmm, near, 5.332), 1e-9, "the measurement at the measured share");
        assertEquals(0, correction.outOfRange(), "nothing out of range for flows measured served");
    }

    /**
     * Premium from experiment B's log: served in 117 ms at 6.67 slots, but busier than that share within the window
     * (125.3/s × 54 ms = 6.77 slots), so M/M/m is past its edge there and its extension answered 5,622 s for 6 slots; and
     * basic, served in 105 ms at 7.5 slots, whose forecast rate carried the model past its edge one step up (9,788 s).
     */
    @Test
    void aServedFlow_isNeverPredictedBeyondItsBoundedFigure() {
        ModelCorrection correction = new ModelCorrection(4);
        ResponseTimeModel mmm = ResponseTimeModel.named("mmm");
        FlowObservation premium = new FlowObservation(125.333, 0.117, 6.666, 125.0, 0.054);
        assertEquals(0.117 * 6.666 / 6, correction.predict("premium", mmm, premium, 6.0), 1e-12);
        FlowObservation basic = new FlowObservation(130.0, 0.1052, 7.501, 130.0, 0.0563, Double.NaN, 136.0);
        double t = correction.predict("basic", mmm, basic, 7.664);
        assertTrue(t <= 4 * 0.1052 * (1 + 1e-12), "at most four times the level where the model is past its edge: " + t);
        assertTrue(t >= 0.1052, "the forecast's rise is kept up to the bound: " + t);
        assertTrue(correction.predict("premium", mmm, premium, 10) >= 0.054, "never below the service time measured");
        FlowObservation nearEdge = new FlowObservation(133.333, 0.098, 6.0, 133.0, 0.042);
        assertTrue(correction.predict("premium", mmm, nearEdge, 7.0) >= 0.042, "the model's pole carries the proportional "
                + "form towards zero one slot up; the service time bounds it");
        assertEquals(0, correction.outOfRange());
    }

    /** The quantile of a served flow past the model's edge, without a measured percentile: the mean's, bounded the same way. */
    @Test
    void aServedFlowPastTheEdge_hasABoundedQuantileToo() {
        ModelCorrection correction = new ModelCorrection(4);
        ResponseTimeModel mmm = ResponseTimeModel.named("mmm");
        FlowObservation past = new FlowObservation(77.333, 0.2113, 4.0, 80.667, 0.0530);
        double p95 = 0.2113 * -Math.log1p(-0.95);
        assertEquals(p95, correction.predictQuantile("basic", mmm, past, 4.0, 0.95), 1e-12, "exponential about the measured mean");
        assertEquals(p95 * 4 / 3, correction.predictQuantile("basic", mmm, past, 3.0, 0.95), 1e-12, "its busy slots' work on 3");
        assertEquals(0, correction.outOfRange());
    }

    /**
     * A flow measured in overload (3,000/s offered, 500/s served in 2 s on 5 slots) is predicted from the model alone,
     * bounded by what its queue held: past the model's edge no share looks better than the one measured (a flood wins
     * nothing by more slots it cannot use), fewer slots look proportionally slower, and a share the model calls stable
     * is what the model says. Before, the additive correction carried the 2 s below zero at 9.9 slots and the 1 ns floor
     * made the flood look served there.
     */
    @Test
    void anOverloadedFlow_isTheModelAlone_boundedByItsQueue() {
        ModelCorrection correction = new ModelCorrection(4);
        ResponseTimeModel mmm = ResponseTimeModel.named("mmm");
        FlowObservation flooded = new FlowObservation(3000, 2.0, 5.0, 500, 0.01);
        assertEquals(2.0, correction.predict("flooded", mmm, flooded, 5.0), 1e-12, "the measurement at the measured share");
        assertEquals(2.0, correction.predict("flooded", mmm, flooded, 9.9), 1e-12, "past the model's edge: no better");
        assertEquals(4.0, correction.predict("flooded", mmm, flooded, 2.5), 1e-12, "its five busy slots' work on 2.5");
        assertEquals(mmm.predictSeconds(flooded, 40), correction.predict("flooded", mmm, flooded, 40), 1e-12,
                "below the edge: the model alone");
        assertTrue(correction.predict("flooded", mmm, flooded, 40) < 0.02);
        assertEquals(0, correction.outOfRange());
    }

    /**
     * Every flow measured in overload, through every model: never above the bounded figure from its level (at most its
     * queue's time on the slots it kept busy), never above the model alone, and the measured level itself at the measured
     * share wherever the model is past its edge there.
     */
    @Test
    void overloadedFlows_areBoundedByTheirQueue_andByTheModel() {
        Random r = new Random(13);
        ModelCorrection correction = new ModelCorrection(4);
        int seen = 0;
        for (String name : ResponseTimeModel.NAMES) {
            ResponseTimeModel model = ResponseTimeModel.named(name);
            for (int i = 0; i < CASES; i++) {
                FlowObservation o = observation(r);
                if (!(o.throughput() < 0.95 * o.arrivalRate())) {
                    continue;
                }
                seen++;
                for (double w = 0.25; w <= 100; w *= 1.25) {
                    double t = correction.predict("f", model, o, w);
                    double bound = o.responseSeconds() * Math.max(1, o.weight() / w);
                    assertTrue(t <= bound * (1 + 1e-12) && t <= model.predictSeconds(o, w) * (1 + 1e-12),
                            name + " " + o + " at w=" + w + ": " + t);
                }
                if (model.predictSeconds(o, o.weight()) >= ResponseTimeModel.UNSTABLE_SECONDS) {
                    assertEquals(o.responseSeconds(), correction.predict("f", model, o, o.weight()), 1e-12 * o.responseSeconds());
                }
            }
        }
        assertTrue(seen > 1_000, "overloaded cases: " + seen);
        assertEquals(0, correction.outOfRange());
    }

    /** A change of load drops what was learned of the plant before it: the gain and the decision pending judgement. */
    @Test
    void aRestartedFlow_forgetsItsGain_andItsPendingDecision() {
        ModelCorrection correction = new ModelCorrection(4);
        ResponseTimeModel mmm = ResponseTimeModel.named("mmm");
        FlowObservation at4 = new FlowObservation(40, 0.05, 4.0, 40, 0.04);
        correction.decidedAt("f", at4);
        correction.observe("f", new FlowObservation(40, 0.2, 3.0, 40, 0.04), mmm); // far slower than M/M/m says
        double learned = correction.gain("f");
        assertTrue(learned > 1.0, "the model under-reacted: " + learned);
        correction.decidedAt("f", at4);
        correction.restart("f");
        assertEquals(1.0, correction.gain("f"));
        correction.observe("f", new FlowObservation(40, 0.2, 3.0, 40, 0.04), mmm);
        assertEquals(1.0, correction.gain("f"), "nothing pending to judge after the restart");
    }
}
