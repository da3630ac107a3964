package io.slagate.config;


/** A listen address: host (or IP literal) and port. */
public record HostPort(String host, int port) {
    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** Parses {@code host:port}, {@code [v6]:port} or {@code :port} (all interfaces); null if malformed. */
    static HostPort parse(String s) {
        int colon = s.lastIndexOf(':');
        if (colon < 0) {
            return null;
        }
        String host = s.substring(0, colon).trim();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty()) {
            host = "0.0.0.0";
        }
        try {
            int port = Integer.parseInt(s.substring(colon + 1).trim());
            return port >= 0 && port <= 65535 ? new HostPort(host, port) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
