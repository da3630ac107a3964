package io.slagate.console;

import io.slagate.bus.ControlBus;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.ConfigMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.config.TuningSettings;
import io.slagate.console.Api.ApiError;
import io.slagate.console.Api.Call;
import io.slagate.gateway.classify.Classifier;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The configuration as the console edits it: classes, servers, classification rules and the
 * controller's settings, read and changed; a change is validated, saved to the file and published
 * on the bus for every component. Also the classification tester.
 */
final class ConfigApi {
    private final ConfigEditor editor;
    private final ControlBus bus;
    private final AuditLog audit;
    private volatile Classifier classifier;
    private volatile SlagateConfig classifierOf;

    ConfigApi(ConfigEditor editor, ControlBus bus, AuditLog audit) {
        this.editor = editor;
        this.bus = bus;
        this.audit = audit;
    }

    /** Whether {@code method path} is one of this resource's changes. */
    static boolean handles(String path) {
        return path.equals("/api/classes") || path.startsWith("/api/classes/") || path.equals("/api/servers")
                || path.startsWith("/api/servers/") || path.equals("/api/classification") || path.equals("/api/controller");
    }

    private SlagateConfig config() {
        return editor.config();
    }

    List<Map<String, Object>> classes() {
        return config().classes().stream().map(ConfigApi::classView).toList();
    }

    static Map<String, Object> classView(TrafficClassConfig c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", c.name());
        m.put("targetSeconds", c.target() == null ? null : c.targetSeconds());
        m.put("percentile", c.percentileGoal() == null ? null : c.percentileGoal().percentile());
        m.put("percentileTargetSeconds", c.percentileGoal() == null ? null : c.percentileGoal().targetSeconds());
        m.put("goal", c.goalText());
        m.put("goalSeconds", c.hasGoal() ? c.goalSeconds() : null);
        m.put("importance", c.importance());
        m.put("discretionary", c.discretionary());
        m.put("utility", Map.of("type", c.utility().type(), "parameters", c.utility().parameters()));
        m.put("queueBound", c.queueBound());
        m.put("queueTimeoutSeconds", c.queueTimeout().toMillis() / 1000.0);
        m.put("pool", c.pool());
        return m;
    }

