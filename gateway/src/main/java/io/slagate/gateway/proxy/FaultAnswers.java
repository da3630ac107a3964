package io.slagate.gateway.proxy;

import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.soap.SoapFaults;
import io.slagate.gateway.soap.SoapVersion;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.DateGenerator;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The gateway's own answers: a SOAP fault in the request's version (1.1 when it has none), its reason machine-readable
 * in the body and in {@code X-Slagate-Fault}, the class, a Retry-After where retrying is worth it, a challenge for
 * an unauthenticated request, and the connection closed after a client's fault.
 */
public final class FaultAnswers {
    private FaultAnswers() {
    }

    /**
     * Answers a request refused before it was classified (its credentials, or its body before they could be read): never
     * a class's arrival; the authentication counters and the access log say it.
     */
    public static void refuseUnclassified(GatewayContext context, Request request, Response response, Callback callback,
                                   FaultReason reason) {
        HttpFields headers = request.getHeaders();
        String contentType = headers.get(HttpHeader.CONTENT_TYPE);
        if (reason == FaultReason.CLIENT_ABORTED) {
            callback.failed(new EofException("the client closed its connection"));
        } else {
            write(context, response, callback, SoapVersion.fromContentType(contentType), reason, null);
        }
        if (context.accessLog != null) {
            context.accessLog.refused(request, response, null, null, SoapVersion.operation(headers.get("SOAPAction"), contentType),
                    reason);
        }
    }

    /** A fault with the gateway's Retry-After for a reason worth retrying. */
    public static void write(GatewayContext context, Response response, Callback callback, SoapVersion version,
                           FaultReason reason, String className) {
        write(context, response, callback, version, reason, className, context.retryAfterSeconds);
    }

    /** A fault whose Retry-After (for a reason worth retrying) is {@code retryAfterSeconds}. */
    public static void write(GatewayContext context, Response response, Callback callback, SoapVersion version,
                           FaultReason reason, String className, int retryAfterSeconds) {
        SoapVersion v = version == null ? SoapVersion.SOAP_11 : version;
        byte[] body = SoapFaults.body(v, reason, className, context.gatewayId);
        response.reset();
        response.setStatus(SoapFaults.httpStatus(context.faultStatus, v, reason));
        var headers = response.getHeaders();
        headers.put(HttpHeader.CONTENT_TYPE, v.contentType());
        headers.put(HttpHeader.CONTENT_LENGTH, body.length);
        headers.put(HttpHeader.DATE, DateGenerator.formatDate(System.currentTimeMillis()));
        headers.put(GatewayContext.FAULT_HEADER, reason.code());
        if (className != null) {
            headers.put(GatewayContext.CLASS_HEADER, className);
        }
        if (reason.retryable()) {
            headers.put(HttpHeader.RETRY_AFTER, retryAfterSeconds);
        }
        if (reason == FaultReason.METHOD_NOT_ALLOWED) {
            headers.put(HttpHeader.ALLOW, "GET, HEAD, POST");
        }
        if (reason == FaultReason.UNAUTHENTICATED) {
            for (HttpField challenge : context.challenges) {
                headers.add(challenge);
            }
        }
        if (reason.senderFault()) {
            headers.put(HttpHeader.CONNECTION, "close"); // the rest of a bad body is not worth reading
        }
        // A client too slow to send its body is not waited for again: its connection closes with the fault.
        Callback done = reason == FaultReason.REQUEST_TIMEOUT ? callback : BodyDrain.after(response.getRequest(), callback);
        response.write(true, ByteBuffer.wrap(body), done);
    }

}
