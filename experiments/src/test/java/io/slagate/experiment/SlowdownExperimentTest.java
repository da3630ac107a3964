package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The slowdown's summary arithmetic on series whose answer is known. */
class SlowdownExperimentTest {
    private static final List<Long> TEN = List.of(10L, 10L, 10L, 10L, 10L, 10L, 10L, 10L, 10L, 10L);

    @Test
    void violationSeconds_countsSecondsAboveTarget_andSecondsWithoutAnswers() {
        assertEquals(3, SlowdownExperiment.violationSeconds(List.of(1.0, 2.5, Double.NaN, 1.9, 3.0), 2, 5));
        assertEquals(2, SlowdownExperiment.violationSeconds(List.of(1.0), 2, 3), "seconds past the series count above");
    }

    @Test
    void backWithinTarget_isOnePastTheLastWindowAboveTarget() {
        List<Double> neverLeft = List.of(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0);
        assertEquals(0, SlowdownExperiment.backWithinTarget(neverLeft, TEN, 2, 1, 10));
        List<Double> dip = List.of(5.0, 5.0, 5.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0);
        assertEquals(3, SlowdownExperiment.backWithinTarget(dip, TEN, 2, 1, 10));
        // a window of 3 (equal answers): second 4's mean is (5 + 1 + 1) / 3 > 2, second 5's is 1
        assertEquals(5, SlowdownExperiment.backWithinTarget(dip, TEN, 2, 3, 10));
        // within early, above later: back only after the later excursion
        List<Double> late = List.of(1.0, 1.0, 1.0, 1.0, 1.0, 5.0, 5.0, 1.0, 1.0, 1.0);
        assertEquals(7, SlowdownExperiment.backWithinTarget(late, TEN, 2, 1, 10));
        List<Double> endsAbove = List.of(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 5.0);
        assertEquals(10, SlowdownExperiment.backWithinTarget(endsAbove, TEN, 2, 1, 10), "above at the end: the whole step");
        assertEquals(10, SlowdownExperiment.backWithinTarget(List.of(1.0), List.of(10L), 2, 1, 10), "no answers: above");
    }

    @Test
    void backWithinTarget_weighsTheWindowBySecondsAnswers() {
        // second 1's one slow answer beside second 0's nine fast ones: (9 * 1 + 1 * 11) / 10 = 2, within
        List<Double> means = List.of(1.0, 11.0, 1.0);
        assertEquals(0, SlowdownExperiment.backWithinTarget(means, List.of(9L, 1L, 9L), 2, 2, 3));
        assertEquals(3, SlowdownExperiment.backWithinTarget(means, List.of(1L, 9L, 1L), 2, 2, 3));
    }
}
