package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.experiment.twin.PolicyComparison;
import io.slagate.experiment.twin.TwinExperiments;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The paired report's arithmetic on runs whose gaps are known: per pair the controller less each static policy. */
class PairedReportTest {
    private static PolicyComparison.Outcome twin;

    @BeforeAll
    static void twin() {
        twin = PolicyComparison.run(TwinExperiments.b(150), 2, 1, 2);
    }

    private static PairedDifferentiation.Run run(String policy, long seed, double u) {
        return new PairedDifferentiation.Run(policy, seed, new double[] {u, u - 0.2, u + 0.2, u});
    }

    /** Gaps 0.1, 0.3 and 0.2 to (a), −0.1, 0.1 and 0 to (b): means 0.2 and 0.0, each ± t(2) · 0.1 / √3 = ±0.248. */
    @Test
    void closingLine_isThePairedMeanWithItsStudentInterval() {
        List<PairedDifferentiation.Run[]> pairs = List.of(
                new PairedDifferentiation.Run[] {run("controller", 1, 0.5), run("a", 1, 0.4), run("b", 1, 0.6)},
                new PairedDifferentiation.Run[] {run("controller", 2, 0.7), run("a", 2, 0.4), run("b", 2, 0.6)},
                new PairedDifferentiation.Run[] {run("controller", 3, 0.6), run("a", 3, 0.4), run("b", 3, 0.6)});
        PairedReport r = new PairedReport(twin, 5, new int[] {5, 5, 3, 8}, Duration.ofSeconds(20), 0.05, pairs,
                List.of(run("4 : 6", 1, 0.3)));
        assertArrayEquals(new double[] {0.1, 0.3, 0.2}, r.gaps(1), 1e-12);
        assertArrayEquals(new double[] {-0.1, 0.1, 0.0}, r.gaps(2), 1e-12);
        assertEquals("B paired pairs 3 gap-to-best-static mean 0.200 ci95 -0.048..0.448 gap-to-phase-oracle mean 0.000 "
                + "ci95 -0.248..0.248", r.closingLine());
        String md = r.markdown("bin/slagate experiment B --paired").toString();
        assertTrue(md.contains("| 2 | 2 | controller | 3 | 0.700 | 0.500 | 0.900 | 0.700 | 0.700 |  |"), md);
        assertTrue(md.contains("| 4 : 6 | 0.300 | 0.100 | 0.500 | 0.300 | 0.300 | +0.100 |"), md);
        assertTrue(md.contains("Phase oracle: Φ_A 5 : 5, Φ_B 5 : 5, Φ_C 3 : 7, Φ_D 8 : 2."), md);
    }
}
