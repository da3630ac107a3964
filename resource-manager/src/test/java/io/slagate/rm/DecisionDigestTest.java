package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.DecisionMessage.FlowDecision;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecisionDigestTest {
    private static FlowDecision flow(String gw, String cls, double rate, double observed, double weight, double utility) {
        return new FlowDecision(gw, cls, rate, observed, weight, weight, observed, utility, false, "mm1", 0.1, 1, Double.NaN);
    }

    @Test
    void fewFlows_listedOneByOne() {
        List<FlowDecision> few = List.of(flow("gw1", "c0", 1, 0.1, 2, 1), flow("gw2", "c0", 3, 0.2, 4, 1));
        assertSame(few, DecisionDigest.of(few));
    }

    /** 150 gateways × 2 classes: one line per class, rates, weights and utilities summed, times averaged by rate. */
    @Test
    void manyFlows_oneLinePerClass() {
        List<FlowDecision> many = new ArrayList<>();
        for (int g = 0; g < 150; g++) {
            many.add(flow("gw" + g, "c0", g % 2 == 0 ? 1 : 3, g % 2 == 0 ? 0.1 : 0.5, 2, 0.5));
            many.add(flow("gw" + g, "c1", 2, 0.3, 1, -1));
        }
        List<FlowDecision> digest = DecisionDigest.of(many);
        assertEquals(2, digest.size());
        FlowDecision c0 = digest.get(0);
        assertEquals("*", c0.gatewayId());
        assertEquals("c0", c0.className());
        assertEquals(75 * 1 + 75 * 3, c0.arrivalRate(), 1e-9);
        assertEquals((75 * 1 * 0.1 + 75 * 3 * 0.5) / 300, c0.observedSeconds(), 1e-9, "averaged by rate");
        assertEquals(300, c0.weight(), 1e-9);
        assertEquals(75, c0.utility(), 1e-9);
        assertEquals(-150, digest.get(1).utility(), 1e-9);
        assertTrue(Double.isNaN(c0.forecastRate()), "no flow had a forecast");
    }
}
