package io.slagate.gateway.proxy;

import io.slagate.gateway.auth.ClientAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Request;

/**
 * The forwarding headers a server needs to publish addresses that point at the gateway (WSDL
 * locations, redirects). A client's own {@code Forwarded} and {@code X-Forwarded-*} are believed only
 * when it connected from a trusted proxy ({@code gateway.trustedProxies}, none by default): then the
 * chain is extended and what it said of host, scheme and port kept. From anyone else they are dropped
 * ({@link #isClientForwarding}) and the gateway states its own, so a client cannot make a service
 * publish another host in its WSDL.
 */
public final class Forwarded {
    /** Where a connection keeps its {@link #untrustedLines}. */
    private static final String LINES_ATTRIBUTE = Forwarded.class.getName() + ".lines";

    private final ClientAddress clients;

    Forwarded(ClientAddress clients) {
        this.clients = clients;
    }

    /** Whether the client's forwarding headers are to be believed: it is one of the trusted proxies. */
    public boolean trusts(Request c2p) {
        return clients.trusts(c2p);
    }

    /** {@code Forwarded} or an {@code X-Forwarded-*} header: the client's claim of where the request came from. */
    static boolean isClientForwarding(HttpField f) {
        HttpHeader h = f.getHeader();
        if (h == HttpHeader.FORWARDED || h == HttpHeader.X_FORWARDED_FOR || h == HttpHeader.X_FORWARDED_HOST
                || h == HttpHeader.X_FORWARDED_PROTO || h == HttpHeader.X_FORWARDED_PORT || h == HttpHeader.X_FORWARDED_SERVER) {
            return true;
        }
        return h == null && f.getName().regionMatches(true, 0, "X-Forwarded-", 0, 12);
    }

    /**
     * The {@code X-Forwarded-For}, {@code -Proto} and {@code -Port} lines {@link #put} writes for a client that is not a
     * trusted proxy, as bytes: the same for every request on a connection, so rendered once per connection and kept in
     * its attributes. {@code X-Forwarded-Host} is the request's own (its Host).
     */
    public static byte[] untrustedLines(Request c2p) {
        ConnectionMetaData connection = c2p.getConnectionMetaData();
        if (connection.getAttribute(LINES_ATTRIBUTE) instanceof byte[] lines) {
            return lines;
        }
        byte[] lines = ("X-Forwarded-For: " + Request.getRemoteAddr(c2p) + "\r\nX-Forwarded-Proto: " + scheme(c2p)
                + "\r\nX-Forwarded-Port: " + Request.getLocalPort(c2p) + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        connection.setAttribute(LINES_ATTRIBUTE, lines);
        return lines;
    }

    private static String scheme(Request c2p) {
        return c2p.isSecure() ? "https" : "http";
    }

    /**
     * Writes the forwarding headers. {@code trusted}: the client is a proxy whose headers were copied
     * (all but X-Forwarded-For, which is extended here); otherwise none of its headers were copied.
     * {@code host} is the Host the request is sent with.
     */
    public static void put(Request c2p, HttpFields c2pHeaders, boolean trusted, String host, BiConsumer<String, String> out) {
        String remote = Request.getRemoteAddr(c2p);
        String prior = trusted ? c2pHeaders.get(HttpHeader.X_FORWARDED_FOR) : null;
        out.accept("X-Forwarded-For", prior == null ? remote : prior + ", " + remote);
        if (!trusted || !c2pHeaders.contains(HttpHeader.X_FORWARDED_HOST)) {
            out.accept("X-Forwarded-Host", host);
        }
        if (!trusted || !c2pHeaders.contains(HttpHeader.X_FORWARDED_PROTO)) {
            out.accept("X-Forwarded-Proto", scheme(c2p));
        }
        if (!trusted || !c2pHeaders.contains(HttpHeader.X_FORWARDED_PORT)) {
            out.accept("X-Forwarded-Port", String.valueOf(Request.getLocalPort(c2p)));
        }
    }

    /**
     * The Host a request is forwarded with: the client's, or, for a request without one (HTTP/1.0),
     * the gateway's own address as the client reached it — never the server's, which would make the
     * server publish its own address.
     */
    public static String host(Request c2p, HttpFields c2pHeaders) {
        String host = c2pHeaders.get(HttpHeader.HOST);
        if (host != null && !host.isEmpty()) {
            return host;
        }
        String local = Request.getLocalAddr(c2p);
        if (local.indexOf(':') >= 0) {
            local = "[" + local + "]";
        }
        return local + ":" + Request.getLocalPort(c2p);
    }
}
