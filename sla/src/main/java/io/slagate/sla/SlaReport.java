package io.slagate.sla;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.slagate.config.SlaObjective;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Attainment per customer and class over a span, against the objective its contract states (the customer's own share
 * for the class, else its subscription grade's, else the class's): the columns {@code customer, class, requests, good, attainment, objective,
 * budget_remaining}. The error budget is the share of the span's requests that may be bad, {@code 1 − objective}; what
 * remains of it is {@code 1 − bad / (budget · requests)}: 1 untouched, 0 spent, below 0 the objective missed.
 */
public final class SlaReport {
    /** One row of the report. {@code objective} NaN: the class states none. */
    public record Row(String customer, String className, long requests, long good, double objective) {
        public double attainment() {
            return requests == 0 ? Double.NaN : (double) good / requests;
        }

        /** What is left of the span's error budget: 1 untouched, 0 spent, negative beyond; NaN without an objective. */
        public double budgetRemaining() {
            if (Double.isNaN(objective)) {
                return Double.NaN;
            }
            double budget = (1 - objective) * requests;
            return requests == 0 ? 1 : 1 - (requests - good) / budget;
        }
    }

    private final SlaSpan span;
    private final List<Row> rows;

    private SlaReport(SlaSpan span, List<Row> rows) {
        this.span = span;
        this.rows = List.copyOf(rows);
    }

    /** A report of no rows (nothing counted yet). */
    public static SlaReport none(SlaSpan span) {
        return new SlaReport(span, List.of());
    }

    public static SlaReport of(SlaStore store, SlagateConfig config, SlaSpan span, String customer, long nowMillis) throws SQLException {
        List<Row> rows = new ArrayList<>();
        for (SlaStore.Totals t : store.totals(span.fromMillis(), span.toMillis(), customer, nowMillis)) {
            rows.add(new Row(t.customer(), t.className(), t.requests(), t.good(), objective(config, t.className(), t.customer())));
        }
        return new SlaReport(span, rows);
    }

    /** The share the customer's contract states for the class, else its grade's, else the class's; NaN where the class states none. */
    static double objective(SlagateConfig config, String className, String customer) {
        for (TrafficClassConfig tc : config.classes()) {
            if (tc.name().equals(className)) {
                SlaObjective o = tc.objective();
                return o == null ? Double.NaN : o.shareFor(customer, config.classification().gradeOf(customer));
            }
        }
        return Double.NaN;
    }

    public SlaSpan span() {
        return span;
    }

    public List<Row> rows() {
        return rows;
    }

    public static final List<String> COLUMNS = List.of("customer", "class", "requests", "good", "attainment", "objective",
            "budget_remaining");

    public String csv() {
        StringBuilder b = new StringBuilder(String.join(",", COLUMNS)).append('\n');
        for (Row r : rows) {
            b.append(csvField(r.customer())).append(',').append(csvField(r.className())).append(',').append(r.requests()).append(',')
                    .append(r.good()).append(',').append(ratio(r.attainment())).append(',').append(ratio(r.objective())).append(',')
                    .append(ratio(r.budgetRemaining())).append('\n');
        }
        return b.toString();
    }

    public String table() {
        StringBuilder b = new StringBuilder("# SLA attainment, " + span.text() + ": " + Instant.ofEpochMilli(span.fromMillis()) + " to "
                + Instant.ofEpochMilli(span.toMillis()) + "\n");
        String format = "%-24s %-16s %10s %10s %10s %10s %16s%n";
        b.append(String.format(Locale.ROOT, format, COLUMNS.toArray()));
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, format, printable(r.customer()), printable(r.className()), r.requests(), r.good(),
                    percent(r.attainment()), percent(r.objective()), percent(r.budgetRemaining())));
        }
        if (rows.isEmpty()) {
            b.append("(no requests counted in this span)\n");
        }
        return b.toString();
    }

    public String json() {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(view()) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The report as JSON: the span, and a row per customer and class with the CSV's columns (no objective: null). */
    public ObjectNode view() {
        ObjectNode root = JSON.createObjectNode();
        root.put("span", span.text());
        root.put("from", Instant.ofEpochMilli(span.fromMillis()).toString());
        root.put("to", Instant.ofEpochMilli(span.toMillis()).toString());
        ArrayNode out = root.putArray("rows");
        for (Row r : rows) {
            ObjectNode o = out.addObject();
            o.put("customer", r.customer());
            o.put("class", r.className());
            o.put("requests", r.requests());
            o.put("good", r.good());
            number(o, "attainment", r.attainment());
            number(o, "objective", r.objective());
            number(o, "budget_remaining", r.budgetRemaining());
        }
        return root;
    }

    static void number(ObjectNode o, String key, double v) {
        if (Double.isNaN(v)) {
            o.putNull(key);
        } else {
            o.put(key, v);
        }
    }

    private static String ratio(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.6f", v);
    }

    private static String percent(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f%%", v * 100);
    }

    /** A name as a field of CSV: quoted where it holds a comma, a quote or a line break; a leading formula sign defused. */
    static String csvField(String s) {
        String v = printable(s);
        if (!v.isEmpty() && "=+-@".indexOf(v.charAt(0)) >= 0) {
            v = "'" + v; // a spreadsheet would run it as a formula
        }
        return v.contains(",") || v.contains("\"") ? '"' + v.replace("\"", "\"\"") + '"' : v;
    }

    /**
     * Control characters and the bidirectional overrides shown as \\uXXXX: a name is a customer's word, and neither a
     * terminal's escape sequences nor a reordering of the line are its to send.
     */
    static String printable(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || c >= '\u202a' && c <= '\u202e'
                    || c >= '\u2066' && c <= '\u2069') {
                b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
