package io.slagate.gateway.ingress;

import io.slagate.gateway.proxy.AccessLog;
import io.slagate.gateway.proxy.GatewayContext;

import io.slagate.gateway.trace.RequestSpan;
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
        HttpFields headers = in.request.getHeaders();
        RequestSpan span = context.tracer == null ? null : context.tracer.start(AccessLog.traceparent(headers));
        if (span != null) {
            in.exchange.trace(span, span.upstreamTraceparent());
        } else if (context.accessLog != null && context.accessLog.startTrace && !headers.contains("traceparent")) {
            in.exchange.trace(null, TraceParent.started());
        }
        return Verdict.NEXT;
    }
}
