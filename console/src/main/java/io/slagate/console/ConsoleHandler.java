package io.slagate.console;

import io.slagate.bus.ControlBus;
import io.slagate.console.Api.ApiError;
import io.slagate.console.Api.Call;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;

/**
 * The console's HTTP side on Jetty core: a JSON API under {@code /api/}, live events, and the
 * pages. Every page but the login page and every API call but login needs a session; changes need
 * the admin role and the session's CSRF token in {@code X-CSRF-Token}; bodies are JSON (a
 * cross-site form cannot send that without a CORS preflight, which is never granted). This class
 * checks that and routes; each resource is its own class ({@link UsersApi}, {@link ConfigApi},
 * {@link ControlApi}, {@link CustomersApi}, {@link SlaApi}, {@link StaticPages}), and the live view (state, history, events, audit) is here.
 */
public final class ConsoleHandler extends Handler.Abstract {
    static final String COOKIE = UsersApi.COOKIE;
    static final String CSRF_HEADER = "X-CSRF-Token";

    private final Sessions sessions;
    private final AuditLog audit;
    private final LiveState state;
    private final ControlBus bus;
    private final UsersApi users;
    private final ConfigApi config;
    private final ControlApi control;
    private final CustomersApi customers;
    private final SlaApi sla;

    public ConsoleHandler(ConfigEditor editor, UserStore users, Sessions sessions, LoginThrottle throttle, AuditLog audit,
                          LiveState state, ControlBus bus) {
        this.sessions = sessions;
        this.audit = audit;
        this.state = state;
        this.bus = bus;
        this.users = new UsersApi(users, sessions, throttle, audit);
        this.config = new ConfigApi(editor, bus, audit);
        this.control = new ControlApi(bus, audit, config);
        CustomerCredentials credentialFiles = new CustomerCredentials(editor.config().gateway().authentication());
        CredentialsRollout rollout = new CredentialsRollout(credentialFiles, bus, state, System::nanoTime);
        rollout.attach();
        this.customers = new CustomersApi(credentialFiles, rollout, audit);
        this.sla = new SlaApi(editor::config);
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
            Content.Source.asString(request, StandardCharsets.UTF_8, new Promise.Invocable.NonBlocking<>() {
                @Override
                public void succeeded(String body) {
                    api(new Call(request, response, callback, request.getMethod(), path, session, body));
                }

                @Override
                public void failed(Throwable x) {
                    callback.failed(x);
                }
            });
            return true;
        }
        StaticPages.serve(request, response, callback, path, session);
        return true;
    }

    private void api(Call call) {
        String method = call.method();
        String path = call.path();
        try {
            if (path.equals("/api/login") && method.equals("POST")) {
                users.login(call);
                return;
            }
            Sessions.Session session = call.session();
            if (session == null) {
                throw new ApiError(401, "log in first", null);
            }
            boolean change = !method.equals("GET") && !method.equals("HEAD");
            if (change) {
                String csrf = call.request().getHeaders().get(CSRF_HEADER);
                if (csrf == null || !MessageDigest.isEqual(csrf.getBytes(StandardCharsets.UTF_8),
                        session.csrf().getBytes(StandardCharsets.UTF_8))) {
                    throw new ApiError(403, "missing or wrong " + CSRF_HEADER + " header", null);
                }
            }
            switch (method + " " + path) {
                case "POST /api/logout" -> users.logout(call);
                case "GET /api/me" -> call.ok(Map.of("user", session.user(), "role", session.role().text(), "csrf", session.csrf()));
                case "PUT /api/me/password" -> users.changeOwnPassword(call);
                case "GET /api/users" -> users.list(call);
                case "GET /api/customers" -> customers.list(call);
                case "GET /api/classes" -> call.ok(config.classes());
                case "GET /api/servers" -> call.ok(config.servers());
                case "GET /api/classification" -> call.ok(config.classification());
                case "GET /api/controller" -> call.ok(config.controller());
                case "POST /api/classify" -> call.ok(config.classify(call.json()));
                case "GET /api/state" -> call.ok(stateView());
                case "GET /api/history" -> call.ok(history(call));
                case "GET /api/audit" -> call.ok(audit.recent((int) Api.longParam(call.request(), "limit", 100, 1, 1000)));
                case "GET /api/events" -> events(call.request(), call.response(), call.callback());
                case "GET /api/sla", "GET /api/sla/hours" -> sla.get(call);
                default -> {
                    if (!change) {
                        throw new ApiError(404, "no such API: " + method + " " + path, null);
                    }
                    Api.requireAdmin(session);
                    if (path.equals("/api/users") || path.startsWith("/api/users/")) {
                        users.edit(call);
                    } else if (CustomersApi.handles(path)) {
                        customers.change(call);
                    } else if (ControlApi.handles(method, path)) {
                        control.change(call);
                    } else if (ConfigApi.handles(path)) {
                        config.change(call);
                    } else {
                        throw new ApiError(404, "no such API: " + method + " " + path, null);
                    }
                }
            }
        } catch (ApiError e) {
            Api.error(call.response(), call.callback(), e.status, e.getMessage(), e.field);
        }
    }

    private Object history(Call call) {
        long seconds = Api.longParam(call.request(), "seconds", 300, 1, 86_400);
        return state.history(System.currentTimeMillis() - seconds * 1000);
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
                    request.getComponents().getScheduler().schedule(this, 15, TimeUnit.SECONDS);
                }
            }
        }, 15, TimeUnit.SECONDS);
    }

    private static String cookie(Request request) {
        for (HttpCookie c : Request.getCookies(request)) {
            if (COOKIE.equals(c.getName())) {
                return c.getValue();
            }
        }
        return null;
    }
}
