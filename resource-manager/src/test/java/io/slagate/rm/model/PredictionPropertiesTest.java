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
}
