package io.slagate.gateway.proxy;

import io.slagate.gateway.trace.TraceParent;
import org.eclipse.jetty.http.HttpFields;

/**
 * The request's trace: its spans when the tracer samples it (the server's parent is then this request's call to
 * it), or, with the access log starting traces, a traceparent of its own for a request that came without one.
 */
final class TracingStage implements IngressStage {
    private final GatewayContext context;

    TracingStage(GatewayContext context) {
        this.context = context;
    }

    @Override
    public Verdict apply(Ingress in) {
        GatewayExchange ex = in.exchange;
        HttpFields headers = in.request.getHeaders();
        if (context.tracer != null) {
            ex.span = context.tracer.start(AccessLog.traceparent(headers));
        }
        if (ex.span != null) {
            ex.startedTrace = ex.span.upstreamTraceparent();
        } else if (context.accessLog != null && context.accessLog.startTrace && !headers.contains("traceparent")) {
            ex.startedTrace = TraceParent.started();
        }
        return Verdict.NEXT;
    }
}
