package io.slagate.gateway.upstream;

import io.slagate.gateway.proxy.Forwarded;
import io.slagate.gateway.proxy.GatewayContext;
import io.slagate.gateway.proxy.UpstreamExchange;
import io.slagate.gateway.proxy.HopByHop;

import io.slagate.config.ServerConfig;
import io.slagate.gateway.auth.CredentialFields;
import io.slagate.gateway.sched.ServerSlots;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jetty's HTTP client, for servers the pooled leg does not serve (https, or every server with
 * {@code -Dslagate.upstream=httpclient}). Four legs, named as in Jetty's ProxyHandler: client→proxy (C2P),
 * proxy→server (P2S), server→proxy (S2P), proxy→client (P2C); bodies stream both ways, the server's next chunk
 * demanded only once the previous one reached the client.
 */
final class HttpClientUpstream implements Upstream {
    private static final Logger LOG = LoggerFactory.getLogger(HttpClientUpstream.class);

    private final Dispatcher dispatcher;
    private final GatewayContext context;
    private final HttpClient client;
    private final String[] baseUrls;
    private final long serverTimeoutMillis;
    private final long maxRequestBytes;

    HttpClientUpstream(Dispatcher dispatcher, GatewayContext context, HttpClient client, List<ServerConfig> servers,
                       long serverTimeoutMillis, long maxRequestBytes) {
        this.dispatcher = dispatcher;
        this.context = context;
        this.client = client;
        this.serverTimeoutMillis = serverTimeoutMillis;
        this.maxRequestBytes = maxRequestBytes;
        this.baseUrls = new String[servers.size()];
        for (int i = 0; i < baseUrls.length; i++) {
            baseUrls[i] = servers.get(i).baseUrl();
        }
    }

    @Override
    public void send(UpstreamExchange ex) {
        Request c2p = ex.request();
        ServerSlots server = ex.server();
        HttpURI uri = c2p.getHttpURI();
        String pathQuery = uri.getPathQuery();
        var p2s = client.newRequest(baseUrls[server.index()] + (pathQuery == null ? "/" : pathQuery))
                .method(c2p.getMethod())
                .timeout(serverTimeoutMillis, TimeUnit.MILLISECONDS);
        HttpFields c2pHeaders = c2p.getHeaders();
        Set<String> listed = HopByHop.connectionListed(c2pHeaders);
        boolean trusted = context.forwarded.trusts(c2p);
        String host = Forwarded.host(c2p, c2pHeaders);
        p2s.headers(h -> {
            h.put(HttpHeader.HOST, host); // the address the client used: the server publishes it, not its own
            CredentialFields credentials = context.credentialFields;
            for (HttpField f : c2pHeaders) {
                if (HopByHop.copiedUpstream(f, listed, trusted) && (credentials == null || !credentials.withheld(f))) {
                    h.add(f);
                }
            }
            Forwarded.put(c2p, c2pHeaders, trusted, host, h::put);
            if (ex.startedTrace() != null) {
                h.put("traceparent", ex.startedTrace());
            }
            if (credentials != null && credentials.identityHeader() != null && ex.customer() != null) {
                h.put(credentials.identityHeader(), CredentialFields.identityValue(ex.customer()));
            }
        });
        if (ex.body() != null) {
            p2s.body(new LimitedRequestContent(ex, maxRequestBytes));
        }
        p2s.onRequestCommit(r -> ex.markCommitted());
        if (LOG.isDebugEnabled()) {
            LOG.debug("{} P2S {} {} to {}", ex, c2p.getMethod(), pathQuery, server.id());
        }
        p2s.send(new ServerResponseListener(ex, server));
    }

    /**
     * S2P and P2C: relays the server's response, or turns its failure into one fault.
     *
     * <p>The exchange ends only when both the upstream exchange is complete ({@link #onComplete},
     * request side included) and the last response byte was written to the client. Ending it at
     * the last write alone is a race: a server may answer before the proxy finished sending the
     * request (T1 writes the response's last byte and completes the client callback; Jetty then
     * fails the unread request body; T2, still sending that body upstream, fails with "channel
     * already completed" and the upstream connection is never released: one leaked connection
     * per occurrence, a deadlock once the pool is bounded).
     */
    private final class ServerResponseListener implements Response.Listener {
        private final UpstreamExchange ex;
        private final ServerSlots server;
        /** Set once the whole response was received; then a late request-side failure is harmless. */
        private volatile boolean responseSucceeded;
        /** Two events end a relayed exchange: upstream complete, last client write done. */
        private final AtomicInteger pendingEnds = new AtomicInteger(2);
        private volatile Throwable clientWriteFailure;

        ServerResponseListener(UpstreamExchange ex, ServerSlots server) {
            this.ex = ex;
            this.server = server;
        }

        @Override
        public void onHeaders(Response s2p) {
            dispatcher.answered(ex, server, s2p.getStatus());
            var p2c = ex.response();
            p2c.setStatus(s2p.getStatus());
            HttpFields s2pHeaders = s2p.getHeaders();
            Set<String> listed = HopByHop.connectionListed(s2pHeaders);
            HttpFields.Mutable out = p2c.getHeaders();
            for (HttpField f : s2pHeaders) {
                if (!HopByHop.isHopByHop(f, listed)) {
                    out.add(f);
                }
            }
            out.add(context.classFields[ex.classIndex()]);
            out.add(GatewayContext.queueMillisField(TimeUnit.NANOSECONDS.toMillis(ex.queueingNanos())));
            ex.workingSetDeclared(s2pHeaders);
        }

        @Override
        public void onContent(Response s2p, Content.Chunk chunk, Runnable demander) {
            ByteBuffer content = chunk.getByteBuffer();
            if (!content.hasRemaining()) {
                demander.run();
                return;
            }
            chunk.retain();
            ex.response().write(false, content, new Callback() {
                @Override
                public void succeeded() {
                    chunk.release();
                    demander.run(); // demand the next chunk only once this one reached the client
                }

                @Override
                public void failed(Throwable x) {
                    chunk.release();
                    s2p.abort(x); // the client is gone: stop the server exchange too
                }

                @Override
                public InvocationType getInvocationType() {
                    return InvocationType.NON_BLOCKING;
                }
            });
        }

        @Override
        public void onSuccess(Response s2p) {
            responseSucceeded = true;
            // The server is done: its slot can serve the next request while the last bytes go out.
            ex.releaseSlot();
            ex.response().write(true, BufferUtil.EMPTY_BUFFER, Callback.from(this::ended, x -> {
                clientWriteFailure = x;
                ended();
            }));
        }

        private void ended() {
            if (pendingEnds.decrementAndGet() == 0) {
                Throwable x = clientWriteFailure;
                if (x == null) {
                    ex.completed();
                } else {
                    ex.clientFailed(x);
                }
            }
        }

        @Override
        public void onComplete(Result result) {
            if (result.isSucceeded() || responseSucceeded) {
                ended(); // a request-side failure after the full response (client went away) changes nothing
                return;
            }
            dispatcher.upstreamFailed(ex, server, result.getFailure(), result.getRequestFailure(), result.getResponse().getStatus() != 0);
        }
    }
}
