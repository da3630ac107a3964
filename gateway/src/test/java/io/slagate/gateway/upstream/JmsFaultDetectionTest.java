package io.slagate.gateway.upstream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A SOAP/JMS reply without SOAPJMS_isFault is a fault when its body has a Fault element near the start. */
class JmsFaultDetectionTest {
    private static boolean fault(String body) {
        return JmsDispatcher.looksLikeFault(body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void faultElements_inEitherSoapVersion_andNothingElse() {
        assertTrue(fault("<soapenv:Envelope><soapenv:Body><soapenv:Fault><faultcode>x</faultcode></soapenv:Fault></soapenv:Body></soapenv:Envelope>"));
        assertTrue(fault("<env:Envelope><env:Body><env:Fault xmlns:x=\"u\"><env:Code/></env:Fault></env:Body></env:Envelope>"));
        assertTrue(fault("<Envelope><Body><Fault>x</Fault></Body></Envelope>"));
        assertFalse(fault("<soapenv:Envelope><soapenv:Body><ns:getQuoteResponse>Faultless</ns:getQuoteResponse></soapenv:Body></soapenv:Envelope>"));
        assertFalse(fault("<a:FaultTolerance/>"), "a longer name is not a Fault element");
        assertFalse(fault(""));
        assertFalse(fault("<" + "x".repeat(5000) + "><soapenv:Fault>"), "only the first 4 KB are looked at");
    }
}
