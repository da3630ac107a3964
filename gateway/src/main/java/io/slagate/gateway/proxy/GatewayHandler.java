package io.slagate.gateway.proxy;

import io.slagate.gateway.loop.LoopConnector;
import io.slagate.gateway.auth.Authenticator;
import io.slagate.gateway.classify.Classifier;
import io.slagate.gateway.classify.TwinSplit;
import io.slagate.gateway.locality.LocalityLearner;
import io.slagate.gateway.quota.Quotas;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.soap.SoapVersion;
import io.slagate.gateway.trace.TraceParent;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The gateway's entry point for client requests: classification and queueing handlers of section
 * III-A. Classifies from HTTP metadata only (never the SOAP body), refuses what cannot be forwarded
 * with a fault, and hands the rest to the queue manager as a suspended request: this method returns
 * at once and the request holds no thread while it waits.
 */
final class GatewayHandler extends Handler.Abstract.NonBlocking {
    /** Longest customer name taken from a request; longer ones are treated as anonymous. */
    private static final int MAX_CUSTOMER_LENGTH = 256;

    private final GatewayContext context;
    /** Swapped whole when the classification changes live; one volatile read per request. */
    private record Classification(Classifier classifier, String customerHeader, TwinSplit split) {
    }

    private volatile Classification classification;
    private final long maxRequestBytes;
    /** WS-Security UsernameTokens read and taken out, or null. */
    private final UsernameTokens tokens;
    private volatile boolean accepting = true;

    GatewayHandler(GatewayContext context, Classifier classifier, String customerHeader, long maxRequestBytes,
                   TwinSplit split) {
        this.context = context;
        this.classification = new Classification(classifier, customerHeader, split);
        this.maxRequestBytes = maxRequestBytes;
        this.tokens = context.authenticator == null ? null
                : UsernameTokens.of(context, context.authenticator.settings(), maxRequestBytes);
    }

    /** Replaces the rules, subscriptions and customer source; requests already classified keep their class. */
    void setClassification(Classifier classifier, String customerHeader, TwinSplit split) {
        this.classification = new Classification(classifier, customerHeader, split);
    }

    /** After this, new requests get a shutting-down fault; requests already accepted finish. */
    void stopAccepting() {
        accepting = false;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        long now = context.clock.getAsLong();
        Authenticator auth = context.authenticator;
        if (auth == null) {
            Classification cl = classification;
            return admitted(request, response, callback, now, cl, claimedCustomer(request.getHeaders(), cl.customerHeader()), null);
        }
        Authenticator.Result proven = auth.check(request);
        if (proven.inBody() && tokens != null) {
            tokens.authenticate(request, response, callback, (token, body) -> proven(request, response, callback, now, token, body));
            return true;
        }
        return proven(request, response, callback, now, proven, null);
    }

    /** Goes on once the customer is proven: at once, or after its slow check ({@code body}: read already, or null). */
    private boolean proven(Request request, Response response, Callback callback, long now, Authenticator.Result proven,
                           RequestBody body) {
        if (proven.pending()) {
            // a bcrypt or signature check answers on a checking thread: the request goes on on its own loop
            int loop = LoopConnector.loopOf(request.getConnectionMetaData().getConnection().getEndPoint());
            proven = context.authenticator.await(proven,
                    later -> context.loops.execute(loop, () -> authenticated(request, response, callback, now, later, body)));
        }
        return proven == null || authenticated(request, response, callback, now, proven, body);
    }

    /** Goes on with the customer {@code proven}, or answers the fault its credentials earned. */
    private boolean authenticated(Request request, Response response, Callback callback, long now, Authenticator.Result proven,
                                  RequestBody body) {
        FaultReason refused = switch (proven.outcome()) {
            case VERIFIED, ANONYMOUS -> null;
            case REFUSED -> FaultReason.UNAUTHENTICATED;
            case THROTTLED -> FaultReason.AUTHENTICATION_THROTTLED;
            case BUSY -> FaultReason.AUTHENTICATION_BUSY;
        };
        if (refused == null) {
            return admitted(request, response, callback, now, classification, proven.customer(), body);
        }
        // never classified, queued or counted as a class's arrival: the gateway's authentication counters say it
        GatewayExchange.refuseUnclassified(context, request, response, callback, refused);
        return true;
    }

