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
public final class HopByHop {
    private static final EnumSet<HttpHeader> FIXED = EnumSet.of(HttpHeader.CONNECTION, HttpHeader.KEEP_ALIVE,
            HttpHeader.PROXY_CONNECTION, HttpHeader.PROXY_AUTHENTICATE, HttpHeader.PROXY_AUTHORIZATION, HttpHeader.TE,
            HttpHeader.TRAILER, HttpHeader.TRANSFER_ENCODING, HttpHeader.UPGRADE, HttpHeader.HTTP2_SETTINGS);

    /** The fixed set's names in lower case, for reading a server's field lines without field objects. */
    public static final String[] FIXED_NAMES = FIXED.stream().map(HttpHeader::lowerCaseName).toArray(String[]::new);

    private HopByHop() {
    }

    /** The lower-case names listed in {@code Connection} beyond the fixed set, or null when it lists none. */
    public static Set<String> connectionListed(HttpFields headers) {
        Set<String> names = null;
        for (HttpField f : headers) {
            if (f.getHeader() == HttpHeader.CONNECTION) {
                names = listed(f.getValue(), names);
            }
        }
        return names;
    }

    /** Adds the names a {@code Connection} value lists beyond the fixed set to {@code names} (created when needed). */
    public static Set<String> listed(String connectionValue, Set<String> names) {
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
     * framing (the body's length is the proxy's to state), not {@code Host} (written by the sender),
     * not {@code Expect} (100-continue was answered on the client's leg), not {@code X-Forwarded-For}
     * (extended by {@link Forwarded}), no forwarding header at all unless the client is a trusted proxy,
     * and no name that some servers would read as one of those ({@link #isDisguised}).
     */
    public static boolean copiedUpstream(HttpField field, Set<String> connectionListed, boolean trustForwarding) {
        HttpHeader known = field.getHeader();
        if (known == null) {
            if (isDisguised(field)) {
                return false;
            }
        } else if (known == HttpHeader.CONTENT_LENGTH || known == HttpHeader.EXPECT || known == HttpHeader.HOST
                || known == HttpHeader.X_FORWARDED_FOR) {
            return false;
        }
        if (!trustForwarding && Forwarded.isClientForwarding(field)) {
            return false;
        }
        return !isHopByHop(field, connectionListed);
    }

    /**
     * A header name with an underscore that reads as a framing, hop-by-hop or forwarding header once
     * '_' is taken for '-' ({@code Transfer_Encoding}, {@code Content_Length}, {@code X_Forwarded_Host}):
     * servers behind CGI-style adapters do that, so such a header could frame or route a request
     * differently at the server than at the gateway.
     */
    public static boolean isDisguised(HttpField field) {
        String name = field.getName();
        if (name.indexOf('_') < 0) {
            return false;
        }
        HttpHeader as = HttpHeader.CACHE.get(name.replace('_', '-'));
        if (as == null) {
            return name.regionMatches(true, 0, "X_Forwarded", 0, 11) || name.regionMatches(true, 0, "X-Forwarded_", 0, 12);
        }
        return FIXED.contains(as) || as == HttpHeader.CONTENT_LENGTH || as == HttpHeader.HOST || as == HttpHeader.EXPECT
                || as == HttpHeader.FORWARDED || as.name().startsWith("X_FORWARDED");
    }

    public static boolean isHopByHop(HttpField field, Set<String> connectionListed) {
        HttpHeader known = field.getHeader();
        if (known != null && FIXED.contains(known)) {
            return true;
        }
        return connectionListed != null && connectionListed.contains(field.getLowerCaseName());
    }
}
