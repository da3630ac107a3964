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
