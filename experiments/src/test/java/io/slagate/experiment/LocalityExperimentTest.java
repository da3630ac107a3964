package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.load.service.ItemCache;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The locality comparison's set-up and summary on cells whose answer is known. */
class LocalityExperimentTest {
    private static LocalityExperiment.Cell cell(int round, String policy, double throughput, double hits) {
        return new LocalityExperiment.Cell(round, 500, policy, throughput, 10, 5, hits, 0);
    }

    @Test
    void summary_isEachPolicysMeanOverItsRounds_withTheHitRatios_andLocalityAgainstTheBestOther() {
        List<LocalityExperiment.Cell> cells = new ArrayList<>();
        double[][] byRound = {{200, 300}, {190, 330}};
        for (int r = 0; r < 2; r++) {
            cells.add(cell(r, "least-loaded", byRound[r][0], 0.5));
            cells.add(cell(r, "lard", 250, 0.7));
            cells.add(cell(r, "lard-r", 260, 0.6));
            cells.add(cell(r, "locality", byRound[r][1], 0.8));
        }
        List<String> lines = LocalityExperiment.summary(cells, 80);
        assertEquals("throughput locality 315 [300..330] least-loaded 195 [190..200] lard 250 [250..250] lard-r 260 [260..260] "
                + "(targets 80, hit ratio lard 0.70 least-loaded 0.50)", lines.get(0));
        // 315 / max(195, 250, 260)
        assertEquals("locality-over-best-other 1.21 hit ratio locality 0.80 lard-r 0.60", lines.get(1));
    }

    @Test
    void roundsRunThePoliciesInAbbaOrder() {
        String first = LocalityExperiment.POLICIES[0];
        String last = LocalityExperiment.POLICIES[LocalityExperiment.POLICIES.length - 1];
        assertEquals(first, LocalityExperiment.order(0).get(0));
        assertEquals(last, LocalityExperiment.order(1).get(0));
        assertEquals(last, LocalityExperiment.order(2).get(0));
        assertEquals(first, LocalityExperiment.order(3).get(0));
    }

    @Test
    void theCachesTogetherHoldHalfTheDataSet_inAtLeastFiftyDocuments() {
        var m = LocalityExperiment.model(4, 0.9, 1);
        assertEquals(m.items(), 2 * 4 * m.cacheItems());
        assertEquals(0.9, m.zipf(), 1e-12);
        assertTrue(m.documents() >= 50, "documents " + m.documents());
    }

    @Test
    void theLoadStaysWithinLardsFrontEndLimit_andBelowTHigh() {
        double tHigh = 0.5 * LocalityExperiment.CAP;
        double tLow = tHigh * 25 / 65;
        double s = (LocalityExperiment.SERVERS - 1) * tHigh + tLow - 1;
        assertEquals(s, LocalityExperiment.frontEndLimit(), 1e-9);
        assertTrue(LocalityExperiment.CLIENTS <= s, "clients " + LocalityExperiment.CLIENTS + " S " + s);
        double perServer = (double) LocalityExperiment.CLIENTS / LocalityExperiment.SERVERS;
        assertTrue(perServer > tLow && perServer < tHigh, "per server " + perServer);
    }

    @Test
    void documentsAreDrawnByTheirPopularity() {
        double[] cdf = ItemCache.zipfCdf(4, 1);
        assertEquals(0, ItemCache.rank(cdf, 0.0));
        assertEquals(0, ItemCache.rank(cdf, cdf[0] - 1e-9));
        assertEquals(1, ItemCache.rank(cdf, cdf[0] + 1e-9));
        assertEquals(3, ItemCache.rank(cdf, 0.999999));
    }

    @Test
    void lardsTargetsAreTheDocuments_andLocalityPlacesTheDeclaredWorkingSets() {
        var lard = LocalityExperiment.config(List.of("http://127.0.0.1:1"), "lard", true).gateway().locality();
        assertEquals("X-Document", lard.key());
        assertEquals(null, lard.workingSetHeader());
        var locality = LocalityExperiment.config(List.of("http://127.0.0.1:1"), "locality", true).gateway().locality();
        assertEquals("X-Document", locality.key());
        assertEquals("X-Slagate-Working-Set", locality.workingSetHeader());
    }
}
