package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScaleFiguresTest {
    @Test
    void quantile_nearestRank() {
        double[] v = {5, 1, 4, 2, 3};
        assertEquals(1, ScaleFigures.quantile(v, 0.01));
        assertEquals(3, ScaleFigures.quantile(v, 0.5));
        assertEquals(5, ScaleFigures.quantile(v, 0.99));
        assertEquals(5, ScaleFigures.quantile(v, 1.0));
        assertTrue(Double.isNaN(ScaleFigures.quantile(new double[0], 0.5)));
        assertEquals(Double.POSITIVE_INFINITY, ScaleFigures.quantile(new double[] {1, Double.POSITIVE_INFINITY}, 0.99));
    }

    /** 200 gateways: 99% is the 198th to apply; a version only 197 applied never reached 99%. */
    @Test
    void fanOut_theLatencyOfThe99thPercentGateway_infiniteWhereFewerApplied() {
        Map<Long, List<Long>> byVersion = new LinkedHashMap<>();
        List<Long> all = new ArrayList<>();
        for (long i = 1; i <= 200; i++) {
            all.add(i * 10); // the i-th gateway applied it after 10·i ms
        }
        byVersion.put(1L, all);
        byVersion.put(2L, new ArrayList<>(all.subList(0, 197)));
        assertArrayEquals(new double[] {1980, Double.POSITIVE_INFINITY}, ScaleFigures.fanOut(byVersion, 200, 0.99));
    }

    @Test
    void againstLinear_oneForLinearGrowth() {
        assertEquals(1.0, ScaleFigures.againstLinear(10, 100, 50, 500), 1e-12);
        assertEquals(0.4, ScaleFigures.againstLinear(10, 100, 20, 500), 1e-12);
        assertEquals(5.0, ScaleFigures.againstLinear(10, 100, 250, 500), 1e-12, "quadratic growth reads 5");
    }
}
