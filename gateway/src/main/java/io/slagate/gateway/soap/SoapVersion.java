package io.slagate.gateway.soap;

import java.util.Locale;

/**
 * The SOAP version of a request, told from its Content-Type alone: SOAP 1.1 travels as
 * {@code text/xml}, SOAP 1.2 as {@code application/soap+xml}; an MTOM/XOP request
 * ({@code multipart/related}) names the inner type in its {@code start-info} or {@code type} parameter.
 */
public enum SoapVersion {
    SOAP_11("text/xml; charset=utf-8", "http://schemas.xmlsoap.org/soap/envelope/"),
    SOAP_12("application/soap+xml; charset=utf-8", "http://www.w3.org/2003/05/soap-envelope");

    private final String contentType;
    private final String envelopeNamespace;

    SoapVersion(String contentType, String envelopeNamespace) {
        this.contentType = contentType;
        this.envelopeNamespace = envelopeNamespace;
    }

    public String contentType() {
        return contentType;
    }

    public String envelopeNamespace() {
        return envelopeNamespace;
    }

    /** The version a Content-Type announces, or null when it is not a SOAP content type. */
    public static SoapVersion fromContentType(String contentType) {
        if (contentType == null) {
            return null;
        }
        String ct = contentType.toLowerCase(Locale.ROOT);
        if (ct.startsWith("application/soap+xml")) {
            return SOAP_12;
        }
        if (ct.startsWith("text/xml")) {
            return SOAP_11;
        }
        if (ct.startsWith("multipart/related")) {
            String startInfo = MediaTypes.parameter(contentType, "start-info");
            String type = MediaTypes.parameter(contentType, "type");
            String inner = startInfo != null ? startInfo : type;
            return inner != null && inner.toLowerCase(Locale.ROOT).startsWith("application/soap+xml") ? SOAP_12 : SOAP_11;
        }
        return null;
    }

    /**
     * The operation of a request: the SOAPAction header (SOAP 1.1), else the {@code action} parameter
     * of a SOAP 1.2 Content-Type; quotes removed; null when neither names one.
     */
    public static String operation(String soapAction, String contentType) {
        String a = soapAction;
        if (a == null || a.isBlank() || a.equals("\"\"")) {
            a = contentType == null ? null : MediaTypes.parameter(contentType, "action");
        }
        if (a == null) {
            return null;
        }
        a = a.trim();
        if (a.length() >= 2 && a.charAt(0) == '"' && a.charAt(a.length() - 1) == '"') {
            a = a.substring(1, a.length() - 1);
        }
        return a.isEmpty() ? null : a;
    }
}
