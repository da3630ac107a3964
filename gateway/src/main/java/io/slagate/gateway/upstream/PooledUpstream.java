package io.slagate.gateway.upstream;

import io.slagate.gateway.proxy.UpstreamExchange;

/** The pooled HTTP/1.1 client: the exchange runs on its client's loop over the server's keep-alive connections. */
final class PooledUpstream implements Upstream {
    private final Dispatcher dispatcher;
    private final ServerConnectionPool pool;
    private final long serverTimeoutMillis;
    private final long maxRequestBytes;

    PooledUpstream(Dispatcher dispatcher, ServerConnectionPool pool, long serverTimeoutMillis, long maxRequestBytes) {
        this.dispatcher = dispatcher;
        this.pool = pool;
        this.serverTimeoutMillis = serverTimeoutMillis;
        this.maxRequestBytes = maxRequestBytes;
    }

    @Override
    public void send(UpstreamExchange ex) {
        new ServerExchange(dispatcher, ex, ex.server(), pool, serverTimeoutMillis, maxRequestBytes).start();
    }
}
