package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The locality comparison's summary on cells whose answer is known. */
class LocalityExperimentTest {
    private static LocalityExperiment.Cell cell(int round, String policy, double throughput) {
        return new LocalityExperiment.Cell(round, "shopping", 4, 500, policy, throughput, 10, 5, 0.5, 0);
    }

    @Test
    void summary_isEachPolicysMeanOverItsRounds_andLocalityAgainstTheBestOtherOnTheSameInformation() {
        List<LocalityExperiment.Cell> cells = new ArrayList<>();
        double[][] byRound = {{100, 200, 300}, {110, 190, 330}};
        for (int r = 0; r < 2; r++) {
            cells.add(cell(r, "round-robin", byRound[r][0]));
            cells.add(cell(r, "least-loaded", byRound[r][1]));
            cells.add(cell(r, "lard", 250));
            cells.add(cell(r, "lard-r", 260));
            cells.add(cell(r, "locality", byRound[r][2]));
            cells.add(cell(r, "lard/names", 240));
            cells.add(cell(r, "lard-r/names", 200));
            cells.add(cell(r, "locality/names", 228));
        }
        List<String> lines = LocalityExperiment.summary(cells);
        assertEquals("throughput locality 315 [300..330] least-loaded 195 [190..200] round-robin 105 [100..110] lard 250 [250..250] "
                + "lard-r 260 [260..260]", lines.get(0));
        assertEquals("throughput-on-operation-names locality 228 [228..228] lard 240 [240..240] lard-r 200 [200..200]", lines.get(1));
        // declared: 315 / max(195, 250, 260); names: 228 / max(195, 240, 200)
        assertEquals("locality-over-best-other declared 1.21 names 0.95", lines.get(2));
    }

    @Test
    void eachRoundRunsThePoliciesInTheOrderOfTheLastReversed() {
        assertEquals("round-robin", LocalityExperiment.order(0).get(0));
        assertEquals("locality/names", LocalityExperiment.order(1).get(0));
        assertEquals("round-robin", LocalityExperiment.order(1).get(LocalityExperiment.POLICIES.length - 1));
    }

    @Test
    void theCachesTogetherHoldHalfTheDataSet() {
        var m = LocalityExperiment.model(4, 0.9, 1);
        assertEquals(m.items(), 2 * 4 * m.cacheItems());
        assertEquals(0.9, m.zipf(), 1e-12);
    }
}
