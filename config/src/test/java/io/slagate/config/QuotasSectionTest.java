package io.slagate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import org.junit.jupiter.api.Test;

class QuotasSectionTest {
    private static SlagateConfig parse(String quotas) {
        return ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:9001", concurrency: 10 } ]
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                classification:
                  subscriptions: { acme: { "*": gold }, zenith: { "*": silver } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                %s
                """.formatted(quotas), "q.yaml");
    }

    @Test
    void ratesPerSecondOrMinute_burstDefaultsToOneSecondOfRate() {
        ClassificationConfig c = parse("  grades: { gold: { rate: 6000/min, burst: 20 }, silver: { rate: 2.5 } }\n"
                + "  customers: { acme: { rate: 40/s } }").classification();
        assertEquals(100, c.gradeQuotas().get("gold").ratePerSecond(), 1e-9);
        assertEquals(20, c.gradeQuotas().get("gold").burst());
        assertEquals(2.5, c.gradeQuotas().get("silver").ratePerSecond(), 1e-9);
        assertEquals(3, c.gradeQuotas().get("silver").burst(), "one second of rate, rounded up");
        assertEquals(40, c.customerQuotas().get("acme").burst());
        assertEquals(40, c.quotaOf(Quota.customerKey("acme")).ratePerSecond(), 1e-9);
        assertEquals(2.5, c.quotaOf(Quota.gradeKey("silver", "zenith")).ratePerSecond(), 1e-9);
        assertNull(c.quotaOf(Quota.gradeKey("bronze", "x")));
        assertNull(c.quotaOf("anything-else"));
        assertTrue(c.hasQuotas());
    }

    @Test
    void badQuotas_eachNamesItsKey() {
        ConfigException e = assertThrows(ConfigException.class, () -> parse(
                "  grades: { gold: { rate: fast }, silver: { rate: -3/s }, platinum: { rate: 1/s }, standard: { rate: 5/s, burst: 0 } }\n"
                        + "  customers: { nobody: { rate: 1/s }, acme: { burst: 4 } }"));
        String m = e.getMessage();
        assertTrue(m.contains("classification.grades.gold.rate"), m);
        assertTrue(m.contains("classification.grades.silver.rate"), m);
        assertTrue(m.contains("classification.grades.platinum") && m.contains("is not a grade"), m);
        assertTrue(m.contains("classification.grades.standard.burst"), m);
        assertTrue(m.contains("classification.customers.nobody") && m.contains("is not a customer"), m);
        assertTrue(m.contains("classification.customers.acme.rate"), m);
    }
}
