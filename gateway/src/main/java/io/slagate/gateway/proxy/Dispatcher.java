package io.slagate.gateway.proxy;

import io.slagate.gateway.auth.CredentialFields;
import io.slagate.config.ServerConfig;
import io.slagate.gateway.sched.ServerSlots;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.stats.GatewayMetrics.ServerError;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * The dispatch handler (section III-A): sends an admitted request to the server holding its slot
 * and streams the answer back. Four legs, named as in Jetty's ProxyHandler: client→proxy (C2P),
 * proxy→server (P2S), server→proxy (S2P), proxy→client (P2C).
 *
 * <p>Bodies stream both ways, untouched (MTOM and multipart included); the server's next chunk is
 * demanded only once the previous one was written to the client, so a slow client slows its server
 * exchange rather than filling memory. A connection that cannot be opened (the request was never
 * sent) is retried on another server of the pool with a free slot; anything after the request was
 * sent is not retried, since the server may have executed it.
 */
final class Dispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    private final GatewayContext context;
    private final HttpClient client;
    private final String[] baseUrls;
    private final long serverTimeoutMillis;
    private final long maxRequestBytes;
    private final HealthMonitor health;
    /** The SOAP/JMS leg, or null when no server is a JMS queue. */
    private final JmsDispatcher jms;

    /** Per server index: its connection pool on the direct leg, or null (https, JMS) for Jetty's HttpClient / JMS. */
    private final ServerConnectionPool[] pools;

    Dispatcher(GatewayContext context, HttpClient client, ServerConnectionPool[] pools, List<ServerConfig> servers,
               long serverTimeoutMillis, long maxRequestBytes, HealthMonitor health, JmsDispatcher jms) {
        this.context = context;
        this.pools = pools;
        this.jms = jms;
        this.client = client;
        this.baseUrls = new String[servers.size()];
        for (int i = 0; i < baseUrls.length; i++) {
            URI u = servers.get(i).url();
            String s = u.toString();
            baseUrls[i] = s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
        }
        this.serverTimeoutMillis = serverTimeoutMillis;
        this.maxRequestBytes = maxRequestBytes;
        this.health = health;
    }

    void forward(GatewayExchange ex) {
        try {
            if (jms != null && jms.serves(ex.server())) {
                // a JMS send can block (broker flow control, a reconnect): off the event loop
                context.executor.execute(() -> {
                    try {
                        jms.send(ex);
                    } catch (RuntimeException e) {
                        LOG.warn("{} P2S could not be sent", ex, e);
                        ex.fault(FaultReason.SERVER_FAILED);
                    }
                });
                return;
            }
            ServerConnectionPool pool = pools[ex.server().index()];
            if (pool != null) {
                new ServerExchange(this, ex, ex.server(), pool, serverTimeoutMillis, maxRequestBytes).start();
                return;
            }
            send(ex);
        } catch (RuntimeException e) {
            LOG.warn("{} P2S could not be sent", ex, e);
            ex.fault(FaultReason.SERVER_FAILED);
        }
    }

    private void send(GatewayExchange ex) {
        Request c2p = ex.request;
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
            if (ex.startedTrace != null) {
                h.put("traceparent", ex.startedTrace);
            }
            if (credentials != null && credentials.identityHeader() != null && ex.customer() != null) {
                h.put(credentials.identityHeader(), CredentialFields.identityValue(ex.customer()));
            }
        });
        if (ex.body != null) {
            p2s.body(new LimitedRequestContent(ex, maxRequestBytes));
        }
        p2s.onRequestCommit(r -> ex.markCommitted());
        if (LOG.isDebugEnabled()) {
            LOG.debug("{} P2S {} {} to {}", ex, c2p.getMethod(), pathQuery, server.id());
        }
        p2s.send(new ServerResponseListener(ex, server));
    }

    /**
     * The server sent {@code ex}'s response head with {@code status}: it is alive, and a server on probation in a pool it
     * was just moved to is judged by it (three "no such service" answers move it back). Here, not once the client has
     * the answer: the slot is freed when the server's leg ends, before that, and a freed slot admitted another of the
     * pool's requests to a server that had already refused it (CI saw 9 and 11 refusals where 3 + its 5 slots can be).
     */
    void answered(GatewayExchange ex, ServerSlots server, int status) {
        health.answered(server);
        context.queues.answered(server.index(), ex.classIndex(), status);
    }

    /**
     * Turns an upstream failure into the exchange's one outcome (both HTTP legs): a fault, a retry on
     * another server when the request was never sent, or an aborted client connection when the
     * response had already started.
     *
     * @param requestFailure why sending the request failed, if it did (reading the client's body included)
     * @param responseStarted whether the server's response head had arrived
     */
    void upstreamFailed(GatewayExchange ex, ServerSlots server, Throwable failure, Throwable requestFailure,
                        boolean responseStarted) {
        // Blame first: what the client did is the client's, whatever it did to the upstream exchange.
        ClientSideFailure client = clientSide(failure, requestFailure);
        if (client != null) {
            LOG.debug("{} C2P {}: {}", ex, client.reason.code(), client.getMessage());
            ex.clientFault(client.reason);
            return;
        }
        if (ex.tooLarge()) {
            ex.fault(FaultReason.REQUEST_TOO_LARGE);
            return;
        }
        if (ex.response.isCommitted()) {
            // Headers already went to the client: a fault can no longer be written.
            context.metrics.serverError(server.index(), ServerError.BROKEN);
            ex.fault(FaultReason.SERVER_FAILED);
            return;
        }
        if (!ex.requestCommitted()) {
            // Never sent (connection refused, connect timeout): safe to try another server.
            context.metrics.serverError(server.index(), ServerError.CONNECT);
            health.failed(server);
            ServerSlots other = context.queues.reassign(server, ex.markTried());
            if (other != null) {
                LOG.debug("{} P2S {} unreachable ({}); retrying on {}", ex, server.id(), failure.toString(), other.id());
                ex.moveTo(other);
                context.loops.execute(ex.loop, () -> forward(ex));
                return;
            }
            ex.fault(FaultReason.SERVER_UNREACHABLE);
            return;
        }
        if (failure instanceof TimeoutException) {
            context.metrics.serverError(server.index(), ServerError.TIMEOUT);
            health.failed(server);
            ex.fault(FaultReason.SERVER_TIMEOUT);
            return;
        }
        context.metrics.serverError(server.index(), ServerError.BROKEN);
        LOG.debug("{} S2P {} failed: {}", ex, server.id(), failure.toString());
        ex.fault(FaultReason.SERVER_FAILED);
    }

    /** The client's part in a failure, if it had one: its body failed (either leg marks it so). */
    private static ClientSideFailure clientSide(Throwable failure, Throwable requestFailure) {
        for (Throwable t : new Throwable[] {failure, requestFailure}) {
            for (Throwable c = t; c != null; c = c.getCause()) {
                if (c instanceof ClientSideFailure side) {
                    return side;
                }
            }
        }
        return null;
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
        private final GatewayExchange ex;
        private final ServerSlots server;
        /** Set once the whole response was received; then a late request-side failure is harmless. */
        private volatile boolean responseSucceeded;
        /** Two events end a relayed exchange: upstream complete, last client write done. */
        private final AtomicInteger pendingEnds = new AtomicInteger(2);
        private volatile Throwable clientWriteFailure;

        ServerResponseListener(GatewayExchange ex, ServerSlots server) {
            this.ex = ex;
            this.server = server;
        }

        @Override
        public void onHeaders(Response s2p) {
            answered(ex, server, s2p.getStatus());
            var p2c = ex.response;
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
            ex.response.write(false, content, new Callback() {
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
            ex.response.write(true, BufferUtil.EMPTY_BUFFER, Callback.from(this::ended, x -> {
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
            upstreamFailed(ex, server, result.getFailure(), result.getRequestFailure(), result.getResponse().getStatus() != 0);
        }
    }
}
