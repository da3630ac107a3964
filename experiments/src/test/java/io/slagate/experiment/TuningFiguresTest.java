package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tuning experiment's figures on series whose answer is known. */
class TuningFiguresTest {
    private static List<double[]> series(double[] safe, double[] experimental) {
        List<double[]> s = new ArrayList<>();
        for (int i = 0; i < safe.length; i++) {
            s.add(new double[] {i, safe[i], experimental[i]});
        }
        return s;
    }

    @Test
    void safeDrop_isTheWorstFiveSecondMeanBelowTheLevel_notTheWorstSecond() {
        // one second at -0.3 among 0.1s: its 5-second mean is (4 * 0.1 - 0.3) / 5 = 0.02, a drop of 0.08 from 0.1
        double[] safe = {0.1, 0.1, 0.1, 0.1, 0.1, -0.3, 0.1, 0.1, 0.1, 0.1, 0.1};
        List<double[]> s = series(safe, safe);
        assertEquals(0.02, TuningFigures.worstSpanMean(s, 0, 11, 1), 1e-12);
        assertEquals(0.08, TuningFigures.safeDrop(s, 0, 11, 0.1), 1e-12);
        assertEquals(0, TuningFigures.safeDrop(s, 0, 11, -0.5), 1e-12, "never below the level: no drop");
        assertEquals(0.1, TuningFigures.worstSpanMean(s, 6, 11, 1), 1e-12, "only spans wholly within [from, to)");
        assertTrue(Double.isNaN(TuningFigures.worstSpanMean(s, 8, 11, 1)), "no span of 5 fits");
    }

    @Test
    void secondsBelowSafe_countsTheExperimentalSidesSecondsUnderTheSafeSide() {
        List<double[]> s = series(new double[] {0.1, 0.1, 0.1, Double.NaN}, new double[] {0.05, 0.2, 0.0, 0.0});
        assertEquals(2, TuningFigures.secondsBelowSafe(s, 0, 4));
        assertEquals(1, TuningFigures.secondsBelowSafe(s, 1, 4));
    }

    @Test
    void theSweepsBest_andTheFivePercentMargin() {
        assertEquals(2, TuningFigures.best(new double[] {-1, 0.05, 0.1, Double.NaN, 0.1}));
        assertEquals(-1, TuningFigures.best(new double[] {Double.NaN}));
        assertTrue(TuningFigures.within(0.0951, 0.1, 0.05));
        assertFalse(TuningFigures.within(0.094, 0.1, 0.05));
        assertTrue(TuningFigures.within(-0.104, -0.1, 0.05), "a negative best: 5% of its size below it");
        assertFalse(TuningFigures.within(-0.106, -0.1, 0.05));
    }
}
