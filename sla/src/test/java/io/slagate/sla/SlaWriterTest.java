package io.slagate.sla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.SlaTally;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writer between the bus and the store: whose totals it takes, what it keeps while the store is away, who writes. */
class SlaWriterTest {
    private static final long T0 = 1_790_000_040_000L;
    private static final SlagateConfig CONFIG = ConfigLoader.parse("""
            servers: [ { id: s1, url: "http://127.0.0.1:9", concurrency: 1 } ]
            classes: [ { name: gold, target: 1s, objective: 99% } ]
            bus: { gatewayAccounts: { edge: [gw1] } }
            """, "writer-test.yaml");

    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(T0);

    private static StatsMessage report(String gateway, long epoch, SlaTally.Row... rows) {
        return new StatsMessage(BusMessage.SCHEMA, gateway, 1, T0, 5, 0, List.of(), List.of()).withSla(new SlaTally(epoch, List.of(rows)));
    }

    private SlaWriter writer(String owner, String url, int maxPending) {
        return new SlaWriter(owner, new SlaStores(url, null, null), CONFIG, clock::get, maxPending);
    }

    private static long requests(String url, String customer) throws Exception {
        try (SlaStore s = SlaStore.open(url, null, null)) {
            return s.totals(T0 - 60_000, T0 + 3_600_000, customer, T0).stream().mapToLong(SlaStore.Totals::requests).sum();
        }
    }

    @Test
    void totals_countOnlyFromTheAccountBoundToTheGateway() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("a.db");
        SlaWriter w = writer("w1", url, 100);
        w.offer(report("gw1", 1, new SlaTally.Row("acme", "gold", 1_000_000, 0)), "intruder"); // may not speak for gw1
        assertEquals(1, w.refused());
        w.offer(report("gw1", 1, new SlaTally.Row("acme", "gold", 10, 9)), "edge");
        w.offer(report("gw1", 1, new SlaTally.Row("acme", "gold", 7, 7)), "edge"); // older than the one held: kept out
        w.flush();
        assertEquals(10, requests(url, "acme"));
        w.close();
    }

    @Test
    void storeAway_countsKeptAndWrittenWhenItAnswers_beyondTheBoundDroppedAndCounted() throws Exception {
        Path later = dir.resolve("later");
        String url = "jdbc:sqlite:" + later.resolve("b.db"); // its directory does not exist yet: the store cannot be opened
        SlaWriter w = writer("w1", url, 2);
        w.offer(report("gw1", 1, new SlaTally.Row("acme", "gold", 10, 9), new SlaTally.Row("globex", "gold", 5, 5)), "edge");
        w.flush();
        assertEquals(1, w.failures());
        w.offer(report("gw1", 1, new SlaTally.Row("acme", "gold", 12, 10), new SlaTally.Row("initech", "gold", 3, 3)), "edge");
        assertEquals(1, w.dropped(), "a third row beyond the bound of two");
        Files.createDirectories(later); // the store answers again
        clock.addAndGet(5_000);
        w.flush();
        assertEquals(12, requests(url, "acme"), "the latest total, written once");
        assertEquals(5, requests(url, "globex"));
        assertEquals(0, requests(url, "initech"), "dropped here ...");
        w.offer(report("gw1", 1, new SlaTally.Row("initech", "gold", 4, 4)), "edge");
        clock.addAndGet(5_000);
        w.flush();
        assertEquals(4, requests(url, "initech"), "... and carried in full by its next total");
        w.close();
    }

    @Test
    void secondWriter_standsBy_whileTheFirstHoldsTheStore() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("c.db");
        SlaWriter first = writer("first", url, 100);
        SlaWriter second = writer("second", url, 100);
        StatsMessage r = report("gw1", 1, new SlaTally.Row("acme", "gold", 10, 9));
        first.offer(r, "edge");
        second.offer(r, "edge"); // both hear every report
        first.flush();
        second.flush();
        assertFalse(first.standingBy());
        assertTrue(second.standingBy());
        assertEquals(10, requests(url, "acme"), "counted once");
        first.close(); // gives the lease up: the second writes from its next flush
        second.offer(report("gw1", 1, new SlaTally.Row("acme", "gold", 15, 14)), "edge");
        second.flush();
        assertFalse(second.standingBy());
        assertEquals(15, requests(url, "acme"));
        second.close();
    }

    @Test
    void aGatewayBeginningALedgerAtEveryReport_isRefusedPastThree_andItsSilenceForgotten() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("d.db");
        SlaWriter w = writer("w1", url, 100);
        for (int epoch = 1; epoch <= 5; epoch++) {
            w.offer(report("gw1", epoch, new SlaTally.Row("acme", "gold", 10, 10)), "edge");
        }
        assertEquals(2, w.refused(), "three ledgers of one gateway may wait at once; the fourth and fifth are refused");
        w.flush();
        assertEquals(30, requests(url, "acme"), "the three ledgers' totals");
        w.close();
    }
}
