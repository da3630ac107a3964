package io.slagate.gateway.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ledger's bound on series: past {@value SlaLedger#MAX_CUSTOMERS} customers a class's counts go to {@code other}. */
class SlaLedgerTest {
    @Test
    void customersPastTheBound_areCountedAsOther_andAddNoSeries() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SlaLedger ledger = new SlaLedger(registry, "gw1", 0);
        Map<String, SlaLedger.Counts> gold = ledger.of("gold");
        for (int i = 0; i < SlaLedger.MAX_CUSTOMERS + 5; i++) {
            ledger.counts("gold", gold, "customer-" + i).total.increment();
        }
        ledger.counts("gold", gold, null).total.increment(); // a request that named no customer
        assertEquals(1, ledger.counted("gold", "customer-0").total());
        assertEquals(6, ledger.counted("gold", SlaLedger.OTHER).total(), "five past the bound and the nameless one");
        assertEquals(null, ledger.counted("gold", "customer-" + SlaLedger.MAX_CUSTOMERS));
        assertEquals(SlaLedger.MAX_CUSTOMERS + 1, registry.find("slagate.sla.requests").functionCounters().size(),
                "one series per customer within the bound, and other");
        // another class has a bound of its own
        ledger.counts("silver", ledger.of("silver"), "customer-1").total.increment();
        assertEquals(1, ledger.counted("silver", "customer-1").total());
    }
}
