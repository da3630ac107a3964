package io.slagate.console;

import static io.slagate.console.Api.text;
import io.slagate.console.Api.ApiError;
import io.slagate.console.Api.Call;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;
import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;

/** Logging in and out, and the users: list, create, change role or password, delete; every change audited, never a password. */
final class UsersApi {
    static final String COOKIE = "slagate_session";
    static final int MIN_PASSWORD = 12;
    private static final Pattern USER_NAME = Pattern.compile("[A-Za-z0-9._@-]{1,64}");

    private final UserStore users;
    private final Sessions sessions;
    private final LoginThrottle throttle;
    private final AuditLog audit;

    UsersApi(UserStore users, Sessions sessions, LoginThrottle throttle, AuditLog audit) {
        this.users = users;
        this.sessions = sessions;
        this.throttle = throttle;
        this.audit = audit;
    }

    void login(Call call) {
        JsonNode in = call.json();
        String user = text(in, "user");
        String password = text(in, "password");
        String address = call.address();
        long wait = throttle.attempt(user, address); // counted before the check: concurrent guesses cannot race it
        if (wait > 0) {
            call.response().getHeaders().put(HttpHeader.RETRY_AFTER, wait);
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
        Response.addCookie(call.response(), HttpCookie.build(COOKIE, s.token()).path("/").httpOnly(true).secure(call.request().isSecure())
                .sameSite(HttpCookie.SameSite.STRICT).build());
        audit.record(user, "login", role.text(), address);
        call.ok(Map.of("user", user, "role", role.text(), "csrf", s.csrf()));
    }

    void logout(Call call) {
        sessions.remove(call.session().token());
        Response.addCookie(call.response(), HttpCookie.build(COOKIE, "").path("/").maxAge(0).httpOnly(true)
                .sameSite(HttpCookie.SameSite.STRICT).build());
        call.ok(Map.of("loggedOut", true));
    }

    void list(Call call) {
        Api.requireAdmin(call.session());
        call.ok(users.list());
    }

    /** Users: create (POST), change role or password (PUT), delete (DELETE). */
    void edit(Call call) {
        String path = call.path();
        String method = call.method();
        String name = path.equals("/api/users") ? null : URLDecoder.decode(path.substring("/api/users/".length()), StandardCharsets.UTF_8);
        String by = call.session().user();
        try {
            if (method.equals("POST") && name == null) {
                JsonNode in = call.json();
                name = text(in, "user");
                if (!USER_NAME.matcher(name).matches()) {
                    throw new ApiError(400, "a user name is 1 to 64 letters, digits, '.', '_', '@' or '-'", "user");
                }
                if (users.exists(name)) {
                    throw new ApiError(409, "user " + name + " exists; change it instead", "user");
                }
                Role role = role(in);
                users.put(name, role, password(in, "password"));
                audit.record(by, "user-create", name + " " + role.text(), call.address());
            } else if (method.equals("PUT") && name != null) {
                JsonNode in = call.json();
                requireUser(name);
                Role role = in.hasNonNull("role") ? role(in) : null;
                char[] password = in.hasNonNull("password") ? password(in, "password") : null;
                users.update(name, role, password);
                sessions.removeUser(name);
                audit.record(by, "user-update", name + (role == null ? "" : " role " + role.text())
                        + (password == null ? "" : " password"), call.address());
            } else if (method.equals("DELETE") && name != null) {
                requireUser(name);
                users.delete(name);
                sessions.removeUser(name);
                audit.record(by, "user-delete", name, call.address());
            } else {
                throw new ApiError(405, method + " is not allowed on " + path, null);
            }
        } catch (IllegalStateException e) {
            throw new ApiError(409, e.getMessage() + ": keep at least one admin", "role");
        } catch (IOException e) {
            throw new ApiError(500, "the users file could not be written: " + e.getMessage(), null);
        }
        call.ok(users.list());
    }

    void changeOwnPassword(Call call) {
        JsonNode in = call.json();
        String user = call.session().user();
        String current = text(in, "current");
        if (users.authenticate(user, current.toCharArray()) == null) {
            audit.record(user, "password-change-refused", "", call.address());
            throw new ApiError(403, "the current password is wrong", "current");
        }
        try {
            users.update(user, null, password(in, "password"));
        } catch (IOException e) {
            throw new ApiError(500, "the users file could not be written: " + e.getMessage(), null);
        }
        sessions.removeUser(user);
        audit.record(user, "password-change", "", call.address());
        call.ok(Map.of("changed", true, "note", "password changed; log in again"));
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
}
