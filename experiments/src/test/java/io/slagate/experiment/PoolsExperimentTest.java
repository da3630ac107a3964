package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pools comparison's choice of baseline on totals whose answer is known. */
class PoolsExperimentTest {
    @Test
    void theBestStaticSplit_isTheOneWithTheHighestMeanOverItsRuns_notItsBestRun() {
        Map<String, List<Double>> totals = new LinkedHashMap<>();
        totals.put(PoolsExperiment.split(1), List.of(200.0, 300.0)); // mean 250, one lucky run
        totals.put(PoolsExperiment.split(2), List.of(260.0, 262.0)); // mean 261
        totals.put(PoolsExperiment.split(3), List.of(240.0, 250.0));
        assertEquals("static 2+2", PoolsExperiment.best(totals));
    }

    @Test
    void splitsNameBothPools() {
        assertEquals("static 1+3", PoolsExperiment.split(1));
        assertEquals("static 3+1", PoolsExperiment.split(3));
    }
}
