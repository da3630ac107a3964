package io.slagate.gateway.ingress;

import io.slagate.gateway.proxy.FaultAnswers;
import io.slagate.gateway.proxy.GatewayContext;
import io.slagate.gateway.proxy.GatewayExchange;


/**
 * The request counts as its class's arrival; a refused one is answered with its fault (and logged), any other
 * becomes an exchange on its client connection's loop.
 */
final class ArrivalStage implements IngressStage {
    private final GatewayContext context;

    ArrivalStage(GatewayContext context) {
        this.context = context;
    }

    @Override
    public Verdict apply(Ingress in) {
        context.metrics.arrived(in.cls);
        if (in.refused != null) {
            context.metrics.faulted(in.cls, in.refused);
            context.sla.faulted(in.cls, in.customer, in.refused);
            FaultAnswers.write(context, in.response, in.callback, in.version, in.refused, context.classNames[in.cls]);
            if (context.accessLog != null) {
                context.accessLog.refused(in.request, in.response, in.customer, context.classNames[in.cls], in.operation, in.refused);
            }
            return Verdict.ANSWERED;
        }
        in.exchange = new GatewayExchange(context, in.cls, in.now, in.request, in.response, in.callback, in.version,
                in.customer, in.operation);
        return Verdict.NEXT;
    }
}
