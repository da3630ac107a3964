package io.slagate.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.slagate.config.SlagateConfig;
import io.slagate.console.Api.ApiError;
import io.slagate.console.Api.Call;
import io.slagate.sla.SlaHistory;
import io.slagate.sla.SlaReport;
import io.slagate.sla.SlaSpan;
import io.slagate.sla.SlaStore;
import io.slagate.sla.SlaStores;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;

/**
 * The SLA reports through the console: {@code GET /api/sla} (the rows of {@code slagate sla-report}, each with its burn
 * rate over the last hour) and {@code GET /api/sla/hours} (one customer's and class's hours, for the chart). Query
 * parameters as the command's options: {@code since}, {@code month}, {@code customer}, {@code class}. The store is read
 * on the server's thread pool, not on the thread that parsed the request.
 */
final class SlaApi {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SlaApi.class);
    /** The span the burn rate is measured over: spent faster than the period allows shows within it. */
    static final long BURN_WINDOW_MILLIS = 3_600_000;
    private final Supplier<SlagateConfig> config;

    SlaApi(Supplier<SlagateConfig> config) {
        this.config = config;
    }


    void get(Call call) {
        call.request().getComponents().getThreadPool().execute(() -> {
            try {
                call.ok(answer(call));
            } catch (ApiError e) {
                Api.error(call.response(), call.callback(), e.status, e.getMessage(), e.field);
            } catch (SQLException e) {
                // the driver's words name hosts, users and paths: the log has them, the browser a plain answer
                LOG.warn("the console could not read the SLA store: {}", e.getMessage());
                Api.error(call.response(), call.callback(), 503, "the SLA store cannot be read now (the console's log says why)", null);
            } catch (RuntimeException e) {
                LOG.error("the SLA report failed", e);
                Api.error(call.response(), call.callback(), 500, "the SLA report failed (the console's log says why)", null);
            }
        });
    }

    /** Nothing counted yet: an empty report, with the chart's empty series for the hours' call. */
    private static JsonNode emptyView(SlaSpan span) {
        ObjectNode v = SlaReport.none(span).view();
        v.putArray("hours");
        v.putArray("worst");
        return v;
    }

    private JsonNode answer(Call call) throws SQLException {
        Fields q = Request.extractQueryParameters(call.request());
        SlagateConfig c = config.get();
        long now = System.currentTimeMillis();
        SlaSpan span;
        try {
            span = SlaSpan.of(q.getValue("since"), q.getValue("month"), c, now);
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, e.getMessage(), q.getValue("month") != null ? "month" : "since");
        }
        SlaStore opened;
        try {
            opened = SlaStores.of(c).openForReading();
        } catch (SlaStores.NoStoreYet e) {
            return emptyView(span); // nothing counted yet: an empty report, not an error
        }
        try (SlaStore store = opened) {
            if (call.path().equals("/api/sla/hours")) {
                return SlaHistory.of(store, c, span, Api.required(q, "customer"), Api.required(q, "class"));
            }
            SlaReport report = SlaReport.of(store, c, span, q.getValue("customer"), now);
            ObjectNode view = report.view();
            Map<String, SlaReport.Row> lastHour = new HashMap<>();
            for (SlaReport.Row r : SlaReport.of(store, c, new SlaSpan(now - BURN_WINDOW_MILLIS, now + 1, "1h"), q.getValue("customer"),
                    now).rows()) {
                lastHour.put(r.customer() + '\u0000' + r.className(), r);
            }
            for (JsonNode row : view.path("rows")) {
                SlaReport.Row h = lastHour.get(row.path("customer").asText() + '\u0000' + row.path("class").asText());
                double burn = h == null || h.requests() == 0 || Double.isNaN(h.objective()) ? 0
                        : (1 - h.attainment()) / (1 - h.objective());
                ((ObjectNode) row).put("burn_rate_1h", burn);
                ((ObjectNode) row).put("burning", burn > 1);
            }
            return view;
        }
    }
}