    List<Map<String, Object>> servers() {
        return config().servers().stream().map(s -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", s.id());
            m.put("url", s.url());
            m.put("concurrency", s.concurrency());
            m.put("auto", s.auto() == null ? null : Map.of("min", s.auto().min(), "max", s.auto().max(), "start", s.auto().start()));
            m.put("pool", s.pool());
            m.put("pools", s.pools());
            return m;
        }).toList();
    }

    Object classification() {
        try {
            return editor.classification();
        } catch (IOException e) {
            throw new ApiError(500, "cannot read the configuration: " + e.getMessage(), null);
        }
    }

    Map<String, Object> controller() {
        return Map.of("cycleSeconds", config().controller().cycle().toMillis() / 1000.0,
                "combining", config().controller().combining().name().toLowerCase(Locale.ROOT));
    }

    /** Which grade and class a (customer, service, operation) gets under the configuration in force. */
    Map<String, Object> classify(JsonNode in) {
        SlagateConfig c = config();
        if (classifierOf != c) {
            classifier = new Classifier(c);
            classifierOf = c;
        }
        String customer = in.path("customer").asText("");
        String service = in.path("service").asText("");
        String operation = in.path("operation").asText("");
        int cls = classifier.classify(customer.isEmpty() ? null : customer, service, operation);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("grade", classifier.grade(customer.isEmpty() ? null : customer, service));
        m.put("class", c.classes().get(cls).name());
        return m;
    }

    String knownClass(String name) {
        if (config().classIndex(name) < 0) {
            throw new ApiError(400, "no class named " + name + "; classes: "
                    + config().classes().stream().map(TrafficClassConfig::name).toList(), "class");
        }
        return name;
    }

    /** Whether server {@code id} may serve more than one pool. */
    boolean movable(String id) {
        return config().servers().stream().anyMatch(s -> s.id().equals(id) && s.movable());
    }

    /** The tuning partitions' names, in the configuration's order. */
    List<String> tuningPartitions() {
        return config().controller().tuning().stream().map(TuningSettings::partition).toList();
    }

    String knownServer(String id) {
        for (ServerConfig s : config().servers()) {
            if (s.id().equals(id)) {
                return id;
            }
        }
        throw new ApiError(400, "no server named " + id, "server");
    }

    void change(Call call) {
        if (call.path().equals("/api/classes") || call.path().startsWith("/api/classes/")) {
            editClass(call);
        } else {
            editRest(call);
        }
    }

    private void editRest(Call call) {
        String method = call.method();
        String path = call.path();
        String action;
        String what;
        try {
            if (path.equals("/api/classification") && method.equals("PUT")) {
                editor.putClassification(call.json());
                action = "classification-update";
                what = "";
            } else if (path.equals("/api/controller") && method.equals("PUT")) {
                editor.putController(call.json());
                action = "controller-update";
                what = "";
            } else if (path.equals("/api/servers") && method.equals("POST")) {
                JsonNode in = call.json();
                what = Api.text(in, "id");
                editor.putServer(what, in, false);
                action = "server-create";
            } else if (path.startsWith("/api/servers/") && method.equals("PUT")) {
                what = path.substring("/api/servers/".length());
                editor.putServer(what, call.json(), true);
                action = "server-update";
            } else if (path.startsWith("/api/servers/") && method.equals("DELETE")) {
                what = path.substring("/api/servers/".length());
                editor.deleteServer(what);
                action = "server-delete";
            } else {
                throw new ApiError(405, method + " is not allowed on " + path, null);
            }
        } catch (IOException e) {
            throw new ApiError(500, "the configuration file could not be written: " + e.getMessage(), null);
        }
        boolean published = publish(call.session());
        String body = call.body();
        audit.record(call.session().user(), action, (what + " " + (body == null ? "" : body.replaceAll("\\s+", " "))).trim(), call.address());
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("servers", servers());
        view.put("published", published);
        view.put("note", published ? "saved; every gateway and the resource manager apply it at once (requests already accepted finish where they are)"
                : "saved to the file, but the bus is down: running components get it when they restart");
        call.ok(view);
    }

    private void editClass(Call call) {
        String method = call.method();
        String path = call.path();
        String name = path.equals("/api/classes") ? null : path.substring("/api/classes/".length());
        SlagateConfig next;
        String action;
        try {
            if (method.equals("POST") && name == null) {
                JsonNode in = call.json();
                name = Api.text(in, "name");
                next = editor.putClass(name, in, false);
                action = "class-create";
            } else if (method.equals("PUT") && name != null) {
                next = editor.putClass(name, call.json(), true);
                action = "class-update";
            } else if (method.equals("DELETE") && name != null) {
                next = editor.deleteClass(name);
                action = "class-delete";
            } else {
                throw new ApiError(405, method + " is not allowed on " + path, null);
            }
        } catch (IOException e) {
            throw new ApiError(500, "the configuration file could not be written: " + e.getMessage(), null);
        }
        boolean published = publish(call.session());
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("classes", next.classes().stream().map(ConfigApi::classView).toList());
        view.put("published", published);
        view.put("note", published ? "saved; the resource manager and every gateway apply it at once (requests already accepted"
                + " finish in the queues they are in)" : "saved to the file, but the bus is down: running components"
                + " get it when they restart");
        String body = call.body();
        audit.record(call.session().user(), action, name + (body == null || body.isBlank() ? "" : " " + body.replaceAll("\\s+", " ")),
                call.address());
        call.ok(view);
    }

    private boolean publish(Sessions.Session session) {
        return bus.publish(Topics.CONFIG, new ConfigMessage(BusMessage.SCHEMA, System.currentTimeMillis(), editor.yaml(),
                session.user(), System.currentTimeMillis()));
    }
}
