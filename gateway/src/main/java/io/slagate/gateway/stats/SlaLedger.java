package io.slagate.gateway.stats;

import io.micrometer.core.instrument.FunctionCounter;
import io.slagate.bus.message.SlaTally;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gateway's counts toward its classes' objectives, for its life (a reload keeps them): per class and customer the
 * requests that count and those of them that were good, as {@code slagate_sla_requests_total} and
 * {@code slagate_sla_requests_good_total}. At most {@value #MAX_CUSTOMERS} customers per class get series of their own;
 * the rest are counted together as {@code other}, with one warning, so that no client can grow the scrape without bound.
 */
public final class SlaLedger {
    private static final Logger LOG = LoggerFactory.getLogger(SlaLedger.class);
    /** Customers per class with series of their own. */
    public static final int MAX_CUSTOMERS = 1000;
    /** The customer of a request that named none (no authentication, no claim). */
    public static final String NO_CUSTOMER = "none";
    public static final String OTHER = "other";

    /** One class's and customer's counts. */
    public static final class Counts {
        final LongAdder total = new LongAdder();
        final LongAdder good = new LongAdder();

        public long total() {
            return total.sum();
        }

        public long good() {
            return good.sum();
        }
    }

    private final MeterRegistry registry;
    private final String gateway;
    private final long epochMillis;
    private final Map<String, Map<String, Counts>> byClass = new ConcurrentHashMap<>();
    private final AtomicBoolean warned = new AtomicBoolean();

    /** @param epochMillis when the counts begin (the gateway's start), which names them in its reports */
    public SlaLedger(MeterRegistry registry, String gateway, long epochMillis) {
        this.registry = registry;
        this.gateway = gateway;
        this.epochMillis = epochMillis;
    }

    public long epochMillis() {
        return epochMillis;
    }

    /** Every class's counts by customer, as counted so far (the maps are live). */
    Map<String, Map<String, Counts>> classes() {
        return byClass;
    }

    /** The class's counts by customer (made on first use; the map is the class's for the gateway's life). */
    Map<String, Counts> of(String className) {
        return byClass.computeIfAbsent(className, c -> new ConcurrentHashMap<>());
    }

    /** The counts of {@code customer} (null: none) in a class's map, with its series registered on first sight. */
    Counts counts(String className, Map<String, Counts> customers, String customer) {
        String key = customer == null ? NO_CUSTOMER : customer;
        Counts c = customers.get(key);
        if (c != null) {
            return c; // a name seen before: no check again on the request path
        }
        // a name a report row cannot carry (too long, or holding NUL) is counted with the others rather than not reported
        boolean carried = key.length() <= SlaTally.MAX_NAME && key.indexOf('\u0000') < 0;
        if (!carried || customers.size() >= MAX_CUSTOMERS) {
            if (carried && warned.compareAndSet(false, true)) {
                LOG.warn("class {} has {} customers with counts of their own; the objective's counts of the others go to '{}'",
                        className, MAX_CUSTOMERS, OTHER);
            }
            key = OTHER;
            c = customers.get(key);
            if (c != null) {
                return c;
            }
        }
        String k = key;
        return customers.computeIfAbsent(k, x -> register(className, k));
    }

    private Counts register(String className, String customer) {
        Counts c = new Counts();
        FunctionCounter.builder("slagate.sla.requests", c, Counts::total).tag("gateway", gateway).tag("class", className)
                .tag("customer", customer).description("Requests that count toward the class's objective").register(registry);
        FunctionCounter.builder("slagate.sla.requests.good", c, Counts::good).tag("gateway", gateway).tag("class", className)
                .tag("customer", customer).description("Of those, the ones answered within the class's goal threshold").register(registry);
        return c;
    }

    /** A class's and customer's counts so far, or null before any (for tests and reports). */
    public Counts counted(String className, String customer) {
        Map<String, Counts> m = byClass.get(className);
        return m == null ? null : m.get(customer == null ? NO_CUSTOMER : customer);
    }
}
