package io.slagate.gateway.soap;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors that Jetty answers itself, before a request reaches the gateway's handler (a request line
 * that does not parse, headers over the limit, a bad URI), answered as SOAP 1.1 Faults with
 * Jetty's HTTP status (400, 431, 414…) instead of an HTML page: a SOAP client gets a fault it can
 * parse, with the reason {@code malformed-request} or {@code request-too-large}.
 */
public final class SoapErrorHandler extends ErrorHandler {
    private final String gatewayId;

    public SoapErrorHandler(String gatewayId) {
        this.gatewayId = gatewayId;
    }

    private static FaultReason reason(int status) {
        return status == 413 || status == 431 || status == 414 ? FaultReason.REQUEST_TOO_LARGE : FaultReason.MALFORMED_REQUEST;
    }

    private byte[] fault(int status) {
        return SoapFaults.body(SoapVersion.SOAP_11, reason(status), null, gatewayId);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, SoapVersion.SOAP_11.contentType());
        fields.put("X-Slagate-Fault", reason(status).code());
        return ByteBuffer.wrap(fault(status));
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) throws IOException {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, SoapVersion.SOAP_11.contentType());
        response.getHeaders().put("X-Slagate-Fault", reason(code).code());
        response.write(true, ByteBuffer.wrap(fault(code)), callback);
    }
}
