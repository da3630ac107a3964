package io.slagate.gateway.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The address rewriting of service descriptions, on documents whose right answer is written out by hand. */
class WsdlAddressesTest {
    private static String rewrite(String doc, String base) {
        ByteBuffer out = WsdlAddresses.rewrite(ByteBuffer.wrap(doc.getBytes(StandardCharsets.UTF_8)), base);
        return StandardCharsets.UTF_8.decode(out).toString();
    }

    @Test
    void everyAbsoluteLocation_getsTheGatewaysSchemeAndAuthority_pathsStay() {
        String doc = """
                <wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
                  <wsdl:import namespace="urn:x" location="http://10.0.0.21:8080/services/Other?wsdl"/>
                  <xsd:import schemaLocation='https://backend.internal/services/StockUtility?xsd=xsd0.xsd'/>
                  <xsd:include schemaLocation="StockUtility?xsd=xsd1.xsd"/>
                  <soap:address location="http://127.0.0.1:9001/services/StockUtility.StockUtilityHttpSoap11Endpoint/"/>
                  <soap12:address location = "http://[::1]:9001/services/StockUtility"/>
                  <wsdl:documentation>Prix en €, see http://127.0.0.1:9001/ for details</wsdl:documentation>
                </wsdl:definitions>""";
        String want = """
                <wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
                  <wsdl:import namespace="urn:x" location="https://gw.example:8443/services/Other?wsdl"/>
                  <xsd:import schemaLocation='https://gw.example:8443/services/StockUtility?xsd=xsd0.xsd'/>
                  <xsd:include schemaLocation="StockUtility?xsd=xsd1.xsd"/>
                  <soap:address location="https://gw.example:8443/services/StockUtility.StockUtilityHttpSoap11Endpoint/"/>
                  <soap12:address location = "https://gw.example:8443/services/StockUtility"/>
                  <wsdl:documentation>Prix en €, see http://127.0.0.1:9001/ for details</wsdl:documentation>
                </wsdl:definitions>""";
        assertEquals(want, rewrite(doc, "https://gw.example:8443"));
    }

    @Test
    void documentWithoutAbsoluteLocations_isTheSameBuffer() {
        ByteBuffer doc = ByteBuffer.wrap("<xs:schema><xs:include schemaLocation=\"a.xsd\"/></xs:schema>".getBytes(StandardCharsets.UTF_8));
        assertSame(doc, WsdlAddresses.rewrite(doc, "http://gw:8080"));
        assertEquals(0, doc.position(), "not consumed");
    }
}
