package io.slagate.gateway.proxy;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;

/**
 * Headers that concern one connection only and must not cross the gateway (RFC 9110 §7.6.1):
 * the fixed set below, plus any header the {@code Connection} header names. {@code Upgrade} and
 * {@code HTTP2-Settings} matter in practice: some SOAP clients send {@code Upgrade: h2c} on every
 * request, which a backend must not see as the gateway's wish.
 *
 * <p>Checked for every header of every request and response, so the common case costs no
 * allocation: the fixed names are all headers Jetty knows (an enum set test; Jetty resolves a known
 * name to its enum whatever its case), and a
 * {@code Connection} header that lists only {@code keep-alive} or {@code close} lists nothing more.
 */
final class HopByHop {
    private static final EnumSet<HttpHeader> FIXED = EnumSet.of(HttpHeader.CONNECTION, HttpHeader.KEEP_ALIVE,
            HttpHeader.PROXY_CONNECTION, HttpHeader.PROXY_AUTHENTICATE, HttpHeader.PROXY_AUTHORIZATION, HttpHeader.TE,
            HttpHeader.TRAILER, HttpHeader.TRANSFER_ENCODING, HttpHeader.UPGRADE, HttpHeader.HTTP2_SETTINGS);

    private HopByHop() {
    }

    /** The lower-case names listed in {@code Connection} beyond the fixed set, or null when it lists none. */
    static Set<String> connectionListed(HttpFields headers) {
        Set<String> names = null;
        for (HttpField f : headers) {
            if (f.getHeader() == HttpHeader.CONNECTION) {
                names = listed(f.getValue(), names);
            }
        }
        return names;
    }

    /** Adds the names a {@code Connection} value lists beyond the fixed set to {@code names} (created when needed). */
    static Set<String> listed(String connectionValue, Set<String> names) {
        for (String name : connectionValue.split(",")) {
            String n = name.trim().toLowerCase(Locale.ROOT);
            if (!n.isEmpty() && !"keep-alive".equals(n) && !"close".equals(n)) {
                if (names == null) {
                    names = new HashSet<>();
                }
                names.add(n);
            }
        }
        return names;
    }

    /**
     * Whether a client's request header is copied to the server as it is: not a hop-by-hop one, not the
     * framing (the body's length is the proxy's to state), not {@code Expect} (100-continue was answered
     * on the client's leg), not {@code X-Forwarded-For} (extended by {@link Forwarded}).
     */
    static boolean copiedUpstream(HttpField field, Set<String> connectionListed) {
        HttpHeader known = field.getHeader();
        return known != HttpHeader.CONTENT_LENGTH && known != HttpHeader.EXPECT && known != HttpHeader.X_FORWARDED_FOR
                && !isHopByHop(field, connectionListed);
    }

    static boolean isHopByHop(HttpField field, Set<String> connectionListed) {
        HttpHeader known = field.getHeader();
        if (known != null && FIXED.contains(known)) {
            return true;
        }
        return connectionListed != null && connectionListed.contains(field.getLowerCaseName());
    }
}
