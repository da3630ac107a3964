package io.slagate.gateway.auth;

import io.slagate.config.Cidr;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * Who a client is, for what is kept per client (failed attempts): its address as the trusted proxy chain tells it
 * ({@code gateway.trustedProxies}, the same rule the forwarding headers follow). From a trusted proxy, the
 * {@code X-Forwarded-For} chain is read from the right, past every trusted proxy, and the first address the
 * trusted part did not vouch for is the client: what a client writes itself at the left cannot choose it. From
 * anyone else, the connection's own address. An IPv6 client is its /64, which one host is usually given whole.
 */
public final class ClientAddress {
    /** Entries of a chain looked at, from the right; a longer chain stops there. */
    static final int MAX_HOPS = 32;
    private static final int MAX_ENTRY = 64;

    private final Cidr[] trusted;

    public ClientAddress(List<String> trustedProxies) {
        this.trusted = trustedProxies.stream().map(Cidr::parse).toArray(Cidr[]::new);
    }

    /** Whether the request came straight from one of the trusted proxies. */
    public boolean trusts(Request request) {
        if (trusted.length == 0) {
            return false;
        }
        SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
        return remote instanceof InetSocketAddress inet && inet.getAddress() != null && trusts(inet.getAddress());
    }

    private boolean trusts(InetAddress a) {
        for (Cidr c : trusted) {
            if (c.contains(a)) {
                return true;
            }
        }
        return false;
    }

    /** The client's key: its address (an IPv6 one as its /64), or, for an entry a trusted proxy wrote that is no address, that entry. */
    public String of(Request request) {
        SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
        InetAddress peer = remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
        if (peer == null) {
            return String.valueOf(remote);
        }
        if (!trusts(peer)) {
            return key(peer);
        }
        String chain = chain(request);
        if (chain == null) {
            return key(peer);
        }
        String leftmost = null;
        int end = chain.length();
        for (int hops = 0; end > 0 && hops < MAX_HOPS; hops++) {
            int comma = chain.lastIndexOf(',', end - 1);
            String entry = chain.substring(comma + 1, end).trim();
            end = comma < 0 ? 0 : comma;
            if (entry.isEmpty()) {
                continue;
            }
            InetAddress a = Cidr.literal(withoutPort(entry));
            if (a == null) {
                return "unknown:" + (entry.length() > MAX_ENTRY ? entry.substring(0, MAX_ENTRY) : entry);
            }
            if (!trusts(a)) {
                return key(a);
            }
            leftmost = key(a);
        }
        return leftmost != null ? leftmost : key(peer); // every hop a trusted proxy: the first of them
    }

    /** Every {@code X-Forwarded-For} line in order, as one list; null when there is none. */
    private static String chain(Request request) {
        String first = null;
        StringBuilder all = null;
        for (HttpField f : request.getHeaders()) {
            if (f.getHeader() == HttpHeader.X_FORWARDED_FOR) {
                if (first == null) {
                    first = f.getValue();
                } else {
                    all = (all == null ? new StringBuilder(first) : all).append(',').append(f.getValue());
                }
            }
        }
        return all != null ? all.toString() : first;
    }

    /** {@code 192.0.2.7:4711} and {@code [2001:db8::1]:4711} without the port; anything else as it is. */
    static String withoutPort(String entry) {
        if (entry.startsWith("[")) {
            int close = entry.indexOf(']');
            return close < 0 ? entry : entry.substring(0, close + 1);
        }
        int colon = entry.indexOf(':');
        return colon > 0 && entry.indexOf(':', colon + 1) < 0 ? entry.substring(0, colon) : entry;
    }

    static String key(InetAddress a) {
        if (a instanceof Inet6Address) {
            byte[] b = a.getAddress();
            StringBuilder s = new StringBuilder(24);
            for (int i = 0; i < 8; i += 2) {
                s.append(Integer.toHexString((b[i] & 0xff) << 8 | b[i + 1] & 0xff)).append(':');
            }
            return s.append(":/64").toString();
        }
        return a.getHostAddress();
    }
}
