package io.slagate.gateway.upstream;

import io.slagate.gateway.proxy.UpstreamExchange;

/**
 * A leg that sends an admitted exchange to the server holding its slot and relays the answer: the pooled HTTP/1.1
 * client ({@link PooledUpstream}), Jetty's HTTP client for https ({@link HttpClientUpstream}), SOAP over JMS
 * ({@link JmsUpstream}). The dispatcher picks one per server, once.
 */
interface Upstream {
    /** Starts {@code ex}'s server leg; its one outcome (answer, fault, retry) follows from it. */
    void send(UpstreamExchange ex);
}
