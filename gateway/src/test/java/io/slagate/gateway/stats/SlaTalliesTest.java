package io.slagate.gateway.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.slagate.bus.message.SlaTally;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a gateway's reports carry of its SLA totals: what changed, then now and then the rest, within a report's bound. */
class SlaTalliesTest {
    private final SlaLedger ledger = new SlaLedger(new SimpleMeterRegistry(), "gw1", 42);
    private final SlaTallies tallies = new SlaTallies(ledger);

    private void count(String customer, int requests, int good) {
        Map<String, SlaLedger.Counts> gold = ledger.of("gold");
        SlaLedger.Counts c = ledger.counts("gold", gold, customer);
        c.total.add(requests);
        c.good.add(good);
    }

    private static List<String> customers(SlaTally t) {
        return t.rows().stream().map(r -> r.customer() + "=" + r.requests() + "/" + r.good()).sorted().toList();
    }

    @Test
    void changedRowsEachReport_unchangedOnesEveryRefresh() {
        assertNull(tallies.next(), "nothing counted: nothing to report");
        count("acme", 3, 2);
        count("globex", 1, 1);
        SlaTally first = tallies.next();
        assertEquals(42, first.epochMillis());
        assertEquals(List.of("acme=3/2", "globex=1/1"), customers(first));
        count("acme", 1, 1);
        assertEquals(List.of("acme=4/3"), customers(tallies.next()), "only what changed, as a running total");
        for (int i = 3; i < SlaTallies.REFRESH_REPORTS + 1; i++) {
            assertEquals(List.of(), customers(tallies.next()));
        }
        assertEquals(List.of("globex=1/1"), customers(tallies.next()), "globex unsent for " + SlaTallies.REFRESH_REPORTS + " reports");
    }

    @Test
    void moreRowsThanAReportHolds_theRestGoInTheNext() {
        int classes = 5; // each with a thousand customers of its own: more rows than one report carries
        for (int k = 0; k < classes; k++) {
            Map<String, SlaLedger.Counts> m = ledger.of("class-" + k);
            for (int i = 0; i < SlaLedger.MAX_CUSTOMERS; i++) {
                ledger.counts("class-" + k, m, "c" + i).total.increment();
            }
        }
        int rows = classes * SlaLedger.MAX_CUSTOMERS;
        assertEquals(SlaTally.MAX_ROWS, tallies.next().rows().size());
        assertEquals(rows - SlaTally.MAX_ROWS, tallies.next().rows().size(), "the rest, not yet sent, in the next report");
        assertEquals(0, tallies.next().rows().size());
    }

    @Test
    void aNameNoRowCanCarry_isCountedAsOther() {
        count("x".repeat(SlaTally.MAX_NAME + 1), 2, 1);
        assertEquals(List.of("other=2/1"), customers(tallies.next()));
    }
}
