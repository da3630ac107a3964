package io.slagate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A class's objective and period as a file writes them, and the problems a wrong one gets, each naming its key. */
class ObjectiveSectionTest {
    private static SlagateConfig parse(String gold) {
        return ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:9001", concurrency: 4 } ]
                classes:
                  - { name: gold, target: 1s%s }
                  - { name: spare, discretionary: true }
                """.formatted(gold), "objective.yaml");
    }

    @Test
    void percentShareAndPeriods_areRead() {
        SlaObjective o = parse(", objective: 99.9%").classes().get(0).objective();
        assertEquals(0.999, o.fraction(), 1e-12);
        assertEquals(Duration.ofDays(30), o.rolling(), "30 days rolling unless said otherwise");
        assertEquals(0.001, o.budget(), 1e-12);
        assertEquals("99.9%", o.percentText());
        SlaObjective month = parse(", objective: 0.995, period: calendar-month").classes().get(0).objective();
        assertTrue(month.calendarMonth());
        assertEquals(0.995, month.fraction(), 1e-12);
        assertEquals("calendar-month", month.periodText());
        assertEquals(Duration.ofDays(7), parse(", objective: 99%, period: 7d").classes().get(0).objective().rolling());
        assertNull(parse("").classes().get(0).objective(), "no objective stated: none");
        SlaObjective own = parse(", objective: 99%, customerObjectives: { acme: 99.9%, initech: 0.995 }").classes().get(0).objective();
        assertEquals(java.util.List.of("acme", "initech"), java.util.List.copyOf(own.customers().keySet()));
        assertEquals(0.999, own.customers().get("acme"), 1e-12);
        assertEquals(0.995, own.customers().get("initech"), 1e-12);
        assertEquals(0.99, own.fraction(), 1e-12, "everyone else's");
    }

    @Test
    void wrongObjectives_areRefused_namingTheKey() {
        String[][] cases = {
                {", objective: 100%", "classes[0].objective: \"100%\" is not a share of requests"},
                {", objective: 0", "classes[0].objective: \"0\" is not a share of requests"},
                {", objective: most", "classes[0].objective: \"most\" is not a share of requests"},
                {", objective: 99%, period: 2w", "classes[0].period: \"2w\" is not a period"},
                {", objective: 99%, period: 30m", "classes[0].period: \"30m\" is not a period"},
                {", period: 30d", "classes[0].period: \"30d\" needs an objective beside it"},
                {", objectve: 99%", "classes[0].objectve: unknown key"},
                {", objective: 99%, customerObjectives: { acme: all }", "classes[0].customerObjectives.acme: \"all\" is not a share"},
                {", customerObjectives: { acme: 99.9% }", "classes[0].customerObjectives: \"a customer's objective\" needs the class's objective"},
                {", objective: 99%, gradeObjectives: { gold: 101% }", "classes[0].gradeObjectives.gold: \"101%\" is not a share"},
                {", objective: 99%, gradeObjectives: { platnum: 99.9% }",
                    "classes[0].gradeObjectives.platnum: \"99.9%\" names a grade no subscription, rule or defaultGrade gives"},
        };
        for (String[] c : cases) {
            ConfigException e = assertThrows(ConfigException.class, () -> parse(c[0]), c[0]);
            assertTrue(e.getMessage().contains(c[1]), c[0] + " → " + e.getMessage());
        }
        ConfigException spare = assertThrows(ConfigException.class, () -> ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:9001", concurrency: 4 } ]
                classes: [ { name: gold, target: 1s }, { name: spare, discretionary: true, objective: 99% } ]
                """, "spare.yaml"));
        assertTrue(spare.getMessage().contains("classes[1].objective: \"99%\" is not allowed on the discretionary class"),
                spare.getMessage());
    }

    @Test
    void aCustomersShare_isItsOwn_elseItsGrades_elseTheClasss() {
        SlagateConfig c = ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:9001", concurrency: 4 } ]
                classes:
                  - { name: gold, target: 1s, objective: 99%, gradeObjectives: { platinum: 99.9%, standard: 98% }, customerObjectives: { acme: 99.95% } }
                classification:
                  defaultGrade: standard
                  subscriptions: { acme: { "*": platinum }, initech: { "*": platinum }, hooli: { /svc: silver, /other: silver },
                                   mixed: { /a: platinum, /b: silver } }
                """, "grades.yaml");
        SlaObjective o = c.classes().get(0).objective();
        java.util.function.Function<String, Double> share = who -> o.shareFor(who, c.classification().gradeOf(who));
        assertEquals(0.9995, share.apply("acme"), 1e-12, "its own contract");
        assertEquals(0.999, share.apply("initech"), 1e-12, "its grade's");
        assertEquals(0.99, share.apply("hooli"), 1e-12, "silver states none: the class's");
        assertEquals(0.98, share.apply("mixed"), 1e-12, "two grades: judged by the default grade's");
        assertEquals(0.98, share.apply("nobody"), 1e-12, "not subscribed: the default grade's");
    }
}
