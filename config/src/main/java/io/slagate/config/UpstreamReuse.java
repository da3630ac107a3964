package io.slagate.config;


/**
 * Which requests may share a gateway→server connection. HTTP/1.1 does not tie an answer to its
 * request, so a server that writes an answer nobody asked for on a shared connection hands it to the
 * next request on that connection: sharing decides whose request that can be.
 */
public enum UpstreamReuse {
    /** Any request of the server's pool (fewest connections; a stray answer may reach any client once). */
    SHARED,
    /** Requests of one customer only (anonymous requests form one group): a stray answer stays with its customer. */
    CUSTOMER,
    /** Requests of one client connection only, closed with it (HAProxy's {@code http-reuse never}). */
    CLIENT_CONNECTION;

    public static UpstreamReuse parse(String s) {
        return switch (s) {
            case "shared" -> SHARED;
            case "customer" -> CUSTOMER;
            case "client-connection" -> CLIENT_CONNECTION;
            default -> null;
        };
    }

    public String text() {
        return name().toLowerCase().replace('_', '-');
    }
}
