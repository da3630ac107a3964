package io.slagate.gateway.trace;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The OTLP/HTTP JSON encoding of an export request ({@code ExportTraceServiceRequest}): ids as lowercase hex,
 * 64-bit times as decimal strings, enums as their numbers, as the OTLP specification's JSON mapping has them.
 * Strings from clients (customer, path, operation) are escaped by the generator.
 */
final class OtlpJson {
    static final int KIND_INTERNAL = 1;
    static final int KIND_SERVER = 2;
    static final int KIND_CLIENT = 3;
    static final int STATUS_ERROR = 2;

    private OtlpJson() {
    }

    static byte[] encode(List<FinishedRequest> batch, String serviceName, String gatewayId, long epochOffsetNanos, JsonFactory json) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512 * batch.size() + 256);
        try (JsonGenerator g = json.createGenerator(out)) {
            g.writeStartObject();
            g.writeArrayFieldStart("resourceSpans");
            g.writeStartObject();
            g.writeObjectFieldStart("resource");
            g.writeArrayFieldStart("attributes");
            attribute(g, "service.name", serviceName);
            attribute(g, "service.instance.id", gatewayId);
            g.writeEndArray();
            g.writeEndObject();
            g.writeArrayFieldStart("scopeSpans");
            g.writeStartObject();
            g.writeObjectFieldStart("scope");
            g.writeStringField("name", "io.slagate.gateway");
            g.writeEndObject();
            g.writeArrayFieldStart("spans");
            for (FinishedRequest r : batch) {
                spans(g, r, epochOffsetNanos);
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return out.toByteArray();
    }

    /** The gateway's span, and its queue wait and server call as children (the call only if it had a slot). */
    private static void spans(JsonGenerator g, FinishedRequest r, long offset) throws IOException {
        RequestSpan s = r.span();
        boolean error = r.fault() != null || r.status() >= 500;
        long admitted = r.admittedNanos() == 0 ? r.endNanos() : r.admittedNanos();
        start(g, s, s.spanId, s.parentId, r.method() + " " + r.path(), KIND_SERVER, r.arrivedNanos() + offset, r.endNanos() + offset);
        g.writeArrayFieldStart("attributes");
        attribute(g, "http.request.method", r.method());
        attribute(g, "url.path", r.path());
        g.writeStartObject();
        g.writeStringField("key", "http.response.status_code");
        g.writeObjectFieldStart("value");
        g.writeStringField("intValue", Integer.toString(r.status()));
        g.writeEndObject();
        g.writeEndObject();
        attribute(g, "slagate.class", r.className());
        attribute(g, "slagate.customer", r.customer());
        attribute(g, "slagate.operation", r.operation());
        attribute(g, "slagate.fault", r.fault());
        g.writeEndArray();
        end(g, error, r.fault());

        start(g, s, s.queueSpanId, s.spanId, "queue " + r.className(), KIND_INTERNAL, r.arrivedNanos() + offset, admitted + offset);
        g.writeArrayFieldStart("attributes");
        attribute(g, "slagate.class", r.className());
        g.writeEndArray();
        end(g, r.admittedNanos() == 0, r.admittedNanos() == 0 ? r.fault() : null);

        if (r.admittedNanos() != 0) {
            start(g, s, s.upstreamSpanId, s.spanId, r.method() + " " + r.server(), KIND_CLIENT, admitted + offset, r.endNanos() + offset);
            g.writeArrayFieldStart("attributes");
            attribute(g, "http.request.method", r.method());
            attribute(g, "slagate.server", r.server());
            g.writeEndArray();
            end(g, error, r.fault());
        }
    }

    private static void start(JsonGenerator g, RequestSpan s, long id, long parent, String name, int kind, long startEpoch, long endEpoch)
            throws IOException {
        g.writeStartObject();
        g.writeStringField("traceId", s.traceId());
        g.writeStringField("spanId", hex(id));
        if (parent != 0) {
            g.writeStringField("parentSpanId", hex(parent));
        }
        g.writeStringField("name", name);
        g.writeNumberField("kind", kind);
        g.writeStringField("startTimeUnixNano", Long.toUnsignedString(startEpoch));
        g.writeStringField("endTimeUnixNano", Long.toUnsignedString(Math.max(startEpoch, endEpoch)));
    }

    private static void end(JsonGenerator g, boolean error, String message) throws IOException {
        if (error) {
            g.writeObjectFieldStart("status");
            g.writeNumberField("code", STATUS_ERROR);
            if (message != null) {
                g.writeStringField("message", message);
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static String hex(long v) {
        StringBuilder b = new StringBuilder(16);
        TraceParent.hex(b, v);
        return b.toString();
    }

    /** A string attribute; none when the value is null. */
    private static void attribute(JsonGenerator g, String key, String value) throws IOException {
        if (value == null) {
            return;
        }
        g.writeStartObject();
        g.writeStringField("key", key);
        g.writeObjectFieldStart("value");
        g.writeStringField("stringValue", value);
        g.writeEndObject();
        g.writeEndObject();
    }
}
