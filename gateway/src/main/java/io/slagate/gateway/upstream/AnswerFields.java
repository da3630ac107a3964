package io.slagate.gateway.upstream;

import io.slagate.gateway.proxy.HopByHop;

import io.slagate.gateway.http1.ResponseHead;
import io.slagate.gateway.http1.SplicedFields;
import java.util.Set;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Response;

/**
 * A server's answer fields carried to the client's answer: the end-to-end ones only (RFC 9110 7.6.1: not the fixed
 * hop-by-hop set, not what {@code Connection} names), the framing left to the client's listener. An answer that takes
 * field lines as they came ({@link SplicedFields}, the relay listener's) gets them as bytes, runs of lines at a time,
 * with only {@code Content-Length} made a field (the listener frames by it, the access log reads it); otherwise each
 * end-to-end field becomes a Jetty field. Names are compared on the bytes: no field is made for a line that stays. Lines are spliced only when nothing needs them as fields: no {@code Connection} naming
 * more fields, no working-set header to read.
 */
final class AnswerFields {
    private AnswerFields() {
    }

    /**
     * Carries {@code h}'s fields to {@code p2c}.
     *
     * @param bodiless      a 204 or 304, whose framing fields are dropped
     * @param readsFields   the gateway reads a server field after this (a working-set header)
     * @return whether a bodiless answer announced a body (the server's protocol error: its bytes are left over)
     */
    static boolean carry(ResponseHead h, Response p2c, boolean bodiless, boolean readsFields) {
        if (p2c instanceof SplicedFields spliced && !readsFields && !h.connectionNamesFields()) {
            return splice(h, spliced, p2c.getHeaders(), bodiless);
        }
        HttpFields.Mutable out = p2c.getHeaders();
        Set<String> connectionListed = null;
        boolean announced = false;
        for (int f = 0; f < h.fieldCount(); f++) {
            if (h.named(f, "connection")) {
                connectionListed = HopByHop.listed(h.value(f), connectionListed);
            } else if (bodiless && (h.named(f, "content-length") || h.named(f, "transfer-encoding"))) {
                announced = true;
            } else if (!fixed(h, f)) {
                out.add(h.httpField(f));
            }
        }
        if (connectionListed != null) {
            // the server named more hop-by-hop headers in Connection (rare): they stay on this hop
            for (String name : connectionListed) {
                out.remove(name);
            }
        }
        return announced;
    }

    private static boolean splice(ResponseHead h, SplicedFields spliced, HttpFields.Mutable out, boolean bodiless) {
        boolean announced = false;
        int run = -1; // where the run of lines to splice starts, or −1
        for (int f = 0; f < h.fieldCount(); f++) {
            boolean length = h.named(f, "content-length");
            boolean hopByHop = !length && fixed(h, f);
            if (!length && !hopByHop) {
                if (run < 0) {
                    run = h.lineStart(f);
                }
                continue;
            }
            if (run >= 0) {
                spliced.splice(h.buffer(), run, h.lineStart(f));
                run = -1;
            }
            if (bodiless && (length || h.named(f, "transfer-encoding"))) {
                announced = true;
            } else if (length) {
                out.add(new LengthField(h.contentLength()));
            }
        }
        if (run >= 0) {
            spliced.splice(h.buffer(), run, h.lineEnd(h.fieldCount() - 1));
        }
        return announced;
    }

    private static boolean fixed(ResponseHead h, int f) {
        for (String name : HopByHop.FIXED_NAMES) {
            if (h.named(f, name)) {
                return true;
            }
        }
        return false;
    }
}
