package io.slagate.config;

import java.net.URI;
import java.util.List;

/**
 * One service server s: where it listens, its capacity N_s (the maximum number of requests it
 * executes concurrently) and its pool (servers of one pool have the same services deployed).
 *
 * @param healthPath  path probed after the server was taken out of rotation; any HTTP answer brings it back
 * @param concurrency N_s, or with {@code auto} its {@code min}, which the gateways hold until the resource manager decides
 * @param auto        {@code concurrency: auto}'s bounds, or null for a fixed N_s
 * @param pools       the pools it may serve when it is movable ({@code pools: [a, b]}; its {@code pool} first), else empty
 */
public record ServerConfig(String id, URI url, int concurrency, String pool, String healthPath, AutoConcurrency auto,
                           List<String> pools) {
    public ServerConfig {
        pools = pools == null ? List.of() : List.copyOf(pools);
    }

    public ServerConfig(String id, URI url, int concurrency, String pool, String healthPath) {
        this(id, url, concurrency, pool, healthPath, null, null);
    }

    public ServerConfig(String id, URI url, int concurrency, String pool, String healthPath, AutoConcurrency auto) {
        this(id, url, concurrency, pool, healthPath, auto, null);
    }

    /** Whether the resource manager may move it between pools. */
    public boolean movable() {
        return pools.size() > 1;
    }

    /** The same server serving {@code p} now (a move). */
    public ServerConfig inPool(String p) {
        return new ServerConfig(id, url, concurrency, p, healthPath, auto, pools);
    }

    /** The server's URL as a prefix for paths: without a trailing slash. */
    public String baseUrl() {
        String s = url.toString();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    /** Whether requests reach this server as SOAP over JMS ({@code jms:queue:NAME}) rather than HTTP. */
    public boolean isJms() {
        return "jms".equals(url.getScheme());
    }

    /** The queue of a JMS server. */
    public String jmsQueue() {
        return url.getSchemeSpecificPart().substring("queue:".length());
    }
}
