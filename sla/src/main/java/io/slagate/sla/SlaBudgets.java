package io.slagate.sla;

import io.slagate.config.SlaObjective;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import java.sql.SQLException;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;

/**
 * Where each class's error budget stands in its period, from the store, for allocation that protects the contracts
 * closest to breach: per class with an objective, summed over its customers, the share of the period gone and the share
 * of the budget spent, bad / ((1 − objective) · requests). A calendar month is as far gone as the month is; a rolling
 * period is always full, so it is taken as half gone: its older half leaves it while its newer half and what comes next
 * are judged together.
 */
public final class SlaBudgets {
    /** How far a rolling period counts as gone. */
    static final double ROLLING_ELAPSED = 0.5;

    private SlaBudgets() {
    }

    /** Per class name, {elapsed, spent}. */
    public static Map<String, double[]> of(SlaStore store, SlagateConfig config, long nowMillis) throws SQLException {
        Map<String, double[]> out = new HashMap<>();
        for (TrafficClassConfig tc : config.classes()) {
            SlaObjective o = tc.objective();
            if (o == null) {
                continue;
            }
            long from;
            double elapsed;
            if (o.calendarMonth()) {
                YearMonth m = YearMonth.from(Instant.ofEpochMilli(nowMillis).atZone(ZoneOffset.UTC));
                from = m.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
                long to = m.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
                elapsed = (double) (nowMillis - from) / (to - from);
            } else {
                from = nowMillis - o.rolling().toMillis();
                elapsed = ROLLING_ELAPSED;
            }
            long requests = 0;
            long good = 0;
            for (SlaStore.Totals t : store.totals(from, nowMillis + 1, null, nowMillis)) {
                if (t.className().equals(tc.name())) {
                    requests += t.requests();
                    good += t.good();
                }
            }
            double spent = requests == 0 ? 0 : (requests - good) / (o.budget() * requests);
            out.put(tc.name(), new double[] {elapsed, spent});
        }
        return out;
    }
}
