package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.slagate.load.SecondSample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ramp's violation seconds on synthetic samples whose answer is counted by hand. */
class AheadExperimentTest {
    private static SecondSample premium(double second, double meanMs) {
        return new SecondSample(second, 1, false, "premium", 10, 0, 10, 10, meanMs, meanMs, meanMs, meanMs, meanMs, 0, 0, 5, 0);
    }

    private static SecondSample basic(double second) {
        return new SecondSample(second, 1, false, "basic", 10, 0, 10, 10, 500, 500, 500, 500, 500, 0, 0, 5, 0);
    }

    @Test
    void onlyTheRampAndTheHoldCount_notTheSettlesLastSecond_norTheDrain() {
        List<SecondSample> samples = new ArrayList<>();
        for (int s = 1; s <= 12; s++) { // the settle: its last sample (at 12) covers its last second
            samples.add(premium(s, s == 12 ? 90 : 30));
            samples.add(basic(s));
        }
        for (int s = 13; s <= 18; s++) { // ramp and hold, 6 s: above τ (40 ms = 2 paper-s) at 14 and 17; 16 has no answers
            samples.add(premium(s, s == 14 || s == 17 ? 41 : s == 16 ? Double.NaN : 39.9));
            samples.add(basic(s));
        }
        samples.add(premium(18.1, 400)); // the drain after the load's end
        List<Double> series = AheadExperiment.rampSeries(samples, 12, 6);
        assertEquals(6, series.size());
        assertEquals(2.05, series.get(1), 1e-9);
        assertEquals(2, AheadExperiment.violationSeconds(series));
    }
}
