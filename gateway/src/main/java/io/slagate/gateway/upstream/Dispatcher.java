package io.slagate.gateway.upstream;

import io.slagate.gateway.proxy.ClientSideFailure;
import io.slagate.gateway.proxy.Forwarding;
import io.slagate.gateway.proxy.GatewayContext;
import io.slagate.gateway.proxy.UpstreamExchange;

import io.slagate.config.ServerConfig;
import io.slagate.gateway.sched.ServerSlots;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.stats.GatewayMetrics.ServerError;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.HttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dispatch handler (section III-A): sends an admitted request to the server holding its slot, on that server's
 * {@link Upstream} (chosen once per server), and turns what the HTTP legs report into the exchange's one outcome.
 *
 * <p>Bodies stream both ways, untouched (MTOM and multipart included); the server's next chunk is
 * demanded only once the previous one was written to the client, so a slow client slows its server
 * exchange rather than filling memory. A connection that cannot be opened (the request was never
 * sent) is retried on another server of the pool with a free slot; anything after the request was
 * sent is not retried, since the server may have executed it.
 */
final class Dispatcher implements Forwarding {
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    private final GatewayContext context;
    private final HealthMonitor health;
    /** Per server index, the leg that sends to it: chosen once, when the path is built. */
    private final Upstream[] upstreams;

    /**
     * @param pools per server index, its connection pool for the pooled HTTP/1.1 leg, or null (https, JMS)
     * @param jms the SOAP/JMS leg, or null when no server is a JMS queue
     */
    Dispatcher(GatewayContext context, HttpClient client, ServerConnectionPool[] pools, List<ServerConfig> servers,
               long serverTimeoutMillis, long maxRequestBytes, HealthMonitor health, JmsDispatcher jms) {
        this.context = context;
        this.health = health;
        this.upstreams = new Upstream[servers.size()];
        HttpClientUpstream viaClient = null;
        for (int i = 0; i < upstreams.length; i++) {
            if (jms != null && jms.serves(i)) {
                upstreams[i] = new JmsUpstream(context, jms);
            } else if (pools[i] != null) {
                upstreams[i] = new PooledUpstream(this, pools[i], serverTimeoutMillis, maxRequestBytes);
            } else {
                if (viaClient == null) {
                    viaClient = new HttpClientUpstream(this, context, client, servers, serverTimeoutMillis, maxRequestBytes);
                }
                upstreams[i] = viaClient;
            }
        }
    }

    /** Sends {@code ex} to the server holding its slot, on that server's leg; a send that cannot start is a server failure. */
    @Override
    public void forward(UpstreamExchange ex) {
        try {
            upstreams[ex.server().index()].send(ex);
        } catch (RuntimeException e) {
            LOG.warn("{} P2S could not be sent", ex, e);
            ex.fault(FaultReason.SERVER_FAILED);
        }
    }

    /**
     * The server sent {@code ex}'s response head with {@code status}: it is alive, and a server on probation in a pool it
     * was just moved to is judged by it (three "no such service" answers move it back). Here, not once the client has
     * the answer: the slot is freed when the server's leg ends, before that, and a freed slot admitted another of the
     * pool's requests to a server that had already refused it (CI saw 9 and 11 refusals where 3 + its 5 slots can be).
     */
    void answered(UpstreamExchange ex, ServerSlots server, int status) {
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
    void upstreamFailed(UpstreamExchange ex, ServerSlots server, Throwable failure, Throwable requestFailure,
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
        if (ex.response().isCommitted()) {
            // Headers already went to the client: a fault can no longer be written.
            context.metrics.servers().error(server.index(), ServerError.BROKEN);
            ex.fault(FaultReason.SERVER_FAILED);
            return;
        }
        if (!ex.requestCommitted()) {
            // Never sent (connection refused, connect timeout): safe to try another server.
            context.metrics.servers().error(server.index(), ServerError.CONNECT);
            health.failed(server);
            ServerSlots other = context.queues.reassign(server, ex.markTried());
            if (other != null) {
                LOG.debug("{} P2S {} unreachable ({}); retrying on {}", ex, server.id(), failure.toString(), other.id());
                ex.moveTo(other);
                context.loops.execute(ex.loop(), () -> forward(ex));
                return;
            }
            ex.fault(FaultReason.SERVER_UNREACHABLE);
            return;
        }
        if (failure instanceof TimeoutException) {
            context.metrics.servers().error(server.index(), ServerError.TIMEOUT);
            health.failed(server);
            ex.fault(FaultReason.SERVER_TIMEOUT);
            return;
        }
        context.metrics.servers().error(server.index(), ServerError.BROKEN);
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

}
