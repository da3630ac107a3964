package io.slagate.gateway.stats;

import io.slagate.bus.message.SlaTally;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The SLA rows of a gateway's reports: each report carries the running totals of the customers and classes whose counts
 * changed since they were last sent, and of those not sent for {@value #REFRESH_REPORTS} reports (so that a report the
 * store never received is repaired within about a minute even where nothing changes), the longest unsent first, within
 * {@link SlaTally#MAX_ROWS} rows and {@link SlaTally#MAX_NAME_CHARS} characters of names: the rest go in the next.
 * Called by the reporting thread only.
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
        List<Candidate> due = new ArrayList<>();
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
                if (requests != s.requests || good != s.good || report - s.report >= REFRESH_REPORTS) {
                    due.add(new Candidate(new SlaTally.Row(e.getKey(), byClass.getKey(), requests, good), s));
                }
            }
        }
        if (!any) {
            return null;
        }
        // the longest unsent first: where more are due than a report holds, none waits for ever
        due.sort(Comparator.comparingLong(x -> x.sent().report));
        List<SlaTally.Row> rows = new ArrayList<>(Math.min(SlaTally.MAX_ROWS, due.size()));
        long chars = 0;
        for (Candidate x : due) {
            int n = x.row().customer().length() + x.row().className().length();
            if (rows.size() == SlaTally.MAX_ROWS || chars + n > SlaTally.MAX_NAME_CHARS) {
                break;
            }
            chars += n;
            x.sent().requests = x.row().requests();
            x.sent().good = x.row().good();
            x.sent().report = report;
            rows.add(x.row());
        }
        return new SlaTally(ledger.epochMillis(), rows);
    }

    /** A row due in the next report, and what was last sent of it. */
    private record Candidate(SlaTally.Row row, Sent sent) {
    }
}
