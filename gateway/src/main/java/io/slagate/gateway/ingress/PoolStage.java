package io.slagate.gateway.ingress;

import io.slagate.gateway.proxy.GatewayContext;

import io.slagate.gateway.soap.FaultReason;

/** Fails fast when every server of the request's pool is out of rotation: nothing to queue for. */
final class PoolStage implements IngressStage {
    private final GatewayContext context;

    PoolStage(GatewayContext context) {
        this.context = context;
    }

    @Override
    public Verdict apply(Ingress in) {
        if (context.queues.pools().poolAvailable(in.cls)) {
            return Verdict.NEXT;
        }
        in.exchange.fault(FaultReason.SERVER_UNREACHABLE);
        return Verdict.ANSWERED;
    }
}
