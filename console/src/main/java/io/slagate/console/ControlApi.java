package io.slagate.console;

import io.slagate.bus.ControlBus;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.ControlMessage;
import io.slagate.bus.message.Topics;
import io.slagate.console.Api.ApiError;
import io.slagate.console.Api.Call;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;

/**
 * The operator's hand on the controller: pause and resume, pinned weights and capacities, draining a server, the online
 * tuner started, stopped or reverted; each a bus message, audited.
 */
final class ControlApi {
    private final ControlBus bus;
    private final AuditLog audit;
    private final ConfigApi config;

    ControlApi(ControlBus bus, AuditLog audit, ConfigApi config) {
        this.bus = bus;
        this.audit = audit;
        this.config = config;
    }

    /** Whether {@code method path} is one of this resource's. */
    static boolean handles(String method, String path) {
        return path.startsWith("/api/controller/") || path.startsWith("/api/overrides/")
                || path.startsWith("/api/servers/") && path.endsWith("/drain") && method.equals("POST")
                || path.startsWith("/api/servers/") && path.endsWith("/pool-pin") && (method.equals("POST") || method.equals("DELETE"));
    }

    void change(Call call) {
        String method = call.method();
        String path = call.path();
        if (path.startsWith("/api/servers/") && path.endsWith("/drain")) {
            String id = config.knownServer(path.substring("/api/servers/".length(), path.length() - "/drain".length()));
            ControlMessage drain = control(ControlMessage.PIN_CAPACITY, null, null, id, 0, 0, call.session());
            publish(drain);
            audit.record(call.session().user(), "server-drain", id, call.address());
            call.ok(Map.of("published", drain, "note", "no new request goes to " + id
                    + "; requests already there finish. DELETE /api/overrides/capacity?server=" + id + " undoes it"));
            return;
        }
        if (path.startsWith("/api/servers/") && path.endsWith("/pool-pin")) {
            String id = config.knownServer(path.substring("/api/servers/".length(), path.length() - "/pool-pin".length()));
            if (!config.movable(id)) {
                throw new ApiError(400, "server " + id + " serves one pool only (servers[].pools lists more for a movable one)", "server");
            }
            boolean pin = method.equals("POST");
            ControlMessage m = control(pin ? ControlMessage.PIN_POOL : ControlMessage.UNPIN_POOL, null, null, id, 0, 0, call.session());
            publish(m);
            audit.record(call.session().user(), m.command(), id, call.address());
            call.ok(Map.of("published", m, "note", pin ? id + " stays in the pool it serves now; the manager moves it no more"
                    : id + " may be moved between its pools again"));
            return;
        }
        Fields q = Request.extractQueryParameters(call.request());
        Sessions.Session session = call.session();
        ControlMessage msg;
        switch (method + " " + path) {
            case "POST /api/controller/pause" -> msg = control(ControlMessage.PAUSE, null, null, null, 0, 0, session);
            case "POST /api/controller/resume" -> msg = control(ControlMessage.RESUME, null, null, null, 0, 0, session);
            case "POST /api/controller/tuning/start" -> msg = tuning(ControlMessage.TUNING_START, q, session);
            case "POST /api/controller/tuning/stop" -> msg = tuning(ControlMessage.TUNING_STOP, q, session);
            case "POST /api/controller/tuning/revert" -> msg = tuning(ControlMessage.TUNING_REVERT, q, session);
            case "POST /api/overrides/weight" -> {
                JsonNode in = call.json();
                String gw = Api.gatewayId(Api.text(in, "gateway"));
                String cls = config.knownClass(Api.text(in, "class"));
                msg = control(ControlMessage.PIN_WEIGHT, gw, cls, null, Api.positive(in, "weight"), Api.expiry(in), session);
            }
            case "DELETE /api/overrides/weight" -> msg = control(ControlMessage.UNPIN_WEIGHT, Api.gatewayId(Api.required(q, "gateway")),
                    config.knownClass(Api.required(q, "class")), null, 0, 0, session);
            case "POST /api/overrides/capacity" -> {
                JsonNode in = call.json();
                String server = config.knownServer(Api.text(in, "server"));
                double n = Api.positive(in, "capacity");
                if (n != Math.rint(n)) {
                    throw new ApiError(400, "capacity must be a whole number of concurrent requests", "capacity");
                }
                msg = control(ControlMessage.PIN_CAPACITY, null, null, server, n, Api.expiry(in), session);
            }
            case "DELETE /api/overrides/capacity" -> msg = control(ControlMessage.UNPIN_CAPACITY, null, null,
                    config.knownServer(Api.required(q, "server")), 0, 0, session);
            default -> throw new ApiError(404, "no such API: " + method + " " + path, null);
        }
        publish(msg);
        audit.record(session.user(), msg.command(), describe(msg), call.address());
        call.ok(Map.of("published", msg));
    }

    private void publish(ControlMessage m) {
        if (!bus.publish(Topics.CONTROL, m)) {
            throw new ApiError(503, "the control bus is not reachable; nothing was changed", null);
        }
    }

    /** A tuning command for the partition named by {@code ?partition=} (checked against the configuration), or for all. */
    private ControlMessage tuning(String command, Fields q, Sessions.Session session) {
        String partition = q.getValue("partition");
        List<String> known = config.tuningPartitions();
        if (partition != null && !known.contains(partition)) {
            throw new ApiError(400, "no tuning partition " + (partition.length() > 64 ? partition.substring(0, 64) + "…" : partition)
                    + (known.isEmpty() ? "; controller.tuning is not configured" : "; partitions: " + String.join(", ", known)), "partition");
        }
        return new ControlMessage(BusMessage.SCHEMA, command, null, null, null, 0, 0, session.user(), System.currentTimeMillis(),
                partition);
    }

    private static ControlMessage control(String command, String gw, String cls, String server, double value, double expiry,
                                          Sessions.Session session) {
        return new ControlMessage(BusMessage.SCHEMA, command, gw, cls, server, value, expiry, session.user(),
                System.currentTimeMillis());
    }

    private static String describe(ControlMessage m) {
        StringBuilder sb = new StringBuilder();
        if (m.gatewayId() != null) {
            sb.append("gateway=").append(m.gatewayId()).append(' ');
        }
        if (m.className() != null) {
            sb.append("class=").append(m.className()).append(' ');
        }
        if (m.serverId() != null) {
            sb.append("server=").append(m.serverId()).append(' ');
        }
        if (m.partition() != null) {
            sb.append("partition=").append(m.partition()).append(' ');
        }
        if (m.command().startsWith("pin")) {
            sb.append("value=").append(m.value()).append(' ');
            sb.append(m.expiresInSeconds() > 0 ? "for " + m.expiresInSeconds() + " s" : "until unpinned");
        }
        return sb.toString().trim();
    }
}
