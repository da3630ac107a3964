package io.slagate.gateway.proxy;

import java.util.HashSet;
import java.util.List;
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
 */
final class HopByHop {
    private static final Set<String> FIXED = Set.of("connection", "keep-alive", "proxy-connection", "proxy-authenticate",
            "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "http2-settings");

    private HopByHop() {
    }

    /** The lower-case names listed in {@code Connection}, or null when it lists none. */
    static Set<String> connectionListed(HttpFields headers) {
        List<String> values = headers.getValuesList(HttpHeader.CONNECTION);
        if (values.isEmpty()) {
            return null;
        }
        Set<String> names = new HashSet<>();
        for (String v : values) {
            for (String name : v.split(",")) {
                String n = name.trim().toLowerCase(Locale.ROOT);
                if (!n.isEmpty()) {
                    names.add(n);
                }
            }
        }
        return names;
    }

    static boolean isHopByHop(HttpField field, Set<String> connectionListed) {
        String name = field.getLowerCaseName();
        return FIXED.contains(name) || (connectionListed != null && connectionListed.contains(name));
    }
}
