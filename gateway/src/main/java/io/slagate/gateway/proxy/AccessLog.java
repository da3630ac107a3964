package io.slagate.gateway.proxy;

import io.slagate.config.AccessLogSettings;
import io.slagate.gateway.sched.ServerSlots;
import io.slagate.gateway.soap.FaultReason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * One line per finished request (answered, faulted or abandoned by its client), handed to the
 * {@link AccessLogWriter}, which writes on a thread of its own: the request path only builds the line. Every value that came from a client or a server is escaped (control
 * characters as {@code \n}, {@code \u001b}), so a line is one line whatever the request held.
 */
public final class AccessLog {
    private static final Pattern FIELD = Pattern.compile("%\\{([^}]*)\\}");
    private static final String TRACEPARENT = "traceparent";

    /** JSON when null; else the format's literal text and field indexes, alternating. */
    private final Object[] format;
    final boolean startTrace;
    private final AccessLogWriter writer;

    AccessLog(AccessLogSettings settings, AccessLogWriter writer) {
        this.writer = writer;
        this.format = settings.format().equals("json") ? null : compile(settings.format());
        this.startTrace = settings.startTrace();
    }

    private static Object[] compile(String format) {
        List<Object> parts = new ArrayList<>();
        List<String> fields = List.of(AccessLogSettings.FIELDS);
        Matcher m = FIELD.matcher(format);
        int at = 0;
        while (m.find()) {
            parts.add(format.substring(at, m.start()));
            parts.add(fields.indexOf(m.group(1)));
            at = m.end();
        }
        parts.add(format.substring(at));
        return parts.toArray();
    }

    /** A W3C trace context started here: version 00, a random trace id and parent id, sampled. */
    static String startTrace() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        StringBuilder b = new StringBuilder(55).append("00-");
        hex(b, r.nextLong() | 1L); // an all-zero trace id is invalid
        hex(b, r.nextLong());
        b.append('-');
        hex(b, r.nextLong() | 1L);
        return b.append("-01").toString();
    }

    private static void hex(StringBuilder b, long v) {
        for (int shift = 60; shift >= 0; shift -= 4) {
            b.append(Character.forDigit((int) (v >>> shift) & 0xf, 16));
        }
    }

    /** The trace id of a {@code traceparent} value (version 00 layout), or null when it has none. */
    static String traceId(String traceparent) {
        return traceparent != null && traceparent.length() >= 35 && traceparent.charAt(2) == '-' ? traceparent.substring(3, 35) : null;
    }

    /** An exchange that ended; {@code reason} null when the server's answer was relayed. */
    void finished(GatewayExchange ex, FaultReason reason, long nowNanos) {
        long admitted = ex.admittedNanos();
        long enqueued = ex.enqueuedNanos();
        ServerSlots s = ex.server();
        long bytesIn = ex.request.getLength();
        if (bytesIn < 0 && ex.body != null) {
            bytesIn = ex.body.size();
        }
        String trace = ex.startedTrace != null ? ex.startedTrace : ex.request.getHeaders().get(TRACEPARENT);
        write(ex.request, ex.response, ex.customer(), ex.className(), ex.operation, s == null ? null : s.id(), reason,
                admitted == 0 ? nowNanos - enqueued : admitted - enqueued, admitted == 0 ? -1 : nowNanos - admitted,
                nowNanos - enqueued, bytesIn, traceId(trace));
    }

    /** A request refused before it became an exchange (a method, a header or a size the gateway does not take). */
    void refused(Request request, Response response, String customer, String className, String operation, FaultReason reason) {
        write(request, response, customer, className, operation, null, reason, 0, -1, 0, request.getLength(),
                traceId(request.getHeaders().get(TRACEPARENT)));
    }

    private void write(Request request, Response response, String customer, String className, String operation, String server,
                       FaultReason reason, long queueNanos, long serviceNanos, long totalNanos, long bytesIn, String traceId) {
        Object[] values = {Instant.now(), Request.getRemoteAddr(request), customer, className, request.getHttpURI().getPath(),
                operation, server, response.getStatus(), reason == null ? null : reason.code(), millis(queueNanos),
                millis(serviceNanos), millis(totalNanos), bytesIn < 0 ? null : bytesIn,
                nonNegative(response.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH)), traceId};
        StringBuilder b = new StringBuilder(320);
        if (format == null) {
            json(b, values);
        } else {
            for (Object part : format) {
                if (part instanceof String literal) {
                    b.append(literal);
                } else {
                    Object v = values[(Integer) part];
                    if (v == null) {
                        b.append('-');
                    } else {
                        escaped(b, v.toString());
                    }
                }
            }
        }
        if (writer != null) {
            writer.line(b.toString());
        }
    }

    private static void json(StringBuilder b, Object[] values) {
        b.append('{');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append('"').append(AccessLogSettings.FIELDS[i]).append("\":");
            Object v = values[i];
            if (v == null || v instanceof Number) {
                b.append(v);
            } else {
                b.append('"');
                escaped(b, v.toString());
                b.append('"');
            }
        }
        b.append('}');
    }

    /** JSON string escaping; control characters as escapes, so a value cannot start a line of its own. */
    private static void escaped(StringBuilder b, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
    }

    private static Double millis(long nanos) {
        return nanos < 0 ? null : Math.round(nanos / 1e4) / 100.0;
    }

    private static Long nonNegative(long v) {
        return v < 0 ? null : v;
    }
}
