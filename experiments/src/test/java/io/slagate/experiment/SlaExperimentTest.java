package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The late-work summary's arithmetic on runs whose answer is known. */
class SlaExperimentTest {
    @Test
    void spread_isTheMeanWithMinAndMax_andTheMeanAloneForOneRun() {
        List<double[]> runs = List.of(new double[] {0, 0.25}, new double[] {0, 0.75}, new double[] {0, 0.5});
        assertEquals("0.50 [0.25..0.75]", SlaExperiment.spread(runs, 1, "%.2f"));
        assertEquals("0.25", SlaExperiment.spread(List.of(new double[] {0, 0.25}), 1, "%.2f"));
    }

    @Test
    void rise_isTheQuietCustomersMeanP95AgainstTheirMeanAlone() {
        assertEquals(0.5, SlaExperiment.rise(new double[] {150, 150}, new double[] {100, 100}), 1e-12);
        assertEquals(-0.25, SlaExperiment.rise(new double[] {60, 90}, new double[] {100, 100}), 1e-12);
    }
}
