package io.slagate.gateway.proxy;

import io.slagate.config.AccessLogSettings;
import io.slagate.gateway.sched.ServerSlots;
import io.slagate.gateway.soap.FaultReason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
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
    public final boolean startTrace;
    private final AccessLogWriter writer;

    public AccessLog(AccessLogSettings settings, AccessLogWriter writer) {
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
        String trace = ex.startedTrace != null ? ex.startedTrace : traceparent(ex.request.getHeaders());
        write(ex.request, ex.response, ex.customer(), ex.className(), ex.operation, s == null ? null : s.id(), reason,
                admitted == 0 ? nowNanos - enqueued : admitted - enqueued, admitted == 0 ? -1 : nowNanos - admitted,
                nowNanos - enqueued, bytesIn, traceId(trace));
    }

    /** A request refused before it became an exchange (a method, a header or a size the gateway does not take). */
    public void refused(Request request, Response response, String customer, String className, String operation, FaultReason reason) {
        write(request, response, customer, className, operation, null, reason, 0, -1, 0, request.getLength(),
                traceId(traceparent(request.getHeaders())));
    }

    /** The request's {@code traceparent}, found by its length first (a lookup by name compares every header's). */
    public static String traceparent(HttpFields headers) {
        for (HttpField f : headers) {
            String name = f.getName();
            if (name.length() == TRACEPARENT.length() && name.equalsIgnoreCase(TRACEPARENT)) {
                return f.getValue();
            }
        }
        return null;
    }

    private void write(Request request, Response response, String customer, String className, String operation, String server,
                       FaultReason reason, long queueNanos, long serviceNanos, long totalNanos, long bytesIn, String traceId) {
        long bytesOut = response.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
        StringBuilder b = new StringBuilder(360);
        if (format == null) {
            b.append("{\"time\":\"");
            time(b);
            b.append('"');
            text(b, ",\"client\":", Request.getRemoteAddr(request));
            text(b, ",\"customer\":", customer);
            text(b, ",\"class\":", className);
            text(b, ",\"service\":", request.getHttpURI().getPath());
            text(b, ",\"operation\":", operation);
            text(b, ",\"server\":", server);
            b.append(",\"status\":").append(response.getStatus());
            text(b, ",\"fault\":", reason == null ? null : reason.code());
            millis(b.append(",\"queue_ms\":"), queueNanos);
            millis(b.append(",\"service_ms\":"), serviceNanos);
            millis(b.append(",\"total_ms\":"), totalNanos);
            count(b.append(",\"bytes_in\":"), bytesIn);
            count(b.append(",\"bytes_out\":"), bytesOut);
            text(b, ",\"trace_id\":", traceId);
            b.append('}');
        } else {
            Object[] values = {null, Request.getRemoteAddr(request), customer, className, request.getHttpURI().getPath(),
                    operation, server, response.getStatus(), reason == null ? null : reason.code(), queueNanos, serviceNanos,
                    totalNanos, bytesIn, bytesOut, traceId};
            for (Object part : format) {
                if (part instanceof String literal) {
                    b.append(literal);
                    continue;
                }
                int field = (Integer) part;
                Object v = values[field];
                if (field == 0) {
                    time(b);
                } else if (field >= 9 && field <= 11) {
                    millisOrDash(b, (Long) v);
                } else if (field == 12 || field == 13) {
                    long n = (Long) v;
                    if (n < 0) {
                        b.append('-');
                    } else {
                        b.append(n);
                    }
                } else if (v == null) {
                    b.append('-');
                } else {
                    escaped(b, v.toString());
                }
            }
        }
        if (writer != null) {
            writer.line(b.toString());
        }
    }

    /** {@code ,"key":"value"} escaped, or {@code ,"key":null}. */
    private static void text(StringBuilder b, String key, String value) {
        b.append(key);
        if (value == null) {
            b.append("null");
        } else {
            b.append('"');
            escaped(b, value);
            b.append('"');
        }
    }

    private static void count(StringBuilder b, long n) {
        if (n < 0) {
            b.append("null");
        } else {
            b.append(n);
        }
    }

    private static void millis(StringBuilder b, long nanos) {
        if (nanos < 0) {
            b.append("null");
        } else {
            hundredths(b, nanos);
        }
    }

    private static void millisOrDash(StringBuilder b, long nanos) {
        if (nanos < 0) {
            b.append('-');
        } else {
            hundredths(b, nanos);
        }
    }

    /** Milliseconds with two decimals, by integer arithmetic (a double's printing cost more than the rest of the line). */
    private static void hundredths(StringBuilder b, long nanos) {
        long h = (nanos + 5_000) / 10_000;
        b.append(h / 100).append('.');
        long frac = h % 100;
        if (frac < 10) {
            b.append('0');
        }
        b.append(frac);
    }

    /** The time to the millisecond in ISO-8601 UTC; the text up to the second is made once a second. */
    private static void time(StringBuilder b) {
        long now = System.currentTimeMillis();
        long second = now / 1000;
        SecondText cached = lastSecond;
        if (cached.second != second) {
            cached = new SecondText(second, Instant.ofEpochSecond(second).toString().replace("Z", ""));
            lastSecond = cached;
        }
        long ms = now % 1000;
        b.append(cached.text).append('.');
        if (ms < 100) {
            b.append(ms < 10 ? "00" : "0");
        }
        b.append(ms).append('Z');
    }

    private record SecondText(long second, String text) {
    }

    private static volatile SecondText lastSecond = new SecondText(-1, "");

    /** JSON string escaping; control characters as escapes, so a value cannot start a line of its own. */
    private static void escaped(StringBuilder b, String s) {
        int i = 0;
        int n = s.length();
        while (i < n && plain(s.charAt(i))) {
            i++;
        }
        if (i == n) {
            b.append(s); // nearly always: one copy
            return;
        }
        b.append(s, 0, i);
        for (; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (plain(c)) {
                        b.append(c);
                    } else {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    }
                }
            }
        }
    }

    private static boolean plain(char c) {
        if (c < 0x7f) {
            return c >= 0x20 && c != '"' && c != '\\';
        }
        return c > 0x9f && c != '\u2028' && c != '\u2029'; // DEL and the C1 controls (0x9b is a terminal's CSI) escaped
    }
}
