package io.slagate.gateway.stats;

import io.slagate.bus.message.SlaTally;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The SLA rows of a gateway's reports: each report carries the running totals of the customers and classes whose counts
 * changed since they were last sent, then those not sent for {@value #REFRESH_REPORTS} reports (so that a report the
 * store never received is repaired within about a minute even where nothing changes), at most
 * {@link SlaTally#MAX_ROWS} per report: the rest wait for the next. Called by the reporting thread only.
 */
public final class SlaTallies {
    /** Reports after which a row is sent again although it did not change. */
    static final int REFRESH_REPORTS = 12;

    /** What was last sent of one customer's and class's counts, and at which report. */
    private static final class Sent {
        long requests = -1;
        long good = -1;
        long report;
    }

    private final SlaLedger ledger;
    private final Map<SlaLedger.Counts, Sent> sent = new IdentityHashMap<>();
    private long report;

    public SlaTallies(SlaLedger ledger) {
        this.ledger = ledger;
    }

    /** The next report's rows (null when there are none: no class states an objective, or nothing was ever counted). */
    public SlaTally next() {
        report++;
        List<SlaTally.Row> changed = new ArrayList<>();
        List<SlaTally.Row> stale = new ArrayList<>();
        List<Sent> changedSent = new ArrayList<>();
        List<Sent> staleSent = new ArrayList<>();
        boolean any = false;
        for (Map.Entry<String, Map<String, SlaLedger.Counts>> byClass : ledger.classes().entrySet()) {
            if (byClass.getKey().length() > SlaTally.MAX_NAME) {
                continue; // a class name no row can carry (the configuration's own): counted, not reported
            }
            for (Map.Entry<String, SlaLedger.Counts> e : byClass.getValue().entrySet()) {
                any = true;
                SlaLedger.Counts c = e.getValue();
                long good = c.good(); // good first: a request counted between the two reads makes the total larger, never smaller
                long requests = Math.max(c.total(), good);
                Sent s = sent.computeIfAbsent(c, k -> new Sent());
                boolean moved = requests != s.requests || good != s.good;
                if (moved || report - s.report >= REFRESH_REPORTS) {
                    SlaTally.Row row = new SlaTally.Row(e.getKey(), byClass.getKey(), requests, good);
                    (moved ? changed : stale).add(row);
                    (moved ? changedSent : staleSent).add(s);
                }
            }
        }
        if (!any) {
            return null;
        }
        List<SlaTally.Row> rows = new ArrayList<>(Math.min(SlaTally.MAX_ROWS, changed.size() + stale.size()));
        take(changed, changedSent, rows);
        take(stale, staleSent, rows);
        return new SlaTally(ledger.epochMillis(), rows);
    }

    private void take(List<SlaTally.Row> from, List<Sent> marks, List<SlaTally.Row> rows) {
        for (int i = 0; i < from.size() && rows.size() < SlaTally.MAX_ROWS; i++) {
            SlaTally.Row r = from.get(i);
            Sent s = marks.get(i);
            s.requests = r.requests();
            s.good = r.good();
            s.report = report;
            rows.add(r);
        }
    }
}
