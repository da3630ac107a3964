package io.slagate.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Request;
import org.junit.jupiter.api.Test;

/** The client's key as the trusted proxy chain tells it, read from the right. */
class ClientAddressTest {
    private static final ClientAddress BEHIND_LB = new ClientAddress(List.of("10.0.0.0/8", "192.0.2.1"));

    /** A request from {@code peer} with these X-Forwarded-For lines: only what ClientAddress reads of a request. */
    private static Request request(String peer, String... forwardedFor) throws Exception {
        HttpFields.Mutable h = HttpFields.build();
        for (String f : forwardedFor) {
            h.add("X-Forwarded-For", f);
        }
        InetSocketAddress remote = new InetSocketAddress(InetAddress.getByName(peer), 4711);
        ConnectionMetaData meta = (ConnectionMetaData) java.lang.reflect.Proxy.newProxyInstance(ClientAddressTest.class.getClassLoader(),
                new Class<?>[] {ConnectionMetaData.class}, (p, m, a) -> m.getName().equals("getRemoteSocketAddress") ? remote : null);
        return (Request) java.lang.reflect.Proxy.newProxyInstance(ClientAddressTest.class.getClassLoader(), new Class<?>[] {Request.class},
                (p, m, a) -> switch (m.getName()) {
                    case "getHeaders" -> h;
                    case "getConnectionMetaData" -> meta;
                    default -> null;
                });
    }

    @Test
    void fromAnUntrustedPeer_theChainIsIgnored() throws Exception {
        assertEquals("203.0.113.5", BEHIND_LB.of(request("203.0.113.5", "198.51.100.7")));
        assertEquals("203.0.113.5", new ClientAddress(List.of()).of(request("203.0.113.5", "198.51.100.7")));
    }

    @Test
    void fromATrustedProxy_theFirstUntrustedEntryFromTheRight_isTheClient() throws Exception {
        assertEquals("198.51.100.7", BEHIND_LB.of(request("10.1.2.3", "198.51.100.7")));
        assertEquals("198.51.100.7", BEHIND_LB.of(request("10.1.2.3", "6.6.6.6, 198.51.100.7, 10.9.9.9")),
                "what the client wrote at the left is passed over; the trusted hops at the right are skipped");
        assertEquals("198.51.100.7", BEHIND_LB.of(request("10.1.2.3", "6.6.6.6", "198.51.100.7, 192.0.2.1")), "several lines, in order");
        assertEquals("198.51.100.7", BEHIND_LB.of(request("10.1.2.3", "198.51.100.7:5555")), "a port written after the address");
        assertEquals("10.1.2.3", BEHIND_LB.of(request("10.1.2.3")), "no chain: the proxy itself");
        assertEquals("10.0.0.9", BEHIND_LB.of(request("10.1.2.3", "10.0.0.9, 10.0.0.8")), "every hop trusted: the first of them");
        assertEquals("unknown:not-an-address", BEHIND_LB.of(request("10.1.2.3", "not-an-address")));
    }

    @Test
    void anIpv6Client_isItsSlash64() throws Exception {
        assertEquals("2001:db8:1:2::/64", BEHIND_LB.of(request("10.1.2.3", "[2001:db8:1:2::99]:443")));
        assertEquals("2001:db8:1:2::/64", BEHIND_LB.of(request("2001:db8:1:2:aaaa::1")));
    }
}
