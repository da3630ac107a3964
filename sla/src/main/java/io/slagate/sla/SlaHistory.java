package io.slagate.sla;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.slagate.config.SlagateConfig;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One customer's and class's span hour by hour, for the console's chart: each hour's attainment, the attainment and
 * the error budget left from the span's start to the end of that hour, and the worst hours (the most bad requests).
 */
public final class SlaHistory {
    /** Hours listed as the worst. */
    static final int WORST = 5;
    private static final ObjectMapper JSON = new ObjectMapper();

    private SlaHistory() {
    }

    public static ObjectNode of(SlaStore store, SlagateConfig config, SlaSpan span, String customer, String className)
            throws SQLException {
        double objective = SlaReport.objective(config, className, customer);
        List<SlaStore.Hour> hours = store.hours(customer, className, span.fromMillis(), span.toMillis());
        ObjectNode root = JSON.createObjectNode();
        root.put("customer", customer);
        root.put("class", className);
        root.put("span", span.text());
        SlaReport.number(root, "objective", objective);
        ArrayNode out = root.putArray("hours");
        long requests = 0;
        long good = 0;
        for (SlaStore.Hour h : hours) {
            requests += h.requests();
            good += h.good();
            SlaReport.Row soFar = new SlaReport.Row(customer, className, requests, good, objective);
            ObjectNode o = out.addObject();
            o.put("start", Instant.ofEpochMilli(h.startMillis()).toString());
            o.put("requests", h.requests());
            o.put("good", h.good());
            SlaReport.number(o, "attainment", new SlaReport.Row(customer, className, h.requests(), h.good(), objective).attainment());
            SlaReport.number(o, "attainment_so_far", soFar.attainment());
            SlaReport.number(o, "budget_remaining", soFar.budgetRemaining());
        }
        List<SlaStore.Hour> worst = new ArrayList<>(hours);
        worst.removeIf(h -> h.requests() == h.good());
        worst.sort(Comparator.comparingLong((SlaStore.Hour h) -> h.requests() - h.good()).reversed()
                .thenComparingLong(SlaStore.Hour::startMillis));
        ArrayNode w = root.putArray("worst");
        for (SlaStore.Hour h : worst.subList(0, Math.min(WORST, worst.size()))) {
            ObjectNode o = w.addObject();
            o.put("start", Instant.ofEpochMilli(h.startMillis()).toString());
            o.put("requests", h.requests());
            o.put("bad", h.requests() - h.good());
        }
        return root;
    }
}
