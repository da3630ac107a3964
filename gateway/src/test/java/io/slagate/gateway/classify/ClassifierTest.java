package io.slagate.gateway.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import org.junit.jupiter.api.Test;

class ClassifierTest {
    private final SlagateConfig cfg = ConfigLoader.parse("""
            servers: [ { id: s1, url: "http://127.0.0.1:1" } ]
            classes:
              - { name: gold, target: 1s }
              - { name: silver, target: 2s }
              - { name: trading, target: 1s }
              - { name: bronze, target: 3s }
            classification:
              defaultGrade: standard
              subscriptions:
                alice: { "/services/Stock": gold, "*": silver }
                bob: { "/services/Stock": silver }
              rules:
                - { service: "/services/Stock", operation: "*buyShares", class: trading }
                - { grade: gold, class: gold }
                - { grade: silver, class: silver }
                - { customer: "partner-*", service: "/services/*", class: silver }
              defaultClass: bronze
            """, "t");
    private final Classifier classifier = new Classifier(cfg);

    private String classify(String customer, String service, String op) {
        return cfg.classes().get(classifier.classify(customer, service, op)).name();
    }

    @Test
    void grade_exactServiceThenWildcardThenDefault() {
        assertEquals("gold", classifier.grade("alice", "/services/Stock"));
        assertEquals("silver", classifier.grade("alice", "/services/Other"));
        assertEquals("standard", classifier.grade("bob", "/services/Other"));
        assertEquals("standard", classifier.grade("carol", "/services/Stock"));
        assertEquals("standard", classifier.grade(null, "/services/Stock"));
    }

    @Test
    void classify_firstMatchingRuleWins() {
        assertEquals("trading", classify("alice", "/services/Stock", "urn:buyShares"), "rule order beats grade");
        assertEquals("gold", classify("alice", "/services/Stock", "urn:getQuote"));
        assertEquals("silver", classify("alice", "/services/News", "urn:getQuote"));
        assertEquals("silver", classify("bob", "/services/Stock", null));
    }

    @Test
    void classify_globsOnCustomerAndService() {
        assertEquals("silver", classify("partner-17", "/services/News", null));
        assertEquals("bronze", classify("partner-17", "/other/News", null));
        assertEquals("bronze", classify("xpartner-17", "/services/News", null));
    }

    @Test
    void classify_unknownOrAnonymous_getsDefaultClass() {
        assertEquals("bronze", classify(null, null, null));
        assertEquals("bronze", classify("carol", "/services/News", "urn:x"));
        assertEquals("trading", classify(null, "/services/Stock", "buyShares"), "a glob needs a value, * does not");
    }

    @Test
    void classify_manyDistinctCustomers_isStateless() {
        for (int i = 0; i < 100_000; i++) {
            assertEquals("bronze", classify("customer-" + i, "/x", null));
        }
    }
}
