package io.slagate.gateway.ingress;

import io.slagate.gateway.soap.SoapVersion;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;

/**
 * The request's traffic class (section III-A), from HTTP metadata only, never the SOAP body: its customer (and so its
 * subscription grade), service, SOAPAction; and the SOAP version its Content-Type names.
 */
final class ClassificationStage implements IngressStage {
    @Override
    public Verdict apply(Ingress in) {
        HttpFields headers = in.request.getHeaders();
        String contentType = headers.get(HttpHeader.CONTENT_TYPE);
        in.version = SoapVersion.fromContentType(contentType);
        in.service = in.request.getHttpURI().getPath();
        in.operation = SoapVersion.operation(headers.get("SOAPAction"), contentType);
        Ingress.Classification cl = in.classification;
        in.cls = cl.split().route(cl.classifier().classify(in.customer, in.service, in.operation));
        return Verdict.NEXT;
    }
}
