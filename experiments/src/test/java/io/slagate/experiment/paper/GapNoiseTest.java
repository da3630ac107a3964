package io.slagate.experiment.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class GapNoiseTest {
    @Test
    void theSpread_isPooledFromThePairsDifferences() {
        // pairs 0.2 and 0 apart: σ² = (0.02 + 0) / 2 = 0.01
        assertEquals(0.1, GapNoise.oneRunSd(List.of(new double[] {1.0, 0.8}, new double[] {0.5, 0.5})), 1e-12);
        assertTrue(Double.isNaN(GapNoise.oneRunSd(List.of())));
    }

    @Test
    void onePhaseOneRun_isTheNormalTailOfTheGapsSpread() {
        // one run against the mean of two: spread σ·√1.5; at σ = 0.05/√1.5 the gap meets −0.05 with Φ(1) = 0.8413
        double sd = 0.05 / Math.sqrt(1.5);
        assertEquals(0.8413, GapNoise.chanceEqualMeets(sd, 1, 1, 0.05, 200_000, 7), 0.005);
    }

    @Test
    void noNoise_alwaysMeets_andMorePhasesMeetLess() {
        assertEquals(1.0, GapNoise.chanceEqualMeets(0, 4, 2, 0.05, 1_000, 1));
        double one = GapNoise.chanceEqualMeets(0.06, 1, 1, 0.05, 50_000, 3);
        double eight = GapNoise.chanceEqualMeets(0.06, 4, 2, 0.05, 50_000, 3);
        assertTrue(eight < one * one * one, one + " for one reading, " + eight + " for eight");
        assertThrows(IllegalArgumentException.class, () -> GapNoise.chanceEqualMeets(Double.NaN, 4, 2, 0.05, 10, 1));
    }

    @Test
    void theMeanGap_carriesStudentsIntervalFromItsScatter() {
        // ±0.1 four times: mean 0, s = 0.1155, s/√4 = 0.0577, t(3) = 3.182: half-width 0.184
        double[] m = GapNoise.meanWithInterval(new double[] {0.1, -0.1, 0.1, -0.1});
        assertEquals(0, m[0], 1e-12);
        assertEquals(0.1837, m[1], 1e-3);
        double[] same = GapNoise.meanWithInterval(new double[] {-0.2, -0.2, -0.2});
        assertEquals(-0.2, same[0], 1e-12);
        assertEquals(0, same[1], 1e-12);
        assertTrue(Double.isNaN(GapNoise.meanWithInterval(new double[] {0.3})[0]), "one gap has no interval");
    }
}
