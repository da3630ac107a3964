package io.slagate.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slagate.bus.ControlBus;
import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.ControlMessage;
import io.slagate.bus.message.Topics;
import io.slagate.gateway.classify.Classifier;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * The console's HTTP side on Jetty core: a JSON API under {@code /api/}, live events, and the
 * pages. Every page but the login page and every API call but login needs a session; changes need
 * the admin role and the session's CSRF token in {@code X-CSRF-Token}; bodies are JSON (a
 * cross-site form cannot send that without a CORS preflight, which is never granted).
 */
public final class ConsoleHandler extends Handler.Abstract {
    static final String COOKIE = "slagate_session";
    static final String CSRF_HEADER = "X-CSRF-Token";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SAFE_PATH = Pattern.compile("/(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_.-]+");
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8", "js",
            "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8", "svg", "image/svg+xml", "png", "image/png");
    private static final String CHART_JS = "/webjars/chart.js/";

    private final ConfigEditor editor;
    private final UserStore users;
    private final Sessions sessions;
    private final LoginThrottle throttle;
    private final AuditLog audit;
    private final LiveState state;
    private final ControlBus bus;
    private volatile Classifier classifier;
    private volatile SlagateConfig classifierOf;

    public ConsoleHandler(ConfigEditor editor, UserStore users, Sessions sessions, LoginThrottle throttle, AuditLog audit,
                          LiveState state, ControlBus bus) {
        this.editor = editor;
        this.users = users;
        this.sessions = sessions;
        this.throttle = throttle;
        this.audit = audit;
        this.state = state;
        this.bus = bus;
    }

    private SlagateConfig config() {
        return editor.config();
    }

    private Classifier classifier() {
        SlagateConfig c = config();
        if (classifierOf != c) {
            classifier = new Classifier(c);
            classifierOf = c;
        }
        return classifier;
    }

    /** A refusal with an HTTP status and a message for the user (and the field it concerns, if any). */
    static final class ApiError extends RuntimeException {
        final int status;
        final String field;

        ApiError(int status, String message, String field) {
            super(message, null, false, false);
            this.status = status;
            this.field = field;
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = Request.getPathInContext(request);
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("X-Frame-Options", "DENY");
        response.getHeaders().put("Referrer-Policy", "no-referrer");
        response.getHeaders().put("Content-Security-Policy",
                "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'");
        Sessions.Session session = sessions.get(cookie(request));
        if (path.startsWith("/api/")) {
            Content.Source.asString(request, StandardCharsets.UTF_8, new org.eclipse.jetty.util.Promise.Invocable.NonBlocking<>() {
                @Override
                public void succeeded(String body) {
                    api(request, response, callback, path, session, body);
                }

                @Override
                public void failed(Throwable x) {
                    callback.failed(x);
                }
            });
            return true;
        }
        page(request, response, callback, path, session);
        return true;
    }

    // ------------------------------------------------------------------ pages

    private void page(Request request, Response response, Callback callback, String path, Sessions.Session session) {
        if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
            Response.writeError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
            return;
        }
        if (path.equals("/") || path.equals("/index.html")) {
            if (session == null) {
                Response.sendRedirect(request, response, callback, "/login.html");
                return;
            }
            path = "/index.html";
        }
        String resource;
        if (path.startsWith(CHART_JS)) {
            resource = "META-INF/resources" + path;
        } else {
            resource = "console" + path;
        }
        if (!SAFE_PATH.matcher(path).matches() || path.contains("..")) {
            Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
            return;
        }
        try (InputStream in = ConsoleHandler.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
                return;
            }
            byte[] bytes = in.readAllBytes();
            String ext = path.substring(path.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, TYPES.getOrDefault(ext, "application/octet-stream"));
            response.getHeaders().put(HttpHeader.CACHE_CONTROL, path.equals("/index.html") ? "no-store" : "max-age=300");
            response.write(true, ByteBuffer.wrap(bytes), callback);
        } catch (IOException e) {
            callback.failed(e);
        }
    }

    // ------------------------------------------------------------------ API

    private void api(Request request, Response response, Callback callback, String path, Sessions.Session session, String body) {
        String method = request.getMethod();
        try {
            if (path.equals("/api/login") && method.equals("POST")) {
                login(request, response, callback, json(request, body));
                return;
            }
            if (session == null) {
                throw new ApiError(401, "log in first", null);
            }
            boolean change = !method.equals("GET") && !method.equals("HEAD");
            if (change) {
                String csrf = request.getHeaders().get(CSRF_HEADER);
                if (csrf == null || !java.security.MessageDigest.isEqual(csrf.getBytes(StandardCharsets.UTF_8),
                        session.csrf().getBytes(StandardCharsets.UTF_8))) {
                    throw new ApiError(403, "missing or wrong " + CSRF_HEADER + " header", null);
                }
            }
            switch (method + " " + path) {
                case "POST /api/logout" -> {
                    sessions.remove(session.token());
                    Response.addCookie(response, HttpCookie.build(COOKIE, "").path("/").maxAge(0).httpOnly(true)
                            .sameSite(HttpCookie.SameSite.STRICT).build());
                    ok(response, callback, Map.of("loggedOut", true));
                }
                case "GET /api/me" -> ok(response, callback, Map.of("user", session.user(), "role", session.role().text(),
                        "csrf", session.csrf()));
                case "GET /api/classes" -> ok(response, callback, classes());
                case "GET /api/servers" -> ok(response, callback, servers());
                case "GET /api/classification" -> {
                    try {
                        ok(response, callback, editor.classification());
                    } catch (IOException e) {
                        throw new ApiError(500, "cannot read the configuration: " + e.getMessage(), null);
                    }
                }
                case "GET /api/state" -> ok(response, callback, stateView());
                case "GET /api/controller" -> ok(response, callback, Map.of(
                        "cycleSeconds", config().controller().cycle().toMillis() / 1000.0,
                        "combining", config().controller().combining().name().toLowerCase(java.util.Locale.ROOT)));
                case "GET /api/history" -> {
                    long seconds = longParam(request, "seconds", 300, 1, 86_400);
                    ok(response, callback, state.history(System.currentTimeMillis() - seconds * 1000));
                }
                case "GET /api/audit" -> ok(response, callback, audit.recent((int) longParam(request, "limit", 100, 1, 1000)));
                case "GET /api/events" -> events(request, response, callback);
                case "POST /api/classify" -> ok(response, callback, classify(json(request, body)));
                case "PUT /api/me/password" -> changeOwnPassword(request, response, callback, session, json(request, body));
                case "GET /api/users" -> {
                    requireAdmin(session);
                    ok(response, callback, users.list());
                }
                default -> {
                    if (change) {
                        requireAdmin(session);
                        change(request, response, callback, method, path, session, body);
                    } else {
                        throw new ApiError(404, "no such API: " + method + " " + path, null);
                    }
                }
            }
        } catch (ApiError e) {
            error(response, callback, e.status, e.getMessage(), e.field);
        }
    }

    private void login(Request request, Response response, Callback callback, JsonNode in) {
        String user = text(in, "user");
        String password = text(in, "password");
        String address = address(request);
        long wait = throttle.attempt(user, address); // counted before the check: concurrent guesses cannot race it
        if (wait > 0) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, wait);
            audit.record(user, "login-throttled", "", address);
            throw new ApiError(429, "too many failed logins; try again in " + wait + " s", null);
        }
        Role role = users.authenticate(user, password.toCharArray());
        if (role == null) {
            audit.record(user, "login-failed", "", address);
            throw new ApiError(401, "wrong user name or password", null);
        }
        throttle.succeeded(user, address);
        Sessions.Session s = sessions.create(user, role);
        boolean secure = request.isSecure();
        Response.addCookie(response, HttpCookie.build(COOKIE, s.token()).path("/").httpOnly(true).secure(secure)
                .sameSite(HttpCookie.SameSite.STRICT).build());
        audit.record(user, "login", role.text(), address);
        ok(response, callback, Map.of("user", user, "role", role.text(), "csrf", s.csrf()));
    }

    private void change(Request request, Response response, Callback callback, String method, String path,
                        Sessions.Session session, String body) {
        if (path.equals("/api/users") || path.startsWith("/api/users/")) {
            editUser(request, response, callback, method, path, session, body);
            return;
        }
        if (path.equals("/api/classes") || path.startsWith("/api/classes/")) {
            editClass(request, response, callback, method, path, session, body);
            return;
        }
        if (path.startsWith("/api/servers/") && path.endsWith("/drain") && method.equals("POST")) {
            String id = knownServer(path.substring("/api/servers/".length(), path.length() - "/drain".length()));
            ControlMessage drain = control(ControlMessage.PIN_CAPACITY, null, null, id, 0, 0, session);
            if (!bus.publish(Topics.CONTROL, drain)) {
                throw new ApiError(503, "the control bus is not reachable; nothing was changed", null);
            }
            audit.record(session.user(), "server-drain", id, address(request));
            ok(response, callback, Map.of("published", drain, "note", "no new request goes to " + id
                    + "; requests already there finish. DELETE /api/overrides/capacity?server=" + id + " undoes it"));
            return;
        }
        if (path.equals("/api/servers") || path.startsWith("/api/servers/") || path.equals("/api/classification")
                || path.equals("/api/controller")) {
            editConfig(request, response, callback, method, path, session, body);
            return;
        }
        Fields q = Request.extractQueryParameters(request);
        ControlMessage msg;
        switch (method + " " + path) {
            case "POST /api/controller/pause" -> msg = control(ControlMessage.PAUSE, null, null, null, 0, 0, session);
            case "POST /api/controller/resume" -> msg = control(ControlMessage.RESUME, null, null, null, 0, 0, session);
            case "POST /api/overrides/weight" -> {
                JsonNode in = json(request, body);
                String gw = gatewayId(text(in, "gateway"));
                String cls = knownClass(text(in, "class"));
                double w = positive(in, "weight");
                msg = control(ControlMessage.PIN_WEIGHT, gw, cls, null, w, expiry(in), session);
            }
            case "DELETE /api/overrides/weight" -> msg = control(ControlMessage.UNPIN_WEIGHT, gatewayId(required(q, "gateway")),
                    knownClass(required(q, "class")), null, 0, 0, session);
            case "POST /api/overrides/capacity" -> {
                JsonNode in = json(request, body);
                String server = knownServer(text(in, "server"));
                double n = positive(in, "capacity");
                if (n != Math.rint(n)) {
                    throw new ApiError(400, "capacity must be a whole number of concurrent requests", "capacity");
                }
                msg = control(ControlMessage.PIN_CAPACITY, null, null, server, n, expiry(in), session);
            }
            case "DELETE /api/overrides/capacity" -> msg = control(ControlMessage.UNPIN_CAPACITY, null, null,
                    knownServer(required(q, "server")), 0, 0, session);
            default -> throw new ApiError(404, "no such API: " + method + " " + path, null);
        }
        if (!bus.publish(Topics.CONTROL, msg)) {
            throw new ApiError(503, "the control bus is not reachable; nothing was changed", null);
        }
        audit.record(session.user(), msg.command(), describe(msg), address(request));
        ok(response, callback, Map.of("published", msg));
    }

    private void editConfig(Request request, Response response, Callback callback, String method, String path,
                            Sessions.Session session, String body) {
        String action;
        String what;
        try {
            if (path.equals("/api/classification") && method.equals("PUT")) {
                editor.putClassification(json(request, body));
                action = "classification-update";
                what = "";
            } else if (path.equals("/api/controller") && method.equals("PUT")) {
                editor.putController(json(request, body));
                action = "controller-update";
                what = "";
            } else if (path.equals("/api/servers") && method.equals("POST")) {
                JsonNode in = json(request, body);
                what = text(in, "id");
                editor.putServer(what, in, false);
                action = "server-create";
            } else if (path.startsWith("/api/servers/") && method.equals("PUT")) {
                what = path.substring("/api/servers/".length());
                editor.putServer(what, json(request, body), true);
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
        boolean published = publishConfig(session);
        audit.record(session.user(), action, (what + " " + (body == null ? "" : body.replaceAll("\\s+", " "))).trim(), address(request));
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("servers", servers());
        view.put("published", published);
        view.put("note", published ? "saved; every gateway and the resource manager apply it at once (requests already accepted finish where they are)"
                : "saved to the file, but the bus is down: running components get it when they restart");
        ok(response, callback, view);
    }

    private boolean publishConfig(Sessions.Session session) {
        return bus.publish(Topics.CONFIG, new io.slagate.bus.message.ConfigMessage(BusMessage.SCHEMA,
                System.currentTimeMillis(), editor.yaml(), session.user(), System.currentTimeMillis()));
    }

    private void editClass(Request request, Response response, Callback callback, String method, String path,
                           Sessions.Session session, String body) {
        String name = path.equals("/api/classes") ? null : path.substring("/api/classes/".length());
        SlagateConfig next;
        String action;
        try {
            if (method.equals("POST") && name == null) {
                JsonNode in = json(request, body);
                name = text(in, "name");
                next = editor.putClass(name, in, false);
                action = "class-create";
            } else if (method.equals("PUT") && name != null) {
                next = editor.putClass(name, json(request, body), true);
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
        boolean published = publishConfig(session);
        String n = name;
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("classes", next.classes().stream().map(ConsoleHandler::classView).toList());
        view.put("published", published);
        view.put("note", published ? "saved; the resource manager and every gateway apply it at once (requests already accepted"
                + " finish in the queues they are in)" : "saved to the file, but the bus is down: running components"
                + " get it when they restart");
        audit.record(session.user(), action, n + (body == null || body.isBlank() ? "" : " " + body.replaceAll("\\s+", " ")),
                address(request));
        ok(response, callback, view);
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
        if (m.command().startsWith("pin")) {
            sb.append("value=").append(m.value()).append(' ');
            sb.append(m.expiresInSeconds() > 0 ? "for " + m.expiresInSeconds() + " s" : "until unpinned");
        }
        return sb.toString().trim();
    }

    private void events(Request request, Response response, Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        SseStream[] holder = new SseStream[1];
        SseStream stream = new SseStream(response, callback, () -> state.removeListener(holder[0]));
        holder[0] = stream;
        state.addListener(stream);
        stream.comment("connected");
        request.getComponents().getScheduler().schedule(new Runnable() {
            @Override
            public void run() {
                if (!stream.isClosed()) {
                    stream.comment("keep-alive");
                    request.getComponents().getScheduler().schedule(this, 15, java.util.concurrent.TimeUnit.SECONDS);
                }
            }
        }, 15, java.util.concurrent.TimeUnit.SECONDS);
    }

    // ------------------------------------------------------------------ views

    private List<Map<String, Object>> classes() {
        return config().classes().stream().map(ConsoleHandler::classView).toList();
    }

    static Map<String, Object> classView(TrafficClassConfig c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", c.name());
        m.put("targetSeconds", c.targetSeconds());
        m.put("utility", Map.of("type", c.utility().type(), "parameters", c.utility().parameters()));
        m.put("queueBound", c.queueBound());
        m.put("queueTimeoutSeconds", c.queueTimeout().toMillis() / 1000.0);
        m.put("pool", c.pool());
        return m;
    }

    private List<Map<String, Object>> servers() {
        return config().servers().stream().map(s -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", s.id());
            m.put("url", s.url());
            m.put("concurrency", s.concurrency());
            m.put("pool", s.pool());
            return m;
        }).toList();
    }

    private Map<String, Object> stateView() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("gateways", state.gateways());
        m.put("allocation", state.allocation());
        m.put("decision", state.decision());
        m.put("busConnected", bus.isConnected());
        m.put("gatewayExpirySeconds", state.expirySeconds());
        return m;
    }

    private Map<String, Object> classify(JsonNode in) {
        String customer = in.path("customer").asText("");
        String service = in.path("service").asText("");
        String operation = in.path("operation").asText("");
        int c = classifier().classify(customer.isEmpty() ? null : customer, service, operation);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("grade", classifier().grade(customer.isEmpty() ? null : customer, service));
        m.put("class", config().classes().get(c).name());
        return m;
    }

    // ------------------------------------------------------------------ helpers

    private static final java.util.regex.Pattern USER_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9._@-]{1,64}");
    static final int MIN_PASSWORD = 12;

    /** Users: create (POST), change role or password (PUT), delete (DELETE); every change audited, never a password. */
    private void editUser(Request request, Response response, Callback callback, String method, String path,
                          Sessions.Session session, String body) {
        String name = path.equals("/api/users") ? null : java.net.URLDecoder.decode(path.substring("/api/users/".length()), StandardCharsets.UTF_8);
        try {
            if (method.equals("POST") && name == null) {
                JsonNode in = json(request, body);
                name = text(in, "user");
                if (!USER_NAME.matcher(name).matches()) {
                    throw new ApiError(400, "a user name is 1 to 64 letters, digits, '.', '_', '@' or '-'", "user");
                }
                if (users.exists(name)) {
                    throw new ApiError(409, "user " + name + " exists; change it instead", "user");
                }
                Role role = role(in);
                users.put(name, role, password(in, "password"));
                audit.record(session.user(), "user-create", name + " " + role.text(), address(request));
            } else if (method.equals("PUT") && name != null) {
                JsonNode in = json(request, body);
                requireUser(name);
                Role role = in.hasNonNull("role") ? role(in) : null;
                char[] password = in.hasNonNull("password") ? password(in, "password") : null;
                users.update(name, role, password);
                sessions.removeUser(name);
                audit.record(session.user(), "user-update", name + (role == null ? "" : " role " + role.text())
                        + (password == null ? "" : " password"), address(request));
            } else if (method.equals("DELETE") && name != null) {
                requireUser(name);
                users.delete(name);
                sessions.removeUser(name);
                audit.record(session.user(), "user-delete", name, address(request));
            } else {
                throw new ApiError(405, method + " is not allowed on " + path, null);
            }
        } catch (IllegalStateException e) {
            throw new ApiError(409, e.getMessage() + ": keep at least one admin", "role");
        } catch (IOException e) {
            throw new ApiError(500, "the users file could not be written: " + e.getMessage(), null);
        }
        ok(response, callback, users.list());
    }

    private void changeOwnPassword(Request request, Response response, Callback callback, Sessions.Session session, JsonNode in) {
        String current = text(in, "current");
        if (users.authenticate(session.user(), current.toCharArray()) == null) {
            audit.record(session.user(), "password-change-refused", "", address(request));
            throw new ApiError(403, "the current password is wrong", "current");
        }
        try {
            users.update(session.user(), null, password(in, "password"));
        } catch (IOException e) {
            throw new ApiError(500, "the users file could not be written: " + e.getMessage(), null);
        }
        sessions.removeUser(session.user());
        audit.record(session.user(), "password-change", "", address(request));
        ok(response, callback, Map.of("changed", true, "note", "password changed; log in again"));
    }

    private void requireUser(String name) {
        if (!users.exists(name)) {
            throw new ApiError(404, "no user named " + name, "user");
        }
    }

    private static Role role(JsonNode in) {
        try {
            return Role.parse(text(in, "role"));
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, e.getMessage(), "role");
        }
    }

    private static char[] password(JsonNode in, String field) {
        String p = text(in, field);
        if (p.length() < MIN_PASSWORD) {
            throw new ApiError(400, "a password needs at least " + MIN_PASSWORD + " characters", field);
        }
        return p.toCharArray();
    }

    private static void requireAdmin(Sessions.Session s) {
        if (s.role() != Role.ADMIN) {
            throw new ApiError(403, "this change needs the admin role; " + s.user() + " is " + s.role().text(), null);
        }
    }

    private String knownClass(String name) {
        if (config().classIndex(name) < 0) {
            throw new ApiError(400, "no class named " + name + "; classes: "
                    + config().classes().stream().map(TrafficClassConfig::name).toList(), "class");
        }
        return name;
    }

    private String knownServer(String id) {
        for (ServerConfig s : config().servers()) {
            if (s.id().equals(id)) {
                return id;
            }
        }
        throw new ApiError(400, "no server named " + id, "server");
    }

    private static JsonNode json(Request request, String body) {
        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new ApiError(415, "send JSON (Content-Type: application/json)", null);
        }
        try {
            JsonNode n = JSON.readTree(body);
            if (n == null || !n.isObject()) {
                throw new ApiError(400, "the body must be a JSON object", null);
            }
            return n;
        } catch (IOException e) {
            throw new ApiError(400, "the body is not valid JSON", null);
        }
    }

    private static String text(JsonNode in, String field) {
        JsonNode n = in.get(field);
        if (n == null || !n.isTextual() || n.asText().isBlank()) {
            throw new ApiError(400, field + " is required", field);
        }
        if (n.asText().length() > 200) {
            throw new ApiError(400, field + " is longer than 200 characters", field);
        }
        return n.asText();
    }

    private static double positive(JsonNode in, String field) {
        JsonNode n = in.get(field);
        if (n == null || !n.isNumber() || !(n.asDouble() > 0) || Double.isInfinite(n.asDouble())) {
            throw new ApiError(400, field + " must be a number > 0", field);
        }
        return n.asDouble();
    }

    private static double expiry(JsonNode in) {
        JsonNode n = in.get("expiresInSeconds");
        if (n == null || n.isNull()) {
            return 0;
        }
        if (!n.isNumber() || n.asDouble() < 0) {
            throw new ApiError(400, "expiresInSeconds must be a number ≥ 0 (0 or absent: until unpinned)", "expiresInSeconds");
        }
        return n.asDouble();
    }

    private static final java.util.regex.Pattern GATEWAY_ID = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    /** A gateway id as gateway.id allows it (it is stored, published and shown): anything else is refused. */
    private static String gatewayId(String id) {
        if (id == null || !GATEWAY_ID.matcher(id).matches()) {
            throw new ApiError(400, "gateway must be a gateway id: 1-64 letters, digits, '.', '_' or '-'", "gateway");
        }
        return id;
    }

    private static String required(Fields q, String name) {
        String v = q.getValue(name);
        if (v == null || v.isBlank()) {
            throw new ApiError(400, "query parameter " + name + " is required", name);
        }
        return v;
    }

    private static long longParam(Request request, String name, long def, long min, long max) {
        String v = Request.extractQueryParameters(request).getValue(name);
        if (v == null) {
            return def;
        }
        try {
            long x = Long.parseLong(v);
            if (x < min || x > max) {
                throw new NumberFormatException();
            }
            return x;
        } catch (NumberFormatException e) {
            throw new ApiError(400, name + " must be a whole number from " + min + " to " + max, name);
        }
    }

    private static String cookie(Request request) {
        for (HttpCookie c : Request.getCookies(request)) {
            if (COOKIE.equals(c.getName())) {
                return c.getValue();
            }
        }
        return null;
    }

    private static String address(Request request) {
        SocketAddress a = request.getConnectionMetaData().getRemoteSocketAddress();
        return a instanceof InetSocketAddress i ? i.getAddress().getHostAddress() : String.valueOf(a);
    }

    private static void ok(Response response, Callback callback, Object body) {
        send(response, callback, 200, body);
    }

    private static void error(Response response, Callback callback, int status, String message, String field) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error", message);
        if (field != null) {
            m.put("field", field);
        }
        send(response, callback, status, m);
    }

    private static void send(Response response, Callback callback, int status, Object body) {
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            callback.failed(e);
            return;
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }
}
