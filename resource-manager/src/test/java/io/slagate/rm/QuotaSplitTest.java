package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.ClassificationConfig;
import io.slagate.config.ConfigLoader;
import io.slagate.config.Quota;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class QuotaSplitTest {
    private static final String ACME = Quota.customerKey("acme");

    private static ClassificationConfig config() {
        return ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:9001", concurrency: 10 } ]
                classes: [ { name: basic, target: 1s } ]
                classification:
                  subscriptions: { acme: { "*": gold } }
                  customers: { acme: { rate: 30/s } }
                """, "q.yaml").classification();
    }

    @Test
    void overTheQuota_aTenthEqually_theRestByDemand_summingToTheQuota() {
        // three gateways see 54, 27 and 9 req/s: three times the quota of 30/s, unevenly
        Map<String, Double> s = QuotaSplit.split(30, Map.of("gw1", 54.0, "gw2", 27.0, "gw3", 9.0));
        assertEquals(1 + 27 * 0.6, s.get("gw1"), 1e-9);
        assertEquals(1 + 27 * 0.3, s.get("gw2"), 1e-9);
        assertEquals(1 + 27 * 0.1, s.get("gw3"), 1e-9);
        assertEquals(30, s.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
        // every gateway's demand is above its share: the cluster admits exactly the quota
        double admitted = Math.min(54, s.get("gw1")) + Math.min(27, s.get("gw2")) + Math.min(9, s.get("gw3"));
        assertEquals(30, admitted, 1e-9);
    }

    @Test
    void underTheQuota_eachGetsItsDemandAndAnEqualPartOfTheRest() {
        Map<String, Double> s = QuotaSplit.split(30, Map.of("gw1", 20.0, "gw2", 4.0));
        assertEquals(23, s.get("gw1"), 1e-9);
        assertEquals(7, s.get("gw2"), 1e-9);
    }

    @Test
    void perGateway_onlyKeysWithDemand_badFiguresCounted() {
        Map<String, Map<String, Double>> demand = new HashMap<>();
        Map<String, Double> gw1 = new HashMap<>();
        gw1.put(ACME, 45.0);
        gw1.put("customer:nobody", 5.0);
        gw1.put(Quota.gradeKey("gold", "x"), 1.0); // gold has no quota here
        demand.put("gw1", gw1);
        Map<String, Double> gw2 = new HashMap<>();
        gw2.put(ACME, Double.NaN);
        demand.put("gw2", gw2);
        AtomicLong refused = new AtomicLong();
        Map<String, Map<String, Double>> shares = QuotaSplit.split(config(), List.of("gw1", "gw2", "gw3"), demand, refused);
        assertEquals(Map.of(ACME, 30.0), shares.get("gw1"), "the only gateway with demand gets the whole quota");
        assertTrue(shares.get("gw2").isEmpty() && shares.get("gw3").isEmpty());
        assertEquals(3, refused.get());
    }
}
