package io.slagate.gateway.ingress;

import io.slagate.gateway.proxy.GatewayContext;
import io.slagate.gateway.proxy.HopByHop;
import io.slagate.gateway.proxy.RequestBody;

import io.slagate.gateway.soap.FaultReason;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Request;

/**
 * What cannot be forwarded, decided from the request's head: a gateway shutting down, a method no SOAP service is
 * reached by, a body over the limit, a POST that is no SOAP message, a disguised hop-by-hop field. The refusal is
 * answered once the request counts as its class's arrival ({@link ArrivalStage}); a quota is not spent on it.
 */
final class RefusalStage implements IngressStage {
    private final GatewayContext context;
    private final long maxRequestBytes;
    private volatile boolean accepting = true;

    RefusalStage(GatewayContext context, long maxRequestBytes) {
        this.context = context;
        this.maxRequestBytes = maxRequestBytes;
    }

    /** After this, new requests get a shutting-down fault; requests already accepted finish. */
    void stopAccepting() {
        accepting = false;
    }

    @Override
    public Verdict apply(Ingress in) {
        in.refused = refuse(in);
        return Verdict.NEXT;
    }

    private FaultReason refuse(Ingress in) {
        if (!accepting) {
            return FaultReason.SHUTTING_DOWN;
        }
        Request request = in.request;
        String method = request.getMethod();
        boolean post = HttpMethod.POST.is(method);
        if (!post && !HttpMethod.GET.is(method) && !HttpMethod.HEAD.is(method)) {
            return FaultReason.METHOD_NOT_ALLOWED; // CONNECT, TRACE, PUT...: nothing a SOAP service is reached by
        }
        if (request.getLength() > maxRequestBytes) {
            return FaultReason.REQUEST_TOO_LARGE;
        }
        if (post && (in.version == null || !RequestBody.announced(request))) {
            return FaultReason.MALFORMED_REQUEST; // a POST that is not a SOAP message, or has no body whatever its framing
        }
        if (context.clients.refuseUnderscoreHeaders()) {
            for (HttpField f : request.getHeaders()) {
                if (f.getHeader() == null && HopByHop.isDisguised(f)) {
                    return FaultReason.MALFORMED_REQUEST;
                }
            }
        }
        return null;
    }
}
