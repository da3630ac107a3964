package io.slagate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.slagate.config.ConfigLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The objectives as OpenSLO v1 documents: one SLO per class's, grade's and customer's own objective, ratios of slagate's counters. */
class OpenSloTest {
    @Test
    void everyObjective_isAnSloOverTheSameCountersAsTheAlerts() throws Exception {
        String out = OpenSlo.of(ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:9001", concurrency: 4 } ]
                classes:
                  - { name: gold, target: 1s, objective: 99.5%, customerObjectives: { "Acme Corp": 99.9% } }
                  - { name: silver, p95: 2s, objective: 99%, period: calendar-month }
                  - { name: bronze, target: 5s }
                """, "openslo.yaml"));
        List<JsonNode> docs;
        try (MappingIterator<JsonNode> it = new ObjectMapper(new YAMLFactory()).readerFor(JsonNode.class).readValues(out)) {
            docs = it.readAll();
        }
        assertEquals(3, docs.size(), "gold's, Acme Corp's own for gold, silver's; bronze states none\n" + out);
        JsonNode gold = docs.get(0);
        assertEquals("openslo/v1", gold.get("apiVersion").asText());
        assertEquals("SLO", gold.get("kind").asText());
        assertEquals("gold-class", gold.get("metadata").get("name").asText());
        assertEquals("Occurrences", gold.get("spec").get("budgetingMethod").asText());
        assertEquals("30d", gold.get("spec").get("timeWindow").get(0).get("duration").asText());
        assertTrue(gold.get("spec").get("timeWindow").get(0).get("isRolling").asBoolean());
        assertEquals(0.995, gold.get("spec").get("objectives").get(0).get("target").asDouble(), 1e-12);
        JsonNode ratio = gold.get("spec").get("indicator").get("spec").get("ratioMetric");
        assertEquals("sum(slagate_sla_requests_good_total{class=\"gold\",customer!~\"Acme Corp\"})",
                ratio.get("good").get("metricSource").get("spec").get("query").asText());
        assertEquals("sum(slagate_sla_requests_total{class=\"gold\",customer!~\"Acme Corp\"})",
                ratio.get("total").get("metricSource").get("spec").get("query").asText());
        JsonNode acme = docs.get(1);
        assertEquals("gold-acme-corp", acme.get("metadata").get("name").asText(), "a name OpenSLO accepts");
        assertEquals(0.999, acme.get("spec").get("objectives").get(0).get("target").asDouble(), 1e-12);
        JsonNode silver = docs.get(2);
        assertEquals("1M", silver.get("spec").get("timeWindow").get(0).get("duration").asText());
        assertEquals("UTC", silver.get("spec").get("timeWindow").get(0).get("calendar").get("timeZone").asText());
    }

    @Test
    void names_areDnsLabels() {
        assertEquals("gold-a-b", OpenSlo.dnsLabel("Gold--A_B!"));
        assertTrue(OpenSlo.dnsLabel("x".repeat(100)).length() <= 63);
    }
}
