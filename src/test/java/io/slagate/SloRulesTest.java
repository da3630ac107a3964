package io.slagate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.slagate.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus rules for the classes' objectives: a ratio per window, and per objective three multi-window alerts
 * whose thresholds are the burn rates times the budget; no alert for a class without an objective. Where promtool is
 * on the path, it accepts the file too.
 */
class SloRulesTest {
    private static final String CONFIG = """
            servers: [ { id: s1, url: "http://127.0.0.1:9001", concurrency: 4 } ]
            classes:
              - { name: gold, target: 1s, objective: 99.5% }
              - { name: silver, p95: 2s, objective: 99.9%, period: calendar-month }
              - { name: bronze, target: 5s }
            """;

    private static JsonNode rules(String yaml) throws Exception {
        return new ObjectMapper(new YAMLFactory()).readTree(SloRules.of(ConfigLoader.parse(yaml, "slo.yaml")));
    }

    @Test
    void everyObjective_getsThreeBurnRateAlerts_onTheRatiosOfEveryWindow() throws Exception {
        JsonNode groups = rules(CONFIG).get("groups");
        assertEquals(2, groups.size());
        List<String> records = new ArrayList<>();
        groups.get(0).get("rules").forEach(r -> records.add(r.get("record").asText()));
        assertEquals(List.of("slagate:sla_error_ratio:rate5m", "slagate:sla_error_ratio:rate30m", "slagate:sla_error_ratio:rate1h",
                "slagate:sla_error_ratio:rate6h", "slagate:sla_error_ratio:rate3d"), records);
        String ratio = groups.get(0).get("rules").get(0).get("expr").asText();
        assertTrue(ratio.contains("rate(slagate_sla_requests_good_total[5m])") && ratio.contains("rate(slagate_sla_requests_total[5m])")
                && ratio.contains("sum by (class, customer)"), ratio);

        JsonNode alerts = groups.get(1).get("rules");
        assertEquals(6, alerts.size(), "three per objective; bronze states none");
        JsonNode goldFast = alerts.get(0);
        assertEquals("SlagateSlaFastBurn", goldFast.get("alert").asText());
        assertEquals("page", goldFast.get("labels").get("severity").asText());
        // 14.4 × the 0.5% budget, on the 1 h and the 5 m ratio of gold
        assertEquals("slagate:sla_error_ratio:rate1h{class=\"gold\"} > 0.072\nand\nslagate:sla_error_ratio:rate5m{class=\"gold\"} > 0.072",
                goldFast.get("expr").asText());
        assertTrue(goldFast.get("annotations").get("summary").asText().contains("gone in 2.1 days"), goldFast.toString());
        JsonNode goldSlow = alerts.get(1);
        assertTrue(goldSlow.get("expr").asText().contains("rate6h{class=\"gold\"} > 0.03")
                && goldSlow.get("expr").asText().contains("rate30m{class=\"gold\"} > 0.03"), goldSlow.toString());
        JsonNode silverBudget = alerts.get(5);
        assertEquals("SlagateSlaBudgetBurn", silverBudget.get("alert").asText());
        assertEquals("ticket", silverBudget.get("labels").get("severity").asText());
        assertTrue(silverBudget.get("expr").asText().contains("rate3d{class=\"silver\"} > 0.001")
                && silverBudget.get("expr").asText().contains("rate6h{class=\"silver\"} > 0.001"), silverBudget.toString());
        assertTrue(silverBudget.get("annotations").get("summary").asText().contains("99.9% over calendar-month"), silverBudget.toString());
    }

    @Test
    void aCustomersOwnContract_getsItsOwnAlerts_andLeavesTheClasssOnes() throws Exception {
        JsonNode alerts = rules(CONFIG.replace("objective: 99.5% }", "objective: 99.5%, customerObjectives: { acme: 99.9%, \"a.b\": 99% } }"))
                .get("groups").get(1).get("rules");
        assertEquals(12, alerts.size(), "gold: everyone else, acme, a.b; silver");
        assertEquals("slagate:sla_error_ratio:rate1h{class=\"gold\",customer!~\"a\\\\.b|acme\"} > 0.072\nand\n"
                + "slagate:sla_error_ratio:rate5m{class=\"gold\",customer!~\"a\\\\.b|acme\"} > 0.072", alerts.get(0).get("expr").asText());
        JsonNode acmeFast = alerts.get(6);
        assertEquals("slagate:sla_error_ratio:rate1h{class=\"gold\",customer=\"acme\"} > 0.0144\nand\n"
                + "slagate:sla_error_ratio:rate5m{class=\"gold\",customer=\"acme\"} > 0.0144", acmeFast.get("expr").asText());
        assertTrue(acmeFast.get("annotations").get("summary").asText().startsWith("acme on class gold: objective 99.9%"), acmeFast.toString());
    }

