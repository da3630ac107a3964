package io.slagate.gateway.ingress;

import io.slagate.gateway.proxy.GatewayContext;
import io.slagate.gateway.proxy.GatewayExchange;
import io.slagate.gateway.proxy.RequestBody;

import io.slagate.gateway.soap.FaultReason;

/**
 * The body first, then the queue: no server slot is ever held waiting for a client. A UsernameToken is taken out of
 * the body read (its unreadable security header refused: the server would read what the gateway could not).
 */
final class BodyStage implements IngressStage {
    private final GatewayContext context;
    private final UsernameTokens tokens;
    private final long maxRequestBytes;
    private final GatewayHandler handler;

    BodyStage(GatewayContext context, UsernameTokens tokens, long maxRequestBytes, GatewayHandler handler) {
        this.context = context;
        this.tokens = tokens;
        this.maxRequestBytes = maxRequestBytes;
        this.handler = handler;
    }

    @Override
    public Verdict apply(Ingress in) {
        GatewayExchange ex = in.exchange;
        if (in.body != null) {
            ex.body(in.body); // read before the customer was known: its credential was in it
            return stripped(in) ? Verdict.NEXT : Verdict.ANSWERED;
        }
        if (!RequestBody.announced(in.request)) {
            return Verdict.NEXT;
        }
        RequestBody.read(ex, tokens == null ? context.clients.bufferedRequestBytes() : tokens.bufferLimit(), maxRequestBytes,
                context.timer, context.clients.requestBodyTimeout().toMillis(), context.clients.releaseRequestBuffer(), () -> {
                    if (stripped(in)) {
                        handler.resume(in);
                    }
                });
        return Verdict.PENDING;
    }

    /** False when the body's security header was refused (the exchange answered with its fault). */
    private boolean stripped(Ingress in) {
        GatewayExchange ex = in.exchange;
        FaultReason refused = tokens == null ? null : tokens.strip(in.request, ex.body());
        if (refused != null) {
            ex.fault(refused);
            return false;
        }
        return true;
    }
}
