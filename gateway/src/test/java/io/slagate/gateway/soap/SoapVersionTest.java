package io.slagate.gateway.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import org.junit.jupiter.api.Test;

class SoapVersionTest {
    @Test
    void fromContentType_bothVersionsAndMtom() {
        assertEquals(SoapVersion.SOAP_11, SoapVersion.fromContentType("text/xml; charset=UTF-8"));
        assertEquals(SoapVersion.SOAP_11, SoapVersion.fromContentType("TEXT/XML"));
        assertEquals(SoapVersion.SOAP_12, SoapVersion.fromContentType("application/soap+xml; charset=utf-8; action=\"urn:a\""));
        assertEquals(SoapVersion.SOAP_12, SoapVersion.fromContentType(
                "multipart/related; type=\"application/xop+xml\"; boundary=\"uuid:1\"; start=\"<root>\"; start-info=\"application/soap+xml\""));
        assertEquals(SoapVersion.SOAP_11, SoapVersion.fromContentType(
                "multipart/related; type=\"application/xop+xml\"; start-info=\"text/xml\"; boundary=x"));
        assertNull(SoapVersion.fromContentType("application/json"));
        assertNull(SoapVersion.fromContentType(null));
    }

    @Test
    void operation_soapActionFirst_thenSoap12ActionParameter() {
        assertEquals("urn:getQuote", SoapVersion.operation("\"urn:getQuote\"", "text/xml"));
        assertEquals("urn:getQuote", SoapVersion.operation("urn:getQuote", null));
        assertEquals("urn:buy", SoapVersion.operation(null, "application/soap+xml;charset=utf-8;action=\"urn:buy\""));
        assertEquals("urn:buy", SoapVersion.operation("\"\"", "application/soap+xml; action=urn:buy; charset=utf-8"));
        assertNull(SoapVersion.operation(null, "text/xml"));
        assertNull(SoapVersion.operation("\"\"", null));
    }
}
