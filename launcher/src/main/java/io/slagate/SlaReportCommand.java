package io.slagate;

import io.slagate.config.SlagateConfig;
import io.slagate.sla.SlaReport;
import io.slagate.sla.SlaSpan;
import io.slagate.sla.SlaStore;
import io.slagate.sla.SlaStores;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.List;

/** {@code slagate sla-report}: attainment per customer and class from the SLA store, as a table, CSV or JSON. */
final class SlaReportCommand {
    static final String USAGE = """
            usage: slagate sla-report [--since SPAN | --month YYYY-MM] [--customer NAME] [--format table|csv|json] [--config FILE]
              Attainment per customer and class from the SLA store (sla.store), against each contract's objective:
              customer, class, requests, good, attainment, objective, budget_remaining (1: the span's error
              budget untouched, 0: spent, below 0: the objective missed). Reads the store beside a running
              system as well as after it stopped.
              --since SPAN    the last SPAN: 90s, 10m, 6h, 7d (at most 400d)
              --month M       a calendar month, UTC: 2026-11
                              (neither: the classes' period, this calendar month or the longest rolling one)
              --customer N    only this customer's rows
              --format F      table (default), csv or json
            """;

    private SlaReportCommand() {
    }

    static int run(SlagateConfig config, List<String> args, PrintStream out, PrintStream err) {
        String since = null;
        String month = null;
        String customer = null;
        String format = "table";
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException(a.startsWith("--") ? a + " needs a value" : "unknown argument " + a);
            }
            String v = args.get(++i);
            switch (a) {
                case "--since" -> since = v;
                case "--month" -> month = v;
                case "--customer" -> customer = v;
                case "--format" -> format = v;
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (!List.of("table", "csv", "json").contains(format)) {
            throw new IllegalArgumentException("--format " + format + ": table, csv or json");
        }
        long now = System.currentTimeMillis();
        SlaSpan span = SlaSpan.of(since, month, config, now);
        SlaStores stores = SlaStores.of(config);
        SlaReport report;
        try (SlaStore store = stores.openForReading()) {
            report = SlaReport.of(store, config, span, customer, now);
        } catch (SQLException e) {
            err.println("slagate sla-report: the SLA store " + stores.url() + " cannot be read: " + e.getMessage());
            return 3;
        }
        out.print(switch (format) {
            case "csv" -> report.csv();
            case "json" -> report.json();
            default -> report.table();
        });
        return 0;
    }
}
