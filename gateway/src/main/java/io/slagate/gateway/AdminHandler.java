package io.slagate.gateway;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The admin address (loopback by default): {@code /metrics} for Prometheus, {@code /health}
 * (the process is up), {@code /ready} (accepting requests, with at least one server in rotation),
 * and {@code /stats}, the windowed per-class statistics and the allocation in force as JSON, and
 * {@code /dump}, the state of every Jetty component (connections, pools, queues) for diagnosis.
 */
final class AdminHandler extends Handler.Abstract.NonBlocking {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrometheusMeterRegistry registry;
    private final Supplier<String> ready;
    private final Supplier<Object> stats;
    private final Supplier<String> dump;

    /** @param ready why the gateway is not ready, or null when it is */
    AdminHandler(PrometheusMeterRegistry registry, Supplier<String> ready, Supplier<Object> stats, Supplier<String> dump) {
        this.registry = registry;
        this.ready = ready;
        this.stats = stats;
        this.dump = dump;
    }

    /** Answers an admin request on the calling (pool) thread: a path not served is a 404, a failure a 500. */
    void serve(Request request, Response response, Callback callback) {
        try {
            if (!handle(request, response, callback)) {
                Response.writeError(request, response, callback, 404);
            }
        } catch (Throwable failure) {
            Response.writeError(request, response, callback, failure);
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
            return reply(response, callback, 405, "text/plain", "method not allowed\n");
        }
        String path = request.getHttpURI().getPath();
        return switch (path) {
            case "/metrics" -> reply(response, callback, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape());
            case "/health" -> reply(response, callback, 200, "application/json", "{\"status\":\"UP\"}\n");
            case "/ready" -> readiness(response, callback);
            case "/stats" -> reply(response, callback, 200, "application/json", JSON.writerWithDefaultPrettyPrinter().writeValueAsString(stats.get()));
            case "/dump" -> dump == null
                    ? reply(response, callback, 404, "text/plain; charset=utf-8", "/dump is off; set gateway.adminDump: true to enable it\n")
                    : reply(response, callback, 200, "text/plain; charset=utf-8", dump.get());
            case "/" -> reply(response, callback, 200, "application/json", JSON.writeValueAsString(index(dump != null)));
            default -> reply(response, callback, 404, "text/plain", "not found; try /metrics, /health, /ready, /stats\n");
        };
    }

    private boolean readiness(Response response, Callback callback) throws Exception {
        String why = ready.get();
        return why == null
                ? reply(response, callback, 200, "application/json", "{\"ready\":true}\n")
                : reply(response, callback, 503, "application/json", JSON.writeValueAsString(Map.of("ready", false, "reason", why)) + "\n");
    }

    private static Map<String, String> index(boolean dump) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("metrics", "/metrics");
        m.put("health", "/health");
        m.put("ready", "/ready");
        m.put("stats", "/stats");
        if (dump) {
            m.put("dump", "/dump");
        }
        return m;
    }

    private static boolean reply(Response response, Callback callback, int status, String type, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
        return true;
    }
}
