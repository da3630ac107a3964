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

    @Test
    void sides_runInRoundsAlternatelyForwardAndReversed_eachThreeTimesInNine() {
        List<SlowdownExperiment.Side> order = new java.util.ArrayList<>();
        for (int i = 0; i < 9; i++) {
            order.add(SlowdownExperiment.sideAt(i));
        }
        SlowdownExperiment.Side l = SlowdownExperiment.Side.LOCAL;
        SlowdownExperiment.Side a = SlowdownExperiment.Side.AUTO;
        SlowdownExperiment.Side s = SlowdownExperiment.Side.STATIC;
        assertEquals(List.of(l, a, s, s, a, l, l, a, s), order);
    }

    @Test
    void line_saysEachSidesMeanAndSpread_andTheSweptNs() {
        // above in the first two seconds: 2 violation seconds, and the 3-second window up to the last still above (back 3)
        List<Double> above = List.of(5.0, 5.0, 1.0);
        List<SlowdownExperiment.Run> runs = List.of(
                new SlowdownExperiment.Run(SlowdownExperiment.Side.LOCAL, above, List.of(1L, 1L, 1L), List.of(), 3),
                new SlowdownExperiment.Run(SlowdownExperiment.Side.AUTO, List.of(5.0, 5.0, 5.0), List.of(1L, 1L, 1L), List.of(), 3),
                new SlowdownExperiment.Run(SlowdownExperiment.Side.STATIC, List.of(1.0, 1.0, 1.0), List.of(1L, 1L, 1L), List.of(), 3),
                new SlowdownExperiment.Run(SlowdownExperiment.Side.LOCAL, List.of(1.0, 1.0, 1.0), List.of(1L, 1L, 1L), List.of(), 3));
        assertEquals("slowdown violation-seconds local 1.0 [0.0..2.0] auto 3.0 best-static 0.0 (N_s 5) "
                + "back-within-target-seconds local 1.5 [0.0..3.0] auto 3.0 best-static 0.0 (of 3)",
                SlowdownExperiment.line(runs, 5, java.time.Duration.ofSeconds(3)));
    }

    @Test
    void mean_weighsEachSecondByItsAnswers_fromTheGivenSecond() {
        List<io.slagate.load.SecondSample> samples = List.of(sample(0, "premium", 5, 500), sample(1, "premium", 9, 10),
                sample(2, "premium", 1, 110), sample(2, "basic", 50, 900));
        // (9 × 10 ms + 1 × 110 ms) / 10 = 20 ms, 1 paper-second at the slowdown's scale of 20 ms
        assertEquals(1.0, SlowdownExperiment.mean(samples, "premium", 1), 1e-9);
        assertEquals(Double.NaN, SlowdownExperiment.mean(samples, "premium", 3), "no answers: NaN");
    }

    private static io.slagate.load.SecondSample sample(double second, String className, long completed, double meanMs) {
        return new io.slagate.load.SecondSample(second, 0, false, className, 0, 0, completed, completed, meanMs, meanMs, meanMs,
                meanMs, meanMs, 0, 0, 0, 0);
    }
}
