package io.slagate.bus.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What crosses the bus comes back as it was sent, including "not measured" (NaN), and a sender that predates a field is still read. */
class BusCodecTest {
    @Test
    void statsWithAttainmentAndPercentile_roundTrip_andNaNStaysNaN() {
        StatsMessage sent = new StatsMessage(BusMessage.SCHEMA, "gw1", 3, 1000, 30, 7,
                List.of(new FlowStatsMessage("gold", 5, 5, 0, 0.2, 0.05, 0.15, 1, 2, 4, 0.93, 0.41),
                        new FlowStatsMessage("basic", 0, 0, 0, 0, 0, 0, 0, 0, 6)),
                List.of(new ServerStatusMessage("s1", 10, 3, true)));
        StatsMessage back = (StatsMessage) BusCodec.decode(BusCodec.encode(sent));
        assertEquals(0.93, back.flows().get(0).attainment(), 0);
        assertEquals(0.41, back.flows().get(0).percentileSeconds(), 0);
        assertTrue(Double.isNaN(back.flows().get(1).attainment()));
        assertTrue(Double.isNaN(back.flows().get(1).percentileSeconds()));
    }

    @Test
    void statsFromASenderWithoutTheFields_areStillRead() {
        String json = BusCodec.encode(new StatsMessage(BusMessage.SCHEMA, "gw1", 3, 1000, 30, 7,
                List.of(new FlowStatsMessage("gold", 5, 5, 0, 0.2, 0.05, 0.15, 1, 2, 4, 0.5, 0.5)), List.of()))
                .replace(",\"attainment\":0.5", "").replace(",\"percentileSeconds\":0.5", "");
        assertTrue(!json.contains("attainment"), json);
        FlowStatsMessage f = ((StatsMessage) BusCodec.decode(json)).flows().get(0);
        assertEquals(0.2, f.meanResponseSeconds(), 0);
        // a missing primitive reads as 0: the manager takes a percentile ≤ 0 as not measured (ModelCorrection)
        assertEquals(0, f.percentileSeconds(), 0);
    }
}
