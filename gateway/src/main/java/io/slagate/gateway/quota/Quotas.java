package io.slagate.gateway.quota;

import io.slagate.config.ClassificationConfig;
import io.slagate.config.Quota;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.slagate.util.LogLimiter;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Subscription quotas at one gateway: a bucket per customer that has a quota (its own, or its
 * grade's), paced at this gateway's share of the quota. The resource manager splits each quota across
 * the gateways every cycle in proportion to the demand they report; until a gateway hears its share
 * (or for a customer the manager has not split yet) it takes the quota divided by the gateways it
 * knows of. Thread-safe; the request path takes no lock.
 */
public final class Quotas {
    private static final Logger LOG = LoggerFactory.getLogger(Quotas.class);
    /** Buckets kept at most; past this a new customer's request is refused until idle ones are dropped. */
    static final int MAX_BUCKETS = 100_000;
    /** Demand figures reported at most (the largest). */
    public static final int MAX_REPORTED = 1_000;

    private volatile ClassificationConfig config;
    /** Each customer with a quota of its own, and its bucket's key. */
    private volatile Map<String, String> customerKeys = Map.of();
    private final ConcurrentHashMap<String, QuotaBucket> buckets = new ConcurrentHashMap<>();
    /** This gateway's share per bucket key (requests per second), from the manager. */
    private volatile Map<String, Double> shares = Map.of();
    private volatile int gateways = 1;
    private volatile Map<String, Double> lastDemand = Map.of();
    private final AtomicLong refusedShares = new AtomicLong();
    private final AtomicLong overflow = new AtomicLong();
    private final LogLimiter warnings = new LogLimiter(Duration.ofSeconds(10));

    private final MeterRegistry registry;
    private final String gatewayId;
    /** Per quota name ({@code customer:acme}, {@code grade:gold}): requests admitted and refused. */
    private final ConcurrentHashMap<String, LongAdder[]> counters = new ConcurrentHashMap<>();

    public Quotas(ClassificationConfig config, MeterRegistry registry, String gatewayId) {
        this.registry = registry;
        this.gatewayId = gatewayId;
        reconfigure(config);
    }

    /** A new configuration's quotas: buckets start afresh at the new quotas. */
    public void reconfigure(ClassificationConfig next) {
        Map<String, String> keys = new HashMap<>();
        next.customerQuotas().keySet().forEach(c -> keys.put(c, Quota.customerKey(c)));
        customerKeys = Map.copyOf(keys);
        config = next;
        buckets.clear();
        next.customerQuotas().keySet().forEach(c -> meters("customer:" + c));
        next.gradeQuotas().keySet().forEach(g -> meters("grade:" + g));
    }

    private LongAdder[] meters(String quota) {
        return counters.computeIfAbsent(quota, q -> {
            LongAdder[] a = {new LongAdder(), new LongAdder()};
            String[] outcome = {"admitted", "refused"};
            for (int i = 0; i < 2; i++) {
                LongAdder adder = a[i];
                FunctionCounter.builder("slagate_quota_requests", adder, LongAdder::sum).tag("gateway", gatewayId)
                        .tag("quota", q).tag("outcome", outcome[i])
                        .description("Requests of a customer with a quota (a grade's counts every customer of the grade), admitted or refused at this gateway")
                        .register(registry);
            }
            return a;
        });
    }

    /** The quota a bucket key draws on: {@code customer:acme}, or {@code grade:gold} for every customer of gold. */
    private static String quotaName(String key) {
        int second = key.startsWith("grade:") ? key.indexOf(':', 6) : -1;
        return second < 0 ? key : key.substring(0, second);
    }

    /** Buckets held now (one per customer drawing on a quota). */
    public int buckets() {
        return buckets.size();
    }

    public boolean any() {
        return config.hasQuotas();
    }

    /** The bucket key of a customer's request of {@code grade}, or null when no quota applies to it. */
    public String key(String customer, String grade) {
        String own = ownKey(customer);
        return own != null ? own : gradeKey(customer, grade);
    }

    /** The key of the customer's own quota (made once per configuration), or null when it has none. */
    public String ownKey(String customer) {
        return customer == null ? null : customerKeys.get(customer);
    }

    /** The key of the bucket a customer without a quota of its own draws on for {@code grade}, or null: the grade has none. */
    public String gradeKey(String customer, String grade) {
        return grade != null && config.gradeQuotas().containsKey(grade) ? Quota.gradeKey(grade, customer) : null;
    }

    /** 0 when a request of bucket {@code key} is admitted, else nanoseconds until one would be. */
    public long tryAcquire(String key, long nowNanos) {
        QuotaBucket b = buckets.get(key);
        if (b == null) {
            if (config.quotaOf(key) == null) {
                return 0; // the configuration changed under this request: no quota applies now
            }
            if (buckets.size() >= MAX_BUCKETS) {
                overflow.incrementAndGet();
                return 1_000_000_000L;
            }
            b = buckets.computeIfAbsent(key, k -> newBucket(k, nowNanos));
        }
        return b.tryAcquire(nowNanos);
    }

    private QuotaBucket newBucket(String key, long nowNanos) {
        Quota q = config.quotaOf(key);
        double rate = rate(key, q);
        return new QuotaBucket(rate, burst(q, rate), nowNanos, meters(quotaName(key)));
    }

    private double rate(String key, Quota q) {
        Double share = shares.get(key);
        return share != null ? share : q.ratePerSecond() / Math.max(1, gateways);
    }

    /** A burst in proportion to this gateway's part of the rate, at least one request. */
    private static int burst(Quota q, double rate) {
        return (int) Math.max(1, Math.round(q.burst() * rate / q.ratePerSecond()));
    }

    /**
     * The manager's split: this gateway's share per bucket key, and how many gateways share the quotas.
     * A key not named (no demand here lately) takes the quota divided by the gateways. A share that is
     * negative, not finite, or above its quota is refused (counted, logged at most every 10 s) and the
     * last good one stays.
     */
    public void applyShares(Map<String, Double> next, int gatewayCount) {
        Map<String, Double> before = shares;
        Map<String, Double> taken = new HashMap<>();
        for (Map.Entry<String, Double> e : next.entrySet()) {
            Quota q = e.getKey() == null ? null : config.quotaOf(e.getKey());
            Double v = e.getValue();
            if (q == null || v == null || !Double.isFinite(v) || v <= 0 || v > q.ratePerSecond() * (1 + 1e-9)) {
                refusedShares.incrementAndGet();
                if (warnings.allow()) {
                    LOG.warn("quota share {} = {} refused ({}); the last good share stays", e.getKey(), v,
                            q == null ? "no such quota here" : "must be above 0 and at most the quota " + q.text());
                }
                if (e.getKey() != null && before.containsKey(e.getKey())) {
                    taken.put(e.getKey(), before.get(e.getKey()));
                }
                continue;
            }
            taken.put(e.getKey(), v);
        }
        shares = Map.copyOf(taken);
        gateways = Math.max(1, gatewayCount);
        buckets.forEach((key, b) -> {
            Quota q = config.quotaOf(key);
            if (q != null) {
                double rate = rate(key, q);
                b.setRate(rate, burst(q, rate));
            }
        });
    }

    /** The demand of the last reporting interval, for the statistics the gateway reports. */
    public Map<String, Double> lastDemand() {
        return lastDemand;
    }

    /** Ends a reporting interval: its demand is kept for the report, the counts restart, idle buckets are dropped. */
    public void endInterval(double intervalSeconds, long nowNanos) {
        lastDemand = Map.copyOf(demandAndRestart(intervalSeconds, nowNanos));
    }

    /**
     * Each bucket's demand over the interval just ended (requests per second offered, admitted or
     * not), the largest {@value #MAX_REPORTED}; the interval's counts restart, and idle buckets are dropped.
     */
    Map<String, Double> demandAndRestart(double intervalSeconds, long nowNanos) {
        Map<String, Double> demand = new HashMap<>();
        buckets.forEach((key, b) -> {
            long n = b.offered.sumThenReset();
            b.refused.reset();
            if (n > 0) {
                demand.put(key, n / intervalSeconds);
            } else if (b.idle(nowNanos)) {
                buckets.remove(key, b);
            }
        });
        if (demand.size() <= MAX_REPORTED) {
            return demand;
        }
        Map<String, Double> top = new HashMap<>();
        demand.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(MAX_REPORTED)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }

    /** For /stats: per bucket, the share in force and the requests offered and refused since the start (the busiest 100). */
    public Map<String, Object> view() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("gateways", gateways);
        out.put("refusedShares", refusedShares.get());
        out.put("refusedNewCustomers", overflow.get());
        Map<String, Object> byKey = new TreeMap<>();
        List<Map.Entry<String, QuotaBucket>> busiest = buckets.entrySet().stream()
                .sorted(Comparator.comparingLong((Map.Entry<String, QuotaBucket> e) -> e.getValue().offeredTotal.sum()).reversed())
                .limit(100).toList();
        for (Map.Entry<String, QuotaBucket> e : busiest) {
            Quota q = config.quotaOf(e.getKey());
            if (q != null) {
                byKey.put(e.getKey(), Map.of("quota", q.text(), "sharePerSecond", rate(e.getKey(), q),
                        "offered", e.getValue().offeredTotal.sum(), "refused", e.getValue().refusedTotal.sum()));
            }
        }
        out.put("buckets", byKey);
        return out;
    }

    public long refusedShares() {
        return refusedShares.get();
    }
}
