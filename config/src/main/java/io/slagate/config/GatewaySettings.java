package io.slagate.config;

import java.time.Duration;

/**
 * Settings of one gateway node.
 *
 * @param maxRequestBytes largest request body accepted; a larger one gets a fault (413 semantics)
 * @param connectTimeout  time allowed to open a connection to a server
 * @param serverTimeout   time allowed for a server's whole response once the request was sent
 * @param headerTimeout   time allowed for a request's line and headers to arrive (slowloris guard)
 * @param maxConnections  client connections held open at once; beyond, new ones wait in the accept backlog
 * @param tls             TLS on the client listener, or null for plain HTTP
 * @param clients         how far clients are trusted and waited for
 * @param adminDump       whether the admin port serves {@code /dump} (Jetty's internals; off by default)
 * @param localLimit      whether a server whose service times jump is given fewer slots here at once
 * @param locality        per-pool load balancing and how locality dispatch learns
 * @param flashCrowd      the flash-crowd defence, or null: off
 * @param loops           event loops of the client listener (each runs both legs of its exchanges); 0: one per core
 * @param upstream        which requests share a connection to a server, and how many connections a server gets
 * @param startup         what a gateway with a control bus admits before its first allocation
 * @param accessLog       one line per finished request, or off
 * @param authentication  how customers are proven ({@link AuthenticationSettings#OFF}: claimed)
 * @param tracing         OpenTelemetry spans of the requests ({@link TracingSettings#OFF}: none)
 */
public record GatewaySettings(String id, HostPort listen, HostPort admin, SchedulerMode scheduler,
                              LoadBalancing loadBalancing, FaultStatus faultStatus, long maxRequestBytes,
                              Duration connectTimeout, Duration serverTimeout, HealthSettings health,
                              StatsSettings stats, Duration headerTimeout, int maxConnections, TlsSettings tls,
                              ClientPolicy clients, boolean adminDump, boolean localLimit,
                              LocalitySettings locality, FlashCrowdSettings flashCrowd, int loops, UpstreamSettings upstream,
                              StartupSettings startup, AccessLogSettings accessLog,
                              AuthenticationSettings authentication, TracingSettings tracing) {
    /** These settings under another gateway id (one configuration file for every replica, the id from its environment). */
    public GatewaySettings withId(String otherId) {
        return new GatewaySettings(otherId, listen, admin, scheduler, loadBalancing, faultStatus, maxRequestBytes,
                connectTimeout, serverTimeout, health, stats, headerTimeout, maxConnections, tls, clients, adminDump,
                localLimit, locality, flashCrowd, loops, upstream, startup, accessLog, authentication, tracing);
    }

    /** These settings with the scheduling choices of {@code b} (scheduler, load balancing, locality): those may change live, the rest not. */
    public GatewaySettings withSchedulingOf(GatewaySettings b) {
        return new GatewaySettings(id, listen, admin, b.scheduler(), b.loadBalancing(), faultStatus, maxRequestBytes,
                connectTimeout, serverTimeout, health, stats, headerTimeout, maxConnections, tls, clients, adminDump,
                localLimit, b.locality(), flashCrowd, loops, upstream, startup, accessLog, authentication, tracing);
    }

    /** These settings with the client policy {@code c}. */
    public GatewaySettings withClients(ClientPolicy c) {
        return new GatewaySettings(id, listen, admin, scheduler, loadBalancing, faultStatus, maxRequestBytes,
                connectTimeout, serverTimeout, health, stats, headerTimeout, maxConnections, tls, c, adminDump,
                localLimit, locality, flashCrowd, loops, upstream, startup, accessLog, authentication, tracing);
    }

    /** The load-balancing policy of {@code pool}. */
    public LoadBalancing loadBalancing(String pool) {
        return locality.policy(pool, loadBalancing);
    }
}
