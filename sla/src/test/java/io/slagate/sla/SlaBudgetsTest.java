package io.slagate.sla;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.slagate.bus.message.SlaTally;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where each class's error budget stands, read from a real store. */
class SlaBudgetsTest {
    private static final SlagateConfig CONFIG = ConfigLoader.parse("""
            servers: [ { id: s1, url: "http://127.0.0.1:9", concurrency: 1 } ]
            classes:
              - { name: gold, target: 1s, objective: 99%, period: calendar-month }
              - { name: silver, target: 1s, objective: 90%, period: 7d }
              - { name: bulk, target: 5s }
            """, "budgets-test.yaml");

    @TempDir
    Path dir;

    @Test
    void spentShare_isTheBadOverTheBudget_summedOverCustomers_elapsedAsThePeriodSays() throws Exception {
        long now = Instant.parse("2026-11-16T00:00:00Z").toEpochMilli(); // 15 of November's 30 days gone
        try (SlaStore s = SlaStore.open("jdbc:sqlite:" + dir.resolve("b.db"), null, null)) {
            s.apply(Map.of("gw1", new SlaTally(1, List.of(new SlaTally.Row("acme", "gold", 1000, 996),
                    new SlaTally.Row("initech", "gold", 1000, 996), new SlaTally.Row("acme", "silver", 100, 95),
                    new SlaTally.Row("acme", "bulk", 10, 1)))), "w", now - 3_600_000, 30_000);
            Map<String, double[]> b = SlaBudgets.of(s, CONFIG, now);
            assertEquals(0.5, b.get("gold")[0], 1e-9, "half of November");
            assertEquals(0.4, b.get("gold")[1], 1e-9, "8 bad of 2000 against a budget of 1%: 0.4 of it");
            assertEquals(SlaBudgets.ROLLING_ELAPSED, b.get("silver")[0], 1e-9);
            assertEquals(0.5, b.get("silver")[1], 1e-9, "5 bad of 100 against 10%");
            assertEquals(null, b.get("bulk"), "no objective: nothing to weigh by");
        }
    }
}
