package io.slagate.gateway.soap;

import io.slagate.config.FaultStatus;
import java.nio.charset.StandardCharsets;

/**
 * Builds the SOAP Faults the gateway answers with, in the request's SOAP version, and picks the
 * HTTP status that carries them ({@link FaultStatus}).
 */
public final class SoapFaults {
    public static final String NAMESPACE = "urn:slagate:fault";

    private SoapFaults() {
    }

    public static int httpStatus(FaultStatus policy, SoapVersion version, FaultReason reason) {
        if (policy == FaultStatus.HTTP || reason == FaultReason.METHOD_NOT_ALLOWED || reason == FaultReason.UNAUTHENTICATED) {
            // a method the gateway does not forward is no SOAP exchange, and a client must see 401 to answer a
            // challenge: HTTP's own status whatever the policy
            return reason.httpStatus();
        }
        // WS-I BP R1126: a SOAP 1.1 fault goes with 500. SOAP 1.2 HTTP binding: Sender → 400, Receiver → 500.
        return version == SoapVersion.SOAP_12 && reason.senderFault() ? 400 : 500;
    }

    public static byte[] body(SoapVersion version, FaultReason reason, String className, String gatewayId) {
        String detail = "<sg:gatewayFault xmlns:sg=\"" + NAMESPACE + "\"><sg:reason>" + reason.code() + "</sg:reason>"
                + (className == null ? "" : "<sg:class>" + escape(className) + "</sg:class>")
                + "<sg:gateway>" + escape(gatewayId) + "</sg:gateway></sg:gatewayFault>";
        String xml;
        if (version == SoapVersion.SOAP_12) {
            xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                    + "<env:Envelope xmlns:env=\"" + version.envelopeNamespace() + "\"><env:Body><env:Fault>"
                    + "<env:Code><env:Value>env:" + (reason.senderFault() ? "Sender" : "Receiver") + "</env:Value>"
                    + "<env:Subcode><env:Value xmlns:sg=\"" + NAMESPACE + "\">sg:" + reason.code() + "</env:Value></env:Subcode></env:Code>"
                    + "<env:Reason><env:Text xml:lang=\"en\">" + escape(reason.text()) + "</env:Text></env:Reason>"
                    + "<env:Detail>" + detail + "</env:Detail>"
                    + "</env:Fault></env:Body></env:Envelope>";
        } else {
            xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                    + "<soap:Envelope xmlns:soap=\"" + version.envelopeNamespace() + "\"><soap:Body><soap:Fault>"
                    + "<faultcode>soap:" + (reason.senderFault() ? "Client" : "Server") + "</faultcode>"
                    + "<faultstring>" + escape(reason.text()) + "</faultstring>"
                    + "<detail>" + detail + "</detail>"
                    + "</soap:Fault></soap:Body></soap:Envelope>";
        }
        return xml.getBytes(StandardCharsets.UTF_8);
    }

    static String escape(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            String rep = switch (ch) {
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '&' -> "&amp;";
                case '"' -> "&quot;";
                default -> null;
            };
            if (rep != null) {
                if (sb == null) {
                    sb = new StringBuilder(s.substring(0, i));
                }
                sb.append(rep);
            } else if (sb != null) {
                sb.append(ch);
            }
        }
        return sb == null ? s : sb.toString();
    }
}
