package io.slagate.console;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/** What every resource of the console's JSON API shares: reading and checking input, answering, refusing. */
final class Api {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern GATEWAY_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    private Api() {
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

    /** One API call: the request, its response, its session (null before login) and its body. */
    record Call(Request request, Response response, Callback callback, String method, String path, Sessions.Session session,
                String body) {
        JsonNode json() {
            return Api.json(request, body);
        }

        String address() {
            return Api.address(request);
        }

        void ok(Object view) {
            Api.ok(response, callback, view);
        }
    }

    static JsonNode json(Request request, String body) {
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

    static String text(JsonNode in, String field) {
        JsonNode n = in.get(field);
        if (n == null || !n.isTextual() || n.asText().isBlank()) {
            throw new ApiError(400, field + " is required", field);
        }
        if (n.asText().length() > 200) {
            throw new ApiError(400, field + " is longer than 200 characters", field);
        }
        return n.asText();
    }

    static double positive(JsonNode in, String field) {
        JsonNode n = in.get(field);
        if (n == null || !n.isNumber() || !(n.asDouble() > 0) || Double.isInfinite(n.asDouble())) {
            throw new ApiError(400, field + " must be a number > 0", field);
        }
        return n.asDouble();
    }

    static double expiry(JsonNode in) {
        JsonNode n = in.get("expiresInSeconds");
        if (n == null || n.isNull()) {
            return 0;
        }
        if (!n.isNumber() || n.asDouble() < 0) {
            throw new ApiError(400, "expiresInSeconds must be a number ≥ 0 (0 or absent: until unpinned)", "expiresInSeconds");
        }
        return n.asDouble();
    }

    /** A gateway id as gateway.id allows it (it is stored, published and shown): anything else is refused. */
    static String gatewayId(String id) {
        if (id == null || !GATEWAY_ID.matcher(id).matches()) {
            throw new ApiError(400, "gateway must be a gateway id: 1-64 letters, digits, '.', '_' or '-'", "gateway");
        }
        return id;
    }

    static String required(Fields q, String name) {
        String v = q.getValue(name);
        if (v == null || v.isBlank()) {
            throw new ApiError(400, "query parameter " + name + " is required", name);
        }
        return v;
    }

    static long longParam(Request request, String name, long def, long min, long max) {
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

    static void requireAdmin(Sessions.Session s) {
        if (s.role() != Role.ADMIN) {
            throw new ApiError(403, "this change needs the admin role; " + s.user() + " is " + s.role().text(), null);
        }
    }

    static String address(Request request) {
        SocketAddress a = request.getConnectionMetaData().getRemoteSocketAddress();
        return a instanceof InetSocketAddress i ? i.getAddress().getHostAddress() : String.valueOf(a);
    }

    static void ok(Response response, Callback callback, Object body) {
        send(response, callback, 200, body);
    }

    static void error(Response response, Callback callback, int status, String message, String field) {
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