    @Test
    void noObjective_noAlerts() throws Exception {
        String none = CONFIG.replace(", objective: 99.5%", "").replace(", objective: 99.9%, period: calendar-month", "");
        JsonNode groups = rules(none).get("groups");
        assertEquals(2, groups.size(), SloRules.of(ConfigLoader.parse(none, "none.yaml")));
        assertEquals(0, groups.get(1).get("rules").size());
        assertEquals(5, groups.get(0).get("rules").size());
    }

    @Test
    void gradeObjectives_coverTheGradesCustomers_eachCustomerInOneRuleSet() throws Exception {
        JsonNode alerts = rules("""
                servers: [ { id: s1, url: "http://127.0.0.1:9001", concurrency: 4 } ]
                classes:
                  - { name: gold, target: 1s, objective: 99%, gradeObjectives: { platinum: 99.9% }, customerObjectives: { acme: 99.95% } }
                classification:
                  defaultGrade: standard
                  subscriptions: { acme: { "*": platinum }, initech: { "*": platinum }, hooli: { "*": silver } }
                  rules: [ { class: gold } ]
                """).get("groups").get(1).get("rules");
        List<String> fast = new ArrayList<>();
        alerts.forEach(a -> {
            if (a.get("alert").asText().equals("SlagateSlaFastBurn")) {
                fast.add(a.get("labels").get("contract").asText() + " " + a.get("labels").get("objective").asText() + " "
                        + a.get("expr").asText().lines().findFirst().orElseThrow());
            }
        });
        assertEquals(List.of(
                "grade platinum 99.9% slagate:sla_error_ratio:rate1h{class=\"gold\",customer=~\"initech\"} > 0.0144",
                "class 99% slagate:sla_error_ratio:rate1h{class=\"gold\",customer!~\"acme|initech\"} > 0.144",
                "acme 99.95% slagate:sla_error_ratio:rate1h{class=\"gold\",customer=\"acme\"} > 0.0072"), fast);
    }

    @Test
    void theCommand_printsTheRules_orRefusesABadConfiguration(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("slagate.yaml"), CONFIG);
        LauncherTest.Outcome o = LauncherTest.run("slo-rules", "--config", config.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("alert: SlagateSlaFastBurn"), o.out());
        Path bad = Files.writeString(dir.resolve("bad.yaml"), CONFIG.replace("99.5%", "150%"));
        LauncherTest.Outcome refused = LauncherTest.run("slo-rules", "--config", bad.toString());
        assertEquals(2, refused.code());
        assertTrue(refused.err().contains("classes[0].objective"), refused.err());
        // two customers with contracts of their own beside the class's: no two rules may share their name and labels
        Path contracts = Files.writeString(dir.resolve("contracts.yaml"), CONFIG.replace("objective: 99.5% }",
                "objective: 99.5%, customerObjectives: { acme: 99.9%, initech: 99.9% } }"));
        LauncherTest.Outcome withContracts = LauncherTest.run("slo-rules", "--config", contracts.toString());
        assertEquals(0, withContracts.code(), withContracts.err());
        assertTrue(withContracts.out().contains("contract: \"initech\""), withContracts.out());
        Path rulesFile = Files.writeString(dir.resolve("rules.yaml"), withContracts.out());
        Path promtool = promtool();
        if (promtool != null) { // Debian's prometheus package (.ci/run installs it); the structure above is checked either way
            Process p = new ProcessBuilder(promtool.toString(), "check", "rules", "--lint-fatal", rulesFile.toString())
                    .redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), said);
        }
    }

    private static Path promtool() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(d, "promtool");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
