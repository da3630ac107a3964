package io.slagate.sla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.bus.message.SlaTally;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's arithmetic and its formats, on rows a real store gives back. */
class SlaReportTest {
    private static final long T0 = 1_790_000_040_000L;
    private static final SlagateConfig CONFIG = ConfigLoader.parse("""
            servers: [ { id: s1, url: "http://127.0.0.1:9", concurrency: 1 } ]
            classes:
              - { name: gold, target: 1s, objective: 99%, customerObjectives: { acme: 99.9% } }
              - { name: bulk, target: 5s }
            """, "report-test.yaml");

    @TempDir
    Path dir;

    private SlaReport report(SlaTally.Row... rows) throws Exception {
        try (SlaStore s = SlaStore.open("jdbc:sqlite:" + dir.resolve("r.db"), null, null)) {
            s.apply(Map.of("gw1", new SlaTally(1, List.of(rows))), "w", T0, 30_000);
            return SlaReport.of(s, CONFIG, SlaSpan.since(600, T0 + 1, "10m"), null, T0 + 1);
        }
    }

    @Test
    void budget_isWhatTheObjectiveLeavesOfTheRequests() throws Exception {
        SlaReport r = report(new SlaTally.Row("acme", "gold", 10_000, 9_995), new SlaTally.Row("globex", "gold", 1_000, 985),
                new SlaTally.Row("initech", "bulk", 5, 5));
        SlaReport.Row acme = r.rows().get(0);
        assertEquals(0.999, acme.objective(), 1e-12, "acme's own objective");
        assertEquals(0.5, acme.budgetRemaining(), 1e-9, "5 bad of a budget of 10");
        SlaReport.Row globex = r.rows().get(1);
        assertEquals(0.99, globex.objective(), 1e-12, "the class's");
        assertEquals(-0.5, globex.budgetRemaining(), 1e-9, "15 bad of a budget of 10: missed by half a budget");
        assertTrue(Double.isNaN(r.rows().get(2).objective()), "a class without an objective");
        assertEquals("""
                customer,class,requests,good,attainment,objective,budget_remaining
                acme,gold,10000,9995,0.999500,0.999000,0.500000
                globex,gold,1000,985,0.985000,0.990000,-0.500000
                initech,bulk,5,5,1.000000,,
                """, r.csv());
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.json());
        assertEquals(-0.5, json.path("rows").path(1).path("budget_remaining").asDouble(), 1e-9, r.json());
        assertTrue(json.path("rows").path(2).path("objective").isNull(), r.json());
    }

    @Test
    void hostileNames_cannotBreakTheCsvOrTheTerminal() throws Exception {
        SlaReport r = report(new SlaTally.Row("=HYPERLINK(\"x\"),\u001b[2J", "gold", 1, 1));
        String line = r.csv().lines().toList().get(1);
        assertEquals("\"'=HYPERLINK(\"\"x\"\"),\\u001b[2J\",gold,1,1,1.000000,0.990000,1.000000", line);
        assertTrue(!r.table().contains("\u001b"), "no escape sequence reaches the terminal");
    }

    @Test
    void spans_refuseWhatTheStoreCannotAnswer() {
        assertThrows(IllegalArgumentException.class, () -> SlaSpan.month("2026-13"));
        assertThrows(IllegalArgumentException.class, () -> SlaSpan.since(401L * 86_400, T0, "401d"));
        SlaSpan nov = SlaSpan.month("2026-11");
        assertEquals(30L * 86_400_000, nov.toMillis() - nov.fromMillis());
    }

    @Test
    void aMonthWithNoData_reportsNoRows_andSaysSo() throws Exception {
        try (SlaStore s = SlaStore.open("jdbc:sqlite:" + dir.resolve("empty.db"), null, null)) {
            SlaReport r = SlaReport.of(s, CONFIG, SlaSpan.month("2020-01"), null, T0);
            assertEquals(List.of(), r.rows());
            assertTrue(r.table().contains("no requests counted"), r.table());
        }
    }
}
