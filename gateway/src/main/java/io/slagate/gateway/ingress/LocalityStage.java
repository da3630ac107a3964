package io.slagate.gateway.ingress;

import io.slagate.gateway.proxy.GatewayContext;

import io.slagate.gateway.locality.LocalityLearner;

/**
 * The request's type for locality dispatch: service and operation, and the key header's value when one is
 * configured. A type not known yet is learned once a server answers it; a request without the key header is
 * dispatched least-outstanding.
 */
final class LocalityStage implements IngressStage {
    private final GatewayContext context;

    LocalityStage(GatewayContext context) {
        this.context = context;
    }

    @Override
    public Verdict apply(Ingress in) {
        LocalityLearner learner = context.queues.pools().learner(in.cls);
        if (learner == null) {
            return Verdict.NEXT;
        }
        String key = typeKey(in);
        int type = key == null ? -1 : learner.arrived(key);
        in.exchange.requestType(type);
        if (type < 0 && key != null) {
            in.exchange.localityKey(key);
        }
        return Verdict.NEXT;
    }

    private String typeKey(Ingress in) {
        String header = context.localityKeyHeader;
        String value = header == null ? null : in.request.getHeaders().get(header);
        if (header != null && (value == null || value.length() > 256)) {
            return null;
        }
        String op = in.operation == null ? "" : in.operation;
        return value == null ? in.service + ' ' + op : in.service + ' ' + op + ' ' + value;
    }
}