    /** Classifies, refuses or queues a request whose customer is known: proven, or (without authentication) claimed. */
    private boolean admitted(Request request, Response response, Callback callback, long now, Classification cl, String customer,
                             RequestBody read) {
        HttpFields headers = request.getHeaders();
        String contentType = headers.get(HttpHeader.CONTENT_TYPE);
        SoapVersion version = SoapVersion.fromContentType(contentType);
        String service = request.getHttpURI().getPath();
        String operation = SoapVersion.operation(headers.get("SOAPAction"), contentType);
        int cls = cl.split().route(cl.classifier().classify(customer, service, operation));
        FaultReason refused = refuse(request, version);
        if (refused == null && overQuota(cl, customer, service, operation, cls, now, request, response, callback, version)) {
            return true; // checked after the request is known to be one: a malformed request spends no quota and makes no bucket
        }
        context.metrics.arrived(cls);
        if (refused != null) {
            context.metrics.faulted(cls, refused);
            GatewayExchange.writeFault(context, response, callback, version, refused, context.classNames[cls]);
            if (context.accessLog != null) {
                context.accessLog.refused(request, response, customer, context.classNames[cls], operation, refused);
            }
            return true;
        }
        GatewayExchange ex = new GatewayExchange(context, cls, now, request, response, callback, version, customer);
        ex.loop = LoopConnector.loopOf(request.getConnectionMetaData().getConnection().getEndPoint());
        ex.operation = operation;
        if (context.tracer != null) {
            ex.span = context.tracer.start(AccessLog.traceparent(headers));
        }
        if (ex.span != null) {
            ex.startedTrace = ex.span.upstreamTraceparent(); // the server's parent is this request's call to it
        } else if (context.accessLog != null && context.accessLog.startTrace && !headers.contains("traceparent")) {
            ex.startedTrace = TraceParent.started();
        }
        LocalityLearner learner = context.queues.learner(cls);
        if (learner != null) {
            String key = typeKey(headers, service, operation);
            int type = key == null ? -1 : learner.arrived(key);
            ex.requestType(type);
            if (type < 0 && key != null) {
                ex.localityKey = key; // learned once a server answers it
            }
        }
        ex.deadline(headers);
        if (!context.queues.poolAvailable(cls)) {
            ex.fault(FaultReason.SERVER_UNREACHABLE); // every server of its pool is out: fail fast
            return true;
        }
        if (read != null) {
            ex.body = read; // read before the customer was known: its credential was in it
            bodyRead(ex);
        } else if (RequestBody.announced(request)) {
            // The body first, then the queue: no server slot is ever held waiting for a client.
            RequestBody.read(ex, tokens == null ? context.clients.bufferedRequestBytes() : tokens.bufferLimit(), maxRequestBytes,
                    context.timer, context.clients.requestBodyTimeout().toMillis(), context.clients.releaseRequestBuffer(),
                    () -> bodyRead(ex));
        } else {
            admit(ex);
        }
        return true;
    }

    /** The body is read: a UsernameToken taken out of it (or its unreadable header refused), then the queue. */
    private void bodyRead(GatewayExchange ex) {
        FaultReason refused = tokens == null ? null : tokens.strip(ex.request, ex.body);
        if (refused != null) {
            ex.fault(refused); // never forwarded: the server would read what the gateway could not
        } else {
            admit(ex);
        }
    }

    /**
     * Refuses a request over its customer's quota at once: never queued, never an arrival of its class
     * (its utility and the manager's load figures do not see it), never sent to a server.
     */
    private boolean overQuota(Classification cl, String customer, String service, String operation, int cls, long now,
                              Request request, Response response, Callback callback, SoapVersion version) {
        Quotas quotas = context.quotas;
        if (quotas == null || !quotas.any()) {
            return false;
        }
        String key = quotas.ownKey(customer); // the grade only when the customer has no quota of its own
        if (key == null) {
            key = quotas.gradeKey(customer, cl.classifier().grade(customer, service));
        }
        long waitNanos = key == null ? 0 : quotas.tryAcquire(key, now);
        if (waitNanos <= 0) {
            return false;
        }
        int retryAfter = (int) Math.min(3600, Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L));
        GatewayExchange.writeFault(context, response, callback, version, FaultReason.QUOTA_EXCEEDED, context.classNames[cls], retryAfter);
        if (context.accessLog != null) {
            context.accessLog.refused(request, response, customer, context.classNames[cls], operation, FaultReason.QUOTA_EXCEEDED);
        }
        return true;
    }

    private void admit(GatewayExchange ex) {
        if (ex.offer()) {
            context.dispatcher.forward(ex);
        }
    }

    /**
     * The request type's key for locality dispatch: service and operation, and the key header's value when one is
     * configured; null for a request without that header (dispatched least-outstanding).
     */
    private String typeKey(HttpFields headers, String service, String operation) {
        String key = context.localityKeyHeader;
        String value = key == null ? null : headers.get(key);
        if (key != null && (value == null || value.length() > 256)) {
            return null;
        }
        String op = operation == null ? "" : operation;
        return value == null ? service + ' ' + op : service + ' ' + op + ' ' + value;
    }

    private FaultReason refuse(Request request, SoapVersion version) {
        if (!accepting) {
            return FaultReason.SHUTTING_DOWN;
        }
        String method = request.getMethod();
        boolean post = HttpMethod.POST.is(method);
        if (!post && !HttpMethod.GET.is(method) && !HttpMethod.HEAD.is(method)) {
            return FaultReason.METHOD_NOT_ALLOWED; // CONNECT, TRACE, PUT...: nothing a SOAP service is reached by
        }
        long length = request.getLength();
        if (length > maxRequestBytes) {
            return FaultReason.REQUEST_TOO_LARGE;
        }
        if (post && (version == null || !RequestBody.announced(request))) {
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

    /** The customer a request names (its Basic user name, or the configured header): claimed, not proven. */
    private static String claimedCustomer(HttpFields headers, String customerHeader) {
        if (customerHeader != null) {
            String c = headers.get(customerHeader);
            return c == null || c.length() > MAX_CUSTOMER_LENGTH ? null : c.trim();
        }
        String auth = headers.get(HttpHeader.AUTHORIZATION);
        if (auth == null || auth.length() < 7 || !auth.regionMatches(true, 0, "Basic ", 0, 6)
                || auth.length() > 6 + MAX_CUSTOMER_LENGTH * 2) {
            return null;
        }
        try {
            byte[] decoded = Base64.getDecoder().decode(auth.substring(6).trim());
            int colon = 0;
            while (colon < decoded.length && decoded[colon] != ':') {
                colon++;
            }
            return new String(decoded, 0, colon, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }
}
