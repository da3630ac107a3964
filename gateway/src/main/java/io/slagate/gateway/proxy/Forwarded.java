package io.slagate.gateway.proxy;

import java.util.function.BiConsumer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * The {@code X-Forwarded-*} headers a server needs to publish addresses that point at the gateway
 * (WSDL locations, redirects): the client's address appended to any chain it came with, and the
 * host, scheme and port the client used unless a proxy before us already said them.
 */
final class Forwarded {
    private Forwarded() {
    }

    static void put(Request c2p, HttpFields c2pHeaders, BiConsumer<String, String> out) {
        String remote = Request.getRemoteAddr(c2p);
        String prior = c2pHeaders.get("X-Forwarded-For");
        out.accept("X-Forwarded-For", prior == null ? remote : prior + ", " + remote);
        String host = c2pHeaders.get(HttpHeader.HOST);
        if (host != null && !c2pHeaders.contains("X-Forwarded-Host")) {
            out.accept("X-Forwarded-Host", host);
        }
        if (!c2pHeaders.contains("X-Forwarded-Proto")) {
            out.accept("X-Forwarded-Proto", c2p.isSecure() ? "https" : "http");
        }
        if (!c2pHeaders.contains("X-Forwarded-Port")) {
            out.accept("X-Forwarded-Port", String.valueOf(Request.getLocalPort(c2p)));
        }
    }
}
