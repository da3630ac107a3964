package io.slagate.gateway.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.slagate.config.ClassificationConfig;
import io.slagate.config.ConfigLoader;
import io.slagate.config.Quota;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Buckets on a fake clock: the pace and burst are counted exactly, not timed. */
class QuotasTest {
    private static final long SECOND = 1_000_000_000L;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private static ClassificationConfig config() {
        return ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:9001", concurrency: 10 } ]
                classes: [ { name: basic, target: 1s } ]
                classification:
                  subscriptions: { acme: { "*": gold }, zenith: { "*": gold } }
                  grades: { gold: { rate: 10/s, burst: 5 } }
                  customers: { acme: { rate: 100/s, burst: 10 } }
                """, "q.yaml").classification();
    }

    /** Requests admitted when {@code n} arrive at once at {@code now}. */
    private static int admitted(Quotas q, String key, int n, long now) {
        int ok = 0;
        for (int i = 0; i < n; i++) {
            if (q.tryAcquire(key, now) == 0) {
                ok++;
            }
        }
        return ok;
    }

    @Test
    void keys_customerQuotaFirst_thenItsGradesPerCustomer_elseNone() {
        Quotas q = new Quotas(config(), registry, "gw1");
        assertEquals(Quota.customerKey("acme"), q.key("acme", "gold"));
        assertEquals(Quota.gradeKey("gold", "zenith"), q.key("zenith", "gold"));
        assertEquals(Quota.gradeKey("gold", null), q.key(null, "gold"));
        assertNull(q.key("zenith", "standard"));
    }

    @Test
    void alone_burstThenThePace_andRetryAfterFromTheBucket() {
        Quotas q = new Quotas(config(), registry, "gw1");
        String k = Quota.gradeKey("gold", "zenith");
        long t0 = 1_000 * SECOND;
        assertEquals(5, admitted(q, k, 20, t0), "the burst at once");
        long wait = q.tryAcquire(k, t0);
        assertEquals(SECOND / 10, wait, SECOND / 1000, "the next one a tenth of a second later (10/s)");
        assertEquals(5, admitted(q, k, 1000, t0 + SECOND), "one second on: the bucket refilled to its burst, no more");
        int total = 0;
        for (int ms = 0; ms < 10_000; ms++) {
            total += admitted(q, k, 1, t0 + 2 * SECOND + ms * 1_000_000L);
        }
        assertEquals(5 + 100, total, 1, "a request every millisecond for 10 s: the burst, then 10/s");
        assertEquals(115, registry.get("slagate_quota_requests").tag("quota", "grade:gold").tag("outcome", "admitted")
                .functionCounter().count(), 1);
    }

    @Test
    void shares_paceTheBucket_refusedOnesKeepTheLastGood_andUnnamedKeysFallBackToQuotaOverGateways() {
        Quotas q = new Quotas(config(), registry, "gw1");
        String acme = Quota.customerKey("acme");
        String zenith = Quota.gradeKey("gold", "zenith");
        long t = 0;
        q.tryAcquire(acme, t); // buckets exist before the shares arrive: they are re-paced
        q.tryAcquire(zenith, t);
        q.applyShares(Map.of(acme, 20.0), 4);
        int inASecond = admittedOver(q, acme, 1, t + 5 * SECOND);
        assertTrue(inASecond >= 21 && inASecond <= 22, "20/s with a burst of 10 × 20/100 = 2: " + inASecond);
        assertEquals(2.5, share(q, zenith), 1e-9, "no share named: 10/s over 4 gateways");
        Map<String, Double> bad = new HashMap<>();
        bad.put(acme, Double.NaN);
        bad.put("customer:nobody", 1.0);
        q.applyShares(bad, 4);
        assertEquals(20.0, share(q, acme), 1e-9, "NaN refused: the last good share stays");
        q.applyShares(Map.of(acme, 101.0), 4);
        assertEquals(20.0, share(q, acme), 1e-9, "above the quota: refused");
        assertEquals(3, q.refusedShares());
    }

    private static int admittedOver(Quotas q, String key, int seconds, long from) {
        int ok = 0;
        for (long ms = 0; ms < seconds * 1000L; ms++) {
            ok += q.tryAcquire(key, from + ms * 1_000_000L) == 0 ? 1 : 0;
            ok += q.tryAcquire(key, from + ms * 1_000_000L) == 0 ? 1 : 0;
        }
        return ok;
    }

    @SuppressWarnings("unchecked")
    private static double share(Quotas q, String key) {
        Map<String, Object> b = (Map<String, Object>) ((Map<String, Object>) q.view().get("buckets")).get(key);
        return (Double) b.get("sharePerSecond");
    }

    @Test
    void demand_perInterval_thenIdleBucketsAreDropped() {
        Quotas q = new Quotas(config(), registry, "gw1");
        String k = Quota.gradeKey("gold", "zenith");
        admitted(q, k, 30, 0);
        q.endInterval(2.0, 0);
        assertEquals(Map.of(k, 15.0), q.lastDemand(), "30 offered (admitted or not) over 2 s");
        q.endInterval(2.0, 60 * SECOND);
        assertEquals(Map.of(), q.lastDemand());
        assertTrue(((Map<?, ?>) q.view().get("buckets")).isEmpty(), "an idle, full bucket is forgotten");
    }

    @Test
    void aFloodOfNewCustomers_isCappedAtMaxBuckets_customersAlreadyThereGoOn_andIdleBucketsMakeRoom() {
        Quotas q = new Quotas(config(), registry, "gw1");
        String known = Quota.gradeKey("gold", "zenith");
        assertEquals(0, q.tryAcquire(known, 0));
        for (int i = 1; i < Quotas.MAX_BUCKETS; i++) {
            q.tryAcquire(Quota.gradeKey("gold", "invented-" + i), 0); // each invented name its own bucket, up to the bound
        }
        assertTrue(q.tryAcquire(Quota.gradeKey("gold", "one-more"), 0) > 0, "past the bound a new customer is refused");
        assertEquals(1L, q.view().get("refusedNewCustomers"));
        assertEquals(0, q.tryAcquire(known, SECOND), "a customer already there goes on at its pace");
        q.endInterval(1.0, 60 * SECOND); // the invented ones offered in the interval: still counted as demand
        q.endInterval(1.0, 120 * SECOND); // then idle and full again: dropped
        assertEquals(0, q.tryAcquire(Quota.gradeKey("gold", "one-more"), 120 * SECOND), "room again");
    }
}
