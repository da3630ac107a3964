package io.slagate.gateway.testing;

import java.io.ByteArrayInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** SOAP envelopes for requests, and a real XML parse of the faults that come back. */
public final class Soap {
    public static final String NS11 = "http://schemas.xmlsoap.org/soap/envelope/";
    public static final String NS12 = "http://www.w3.org/2003/05/soap-envelope";

    private Soap() {
    }

    public static String envelope11(String op) {
        return "<?xml version=\"1.0\"?><soapenv:Envelope xmlns:soapenv=\"" + NS11 + "\"><soapenv:Body><ns:" + op
                + " xmlns:ns=\"urn:test\"><ns:symbol>IBM</ns:symbol></ns:" + op + "></soapenv:Body></soapenv:Envelope>";
    }

    public static String envelope12(String op) {
        return envelope11(op).replace(NS11, NS12);
    }

    public static final String WSSE = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
    public static final String WSU = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
    public static final String PASSWORD_TEXT =
            "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText";

    /** A SOAP 1.1 envelope whose header holds {@code headerBlocks} (written as they are). */
    public static String withHeader(String headerBlocks) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><soapenv:Envelope xmlns:soapenv=\"" + NS11 + "\" xmlns:wsse=\"" + WSSE
                + "\" xmlns:wsu=\"" + WSU + "\"><soapenv:Header>" + headerBlocks + "</soapenv:Header><soapenv:Body><ns:getQuote"
                + " xmlns:ns=\"urn:test\"><ns:symbol>IBM</ns:symbol></ns:getQuote></soapenv:Body></soapenv:Envelope>";
    }

    /** A WS-Security block with a PasswordText UsernameToken, as WSS4J or Rampart write it. */
    public static String usernameToken(String user, String password) {
        return "<wsse:Security soapenv:mustUnderstand=\"1\"><wsse:UsernameToken wsu:Id=\"UsernameToken-1\"><wsse:Username>" + user
                + "</wsse:Username><wsse:Password Type=\"" + PASSWORD_TEXT + "\">" + password + "</wsse:Password>"
                + "</wsse:UsernameToken></wsse:Security>";
    }

    /** What a parsed fault says. */
    public record Fault(String envelopeNs, String code, String reason, String className) {
    }

    /** Parses a fault body as XML (namespace-aware); fails the test if it is not one. */
    public static Fault parseFault(byte[] body) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document d = f.newDocumentBuilder().parse(new ByteArrayInputStream(body));
        Element env = d.getDocumentElement();
        if (!"Envelope".equals(env.getLocalName())) {
            throw new AssertionError("not an envelope: " + env.getLocalName());
        }
        String ns = env.getNamespaceURI();
        NodeList faults = d.getElementsByTagNameNS(ns, "Fault");
        if (faults.getLength() != 1) {
            throw new AssertionError("no Fault element");
        }
        String code;
        if (NS12.equals(ns)) {
            code = ((Element) d.getElementsByTagNameNS(ns, "Value").item(0)).getTextContent();
        } else {
            code = d.getElementsByTagName("faultcode").item(0).getTextContent();
        }
        String reason = d.getElementsByTagNameNS("urn:slagate:fault", "reason").item(0).getTextContent();
        var cls = d.getElementsByTagNameNS("urn:slagate:fault", "class").item(0);
        return new Fault(ns, code, reason, cls == null ? null : cls.getTextContent());
    }
}
