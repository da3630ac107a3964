package io.slagate.bus.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
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

    /** Every double comes back bit for bit (the fast reader and writer), awkward ones and 100,000 random ones among them. */
    @Test
    void doubles_roundTripExactly() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(11);
        double[] awkward = {0.1 + 0.2, 1e-300, Double.MIN_VALUE, Double.MAX_VALUE, 4.9e-324, 123456789.123456789, 2.0 / 3, 1e22, 5e-324};
        for (int i = 0; i < 100_000 + awkward.length; i++) {
            double v = i < awkward.length ? awkward[i] : Double.longBitsToDouble(r.nextLong() & 0x7fef_ffff_ffff_ffffL);
            StatsMessage sent = new StatsMessage(BusMessage.SCHEMA, "gw1", 3, 1000, 30, 7,
                    List.of(new FlowStatsMessage("gold", v, 5, 0, 0.2, 0.05, 0.15, 1, 2, 4, 0.93, 0.41)), List.of());
            double back = ((StatsMessage) BusCodec.decode(BusCodec.encode(sent))).flows().get(0).arrivalRate();
            assertEquals(Double.doubleToLongBits(v), Double.doubleToLongBits(back), () -> "for " + v);
        }
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

    /** A gateway from before failures were told apart reports none (nothing charged); a current one's round-trip. */
    @Test
    void failureRate_roundTrips_andIsZeroFromAnOlderSender() {
        String json = BusCodec.encode(new StatsMessage(BusMessage.SCHEMA, "gw1", 3, 1000, 30, 7,
                List.of(new FlowStatsMessage("gold", 5, 4, 1, 0.2, 0.05, 0.15, 1, 2, 4, 0.5, 0.5, 0.75)), List.of()));
        assertEquals(0.75, ((StatsMessage) BusCodec.decode(json)).flows().get(0).failureRate(), 0);
        String older = json.replace(",\"failureRate\":0.75", "");
        assertTrue(!older.contains("failureRate"), older);
        assertEquals(0, ((StatsMessage) BusCodec.decode(older)).flows().get(0).failureRate(), 0);
    }

    /** The tuner's queue timeouts ride on the allocation; one from a manager that predates them names none. */
    @Test
    void allocationQueueTimeouts_roundTrip_andAreEmptyFromAnOlderSender() {
        AllocationMessage a = new AllocationMessage(BusMessage.SCHEMA, 9, 0, "rm",
                Map.of("gw1", new GatewayAllocation(Map.of("gold", 1.0), Map.of("s1", 2))),
                Map.of(), Map.of("gold", 300L));
        String json = BusCodec.encode(a);
        assertEquals(Map.of("gold", 300L), ((AllocationMessage) BusCodec.decode(json)).queueTimeoutMillis());
        String older = json.replace(",\"queueTimeoutMillis\":{\"gold\":300}", "");
        assertTrue(!older.contains("queueTimeoutMillis"), older);
        assertTrue(((AllocationMessage) BusCodec.decode(older)).queueTimeoutMillis().isEmpty());
        String nullValue = json.replace("{\"gold\":300}", "{\"gold\":null}");
        assertTrue(nullValue.contains("\"gold\":null"), nullValue);
        Assertions.assertThrows(IllegalArgumentException.class, () -> BusCodec.decode(nullValue),
                "a null timeout is a malformed message, refused whole");
    }

    /** The capacity line rides on every allocation: it round-trips (NaN included), an older sender's is empty, a hostile one is refused. */
    @Test
    void allocationCapacity_roundTrips_isEmptyFromAnOlderSender_andNullsAreRefused() {
        AllocationMessage a = new AllocationMessage(BusMessage.SCHEMA, 9, 0, "rm",
                Map.of("gw1", new GatewayAllocation(Map.of("gold", 1.0), Map.of("s1", 2))), Map.of(), Map.of(), 0,
                List.of(new DecisionMessage.PoolCapacity("default", 10, Double.NaN, Double.NaN, Map.of("gold", Double.NaN)),
                        new DecisionMessage.PoolCapacity("spare", 20, 5, -1, Map.of("gold", 5.0))));
        String json = BusCodec.encode(a);
        AllocationMessage back = (AllocationMessage) BusCodec.decode(json);
        assertTrue(Double.isNaN(back.capacity().get(0).servers()), json);
        assertEquals(-1, back.capacity().get(1).servers());
        assertEquals(5.0, back.capacity().get(1).neededByClass().get("gold"));
        String older = json.substring(0, json.indexOf(",\"capacity\"")) + "}";
        assertTrue(((AllocationMessage) BusCodec.decode(older)).capacity().isEmpty(), older);
        String nullLine = json.replaceFirst("\"capacity\":\\[", "\"capacity\":[null,");
        assertTrue(nullLine.contains("[null,"), nullLine);
        Assertions.assertThrows(IllegalArgumentException.class, () -> BusCodec.decode(nullLine), "a null line: malformed, refused whole");
        String nullNeed = json.replace("{\"gold\":5.0}", "{\"gold\":null}");
        assertTrue(nullNeed.contains("\"gold\":null"), nullNeed);
        Assertions.assertThrows(IllegalArgumentException.class, () -> BusCodec.decode(nullNeed), "a null need: malformed, refused whole");
    }

    @Test
    void quotaDemandAndShares_roundTrip_emptyFromAnOlderSender_andAnOversizedDemandIsRefusedWhole() {
        StatsMessage sent = new StatsMessage(BusMessage.SCHEMA, "gw1", 3, 1000, 30, 7, List.of(), List.of(), null,
                Map.of("customer:acme", 12.5));
        assertEquals(Map.of("customer:acme", 12.5), ((StatsMessage) BusCodec.decode(BusCodec.encode(sent))).quotaDemand());
        String older = BusCodec.encode(new StatsMessage(BusMessage.SCHEMA, "gw1", 3, 1000, 30, 7, List.of(), List.of()))
                .replace(",\"quotaDemand\":{}", "");
        assertTrue(((StatsMessage) BusCodec.decode(older)).quotaDemand().isEmpty());
        GatewayAllocation part = new GatewayAllocation(Map.of("basic", 1.0), Map.of("s1", 4), Map.of("customer:acme", 9.0));
        AllocationMessage a = new AllocationMessage(BusMessage.SCHEMA, 2, 1000, "rm", Map.of("gw1", part));
        assertEquals(part, ((AllocationMessage) BusCodec.decode(BusCodec.encode(a))).gateways().get("gw1"));
        StringBuilder flood = new StringBuilder();
        for (int i = 0; i <= StatsMessage.MAX_QUOTA_DEMAND; i++) {
            flood.append(i == 0 ? "" : ",").append("\"customer:c").append(i).append("\":1.0");
        }
        String hostile = older.replace("\"flows\"", "\"quotaDemand\":{" + flood + "},\"flows\"");
        IllegalArgumentException e = Assertions.assertThrows(IllegalArgumentException.class, () -> BusCodec.decode(hostile));
        assertTrue(e.getMessage().contains("quotaDemand"), e.getMessage());
    }

    @Test
    void slaTally_roundTrips_isAbsentFromAnOlderSender_andAHostileRowIsRefusedWhole() {
        SlaTally tally = new SlaTally(42, List.of(new SlaTally.Row("acme", "gold", 10, 9)));
        StatsMessage sent = new StatsMessage(BusMessage.SCHEMA, "gw1", 3, 1000, 30, 7, List.of(), List.of()).withSla(tally);
        String json = BusCodec.encode(sent);
        assertEquals(tally, ((StatsMessage) BusCodec.decode(json)).sla());
        String older = BusCodec.encode(new StatsMessage(BusMessage.SCHEMA, "gw1", 3, 1000, 30, 7, List.of(), List.of()));
        assertEquals(null, ((StatsMessage) BusCodec.decode(older)).sla(), "no SLA totals: nothing to write");
        for (String hostile : List.of(json.replace("\"good\":9", "\"good\":11"), json.replace("\"requests\":10", "\"requests\":-1"),
                json.replace("\"acme\"", "\"" + "a".repeat(SlaTally.MAX_NAME + 1) + "\""),
                json.replace("\"acme\"", "\"ac\\u0000me\""), // no store keeps NUL
                json.replace("\"requests\":10", "\"requests\":2000000000000000000"))) { // beyond MAX_COUNT: no sum may overflow
            assertTrue(!hostile.equals(json), hostile);
            Assertions.assertThrows(IllegalArgumentException.class, () -> BusCodec.decode(hostile), hostile);
        }
    }
}
