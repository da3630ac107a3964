package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.experiment.GatewayCluster;
import io.slagate.gateway.stats.GatewayMetrics;
import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A customer's quota held across three gateways on a real broker: the customer sends three times its
 * quota, 60/30/10% through the gateways; once the manager has split the quota by the gateways'
 * demand, the answers it gets across the cluster come to its quota, and a calm customer on the same
 * gateways gets every answer.
 */
class QuotaAcrossGatewaysTest {
    private static final double QUOTA = 30;
    private static final double[] SPLIT = {0.6, 0.3, 0.1};
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void stopAll() {
        for (int i = open.size() - 1; i >= 0; i--) {
            try {
                open.get(i).close();
            } catch (Exception e) {
                // the others still close
            }
        }
    }

    private static String yaml(String id, String server) {
        return String.format(Locale.ROOT, """
                gateway: { id: %s, listen: "127.0.0.1:0", admin: "127.0.0.1:0", faultStatus: http,
                           stats: { reportingInterval: 250ms, window: 1s } }
                servers: [ { id: s1, url: "%s", concurrency: 40 } ]
                classes: [ { name: gold, target: 1s, queueBound: 10000 }, { name: basic, target: 2s } ]
                classification:
                  subscriptions: { noisy: { "*": gold }, calm: { "*": gold } }
                  customers: { noisy: { rate: %.0f/s }, calm: { rate: 100/s } }
                  rules: [ { grade: gold, class: gold } ]
                  defaultClass: basic
                bus: { url: "vm://quota-e2e?create=false", embedded: false }
                controller: { cycle: 500ms }
                """, id, server, QUOTA);
    }

    @Test
    void threeTimesTheQuotaUnevenly_theClusterAdmitsTheQuota_theCalmCustomerEverything() throws Exception {
        BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.of(Duration.ofMillis(10), 0.02));
        open.add(backend);
        String server = backend.urls().get(0);
        GatewayCluster cluster = new GatewayCluster("quota-e2e", 3, id -> yaml(id, server));
        open.add(cluster);

        // 4 s to settle (eight cycles: demand reported, the split following it), 12 s counted
        Duration settle = Duration.ofSeconds(4);
        Duration measure = Duration.ofSeconds(12);
        List<Summary> runs = cluster.load(i -> new LoadSpec(cluster.url(i), "/services/StockUtility", null,
                List.of(new LoadSpec.ClassSpec("calm", "getQuote", "calm", false, null),
                        new LoadSpec.ClassSpec("noisy", "getQuote", "noisy", false, null)),
                List.of(new LoadSpec.Phase(settle.plus(measure), List.of(8.0, 3 * QUOTA * SPLIT[i]))), true, Duration.ZERO,
                settle, 11 + i, Duration.ofSeconds(30), null));
        double accepted = 0;
        long calmErrors = 0;
        long calmAnswered = 0;
        long noisyRefused = 0;
        long sent = 0;
        for (Summary s : runs) {
            assertEquals(0, s.lost(), "every request answered");
            sent += s.sent();
            accepted += s.classes().get("noisy").throughput();
            Map<String, Long> noisyErrors = s.classes().get("noisy").errors();
            assertEquals(Set.of("quota-exceeded"), noisyErrors.keySet(), "the noisy customer's refusals blame its quota, nothing else");
            noisyRefused += noisyErrors.get("quota-exceeded");
            calmErrors += s.classes().get("calm").errors().values().stream().mapToLong(Long::longValue).sum();
            calmAnswered += s.classes().get("calm").completed();
        }
        System.out.printf(Locale.ROOT, "quota e2e: accepted %.1f/s of %.0f/s; noisy refused %d; calm answered %d, errors %d%n",
                accepted, QUOTA, noisyRefused, calmAnswered, calmErrors);
        assertTrue(Math.abs(accepted - QUOTA) <= 0.1 * QUOTA, "cluster-wide accepted " + accepted + "/s against a quota of " + QUOTA);
        assertTrue(noisyRefused > 0, "the rest was refused");
        assertEquals(0, calmErrors, "the calm customer is never refused");
        assertTrue(calmAnswered > 100, "the calm customer was served: " + calmAnswered);
        // a refusal for the quota is no arrival of the class (the manager's load figures and the class's utility never
        // see it), and every arrival is answered or faulted
        long arrived = 0;
        double refusedForQuota = 0;
        for (int i = 0; i < 3; i++) {
            refusedForQuota += cluster.gateway(i).registry().get("slagate_quota_requests").tag("quota", "customer:noisy")
                    .tag("outcome", "refused").functionCounter().count();
            GatewayMetrics m = cluster.gateway(i).metrics();
            await().atMost(Duration.ofSeconds(10)).until(() -> m.inFlight() == 0);
            assertEquals(m.totals().arrived(), m.totals().completed() + m.totals().faulted(), "counters balance at gw" + (i + 1));
            assertEquals(0, m.totals().faulted(), "no arrival faulted at gw" + (i + 1));
            arrived += m.totals().arrived();
        }
        assertTrue(refusedForQuota >= noisyRefused, "the gateways counted every refusal the clients saw after their warm-up");
        assertEquals(sent - (long) refusedForQuota, arrived, "arrivals: every request sent but the ones over quota");
    }
}
