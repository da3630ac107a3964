package io.slagate.gateway.ingress;

import io.slagate.gateway.proxy.GatewayExchange;
import io.slagate.gateway.proxy.RequestBody;

import io.slagate.gateway.classify.Classifier;
import io.slagate.gateway.classify.TwinSplit;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.soap.SoapVersion;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** A request on its way in: what the stages learn of it, in their order, and the stage it resumes at after a wait. */
final class Ingress {
    /** The classification in force when the request came (swapped whole by a reload; one volatile read per request). */
    record Classification(Classifier classifier, String customerHeader, TwinSplit split) {
    }

    final Request request;
    final Response response;
    final Callback callback;
    final long now;
    final Classification classification;
    /** The next stage to run. */
    int next;
    /** Proven or, without authentication, claimed; null: anonymous. */
    String customer;
    /** The body, when it was read before the customer was known (its credential was in it); else null. */
    RequestBody body;
    SoapVersion version;
    String service;
    String operation;
    int cls;
    /** Why the request is refused once it counts as its class's arrival (null: it is not). */
    FaultReason refused;
    GatewayExchange exchange;

    Ingress(Request request, Response response, Callback callback, long now, Classification classification) {
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.now = now;
        this.classification = classification;
    }
}
