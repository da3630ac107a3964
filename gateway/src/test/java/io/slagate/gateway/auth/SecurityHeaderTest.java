package io.slagate.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.AuthenticationSettings;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.testing.Soap;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/** The SOAP header's WS-Security read strictly: the token found and cut cleanly, and every hostile header refused. */
class SecurityHeaderTest {
    private static final long NOW = Instant.parse("2026-12-05T12:00:00Z").toEpochMilli();
    private final SecurityHeader header = new SecurityHeader(new AuthenticationSettings.WsSecurity(true, 64 * 1024, Duration.ofMinutes(5)));

    private SecurityHeader.Read read(String envelope) {
        byte[] b = envelope.getBytes(StandardCharsets.UTF_8);
        return header.read(b, b.length, true, NOW);
    }

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aPasswordTextToken_isRead_andItsSecurityBlockCutsOutCleanly() throws Exception {
        String env = Soap.withHeader("<other:Trace xmlns:other=\"urn:x\">t</other:Trace>" + Soap.usernameToken("gold-customer", "s3&amp;c&#x72;et\r\n"));
        SecurityHeader.Read r = read(env);
        assertEquals("gold-customer", r.user());
        assertEquals("s3&cret\n", r.password(), "entities, character references and line ends as a parser reads them");
        byte[] b = env.getBytes(StandardCharsets.UTF_8);
        String rest = new String(b, 0, r.from(), StandardCharsets.UTF_8) + new String(b, r.to(), b.length - r.to(), StandardCharsets.UTF_8);
        Document d = parse(rest);
        assertEquals(0, d.getElementsByTagNameNS(Soap.WSSE, "Security").getLength(), "no Security block left");
        assertEquals(1, d.getElementsByTagNameNS("urn:x", "Trace").getLength(), "the other header blocks stay");
        assertFalse(rest.contains("s3"), rest);
    }

    @Test
    void soap12_aTimestampInItsWindow_andAnEmptyOrAbsentHeader() {
        String ts = "<wsu:Timestamp><wsu:Created>2026-12-05T11:59:00Z</wsu:Created><wsu:Expires>2026-12-05T12:04:00Z</wsu:Expires></wsu:Timestamp>";
        String env12 = Soap.withHeader(Soap.usernameToken("acme", "pw").replace("<wsse:UsernameToken", ts + "<wsse:UsernameToken"))
                .replace(Soap.NS11, Soap.NS12);
        assertEquals("acme", read(env12).user());
        assertFalse(read(Soap.withHeader("")).hasToken());
        assertEquals(null, read(Soap.envelope11("getQuote")).fault(), "no header: nothing to read");
        assertEquals(null, read("<order xmlns=\"urn:x\"><wsse:Security xmlns:wsse=\"" + Soap.WSSE + "\"/></order>").fault(),
                "XML that is no SOAP envelope: nothing of the gateway's");
        assertEquals(FaultReason.SECURITY_HEADER_INVALID, read("{\"not\": \"xml\"}").fault(), "a SOAP body that is no XML");
        assertEquals("acme", read(Soap.withHeader(Soap.usernameToken("acme", "pw").replace("<wsse:Security",
                "<wsse:Security soapenv:actor=\" \""))).user(), "an empty actor is the default one, as WSS libraries read it");
    }

    @Test
    void everyHostileHeader_isAFault() {
        String token = Soap.usernameToken("acme", "pw");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(token + token), "two Security blocks");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY a \"b\">]>"
                + Soap.withHeader(token).substring(Soap.withHeader(token).indexOf("?>") + 2), "a DTD");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(Soap.usernameToken("&a;", "pw")), "an entity");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader("<x:Big xmlns:x=\"urn:x\">" + "y".repeat(1 << 20) + "</x:Big>" + token),
                "a 1 MB header");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader("<x:a xmlns:x=\"urn:x\">".repeat(100) + "</x:a>".repeat(100) + token),
                "deep nesting");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(token.replaceAll("<wsse:Password.*</wsse:Password>", "")),
                "a missing password");
        assertFault(FaultReason.MUST_UNDERSTAND, Soap.withHeader("<x:Tx xmlns:x=\"urn:x\" soapenv:mustUnderstand=\"1\""
                + " soapenv:actor=\"http://schemas.xmlsoap.org/soap/actor/next\">1</x:Tx>" + token), "mustUnderstand for the gateway");
        assertFault(FaultReason.PASSWORD_DIGEST_UNSUPPORTED, Soap.withHeader(token.replace("#PasswordText", "#PasswordDigest")), "a digest");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(token.replace("</wsse:Security>",
                "<ds:Signature xmlns:ds=\"http://www.w3.org/2000/09/xmldsig#\"/></wsse:Security>")), "a signature it cannot keep whole");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader("<wsu:Timestamp><wsu:Expires>2026-12-05T11:00:00Z"
                + "</wsu:Expires></wsu:Timestamp>" + token).replace("<wsse:UsernameToken", "</wsse:Security><wsse:Security><wsse:UsernameToken")
                .replace("<wsu:Timestamp>", "<wsse:Security><wsu:Timestamp>"), "two blocks again, one expired");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(token.replace("<wsse:UsernameToken",
                "<wsu:Timestamp><wsu:Expires>2026-12-05T11:00:00Z</wsu:Expires></wsu:Timestamp><wsse:UsernameToken")), "an expired Timestamp");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(token).replace("UTF-8", "ISO-8859-1"), "another encoding");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(token).replace("<soapenv:Body>", "<?pi x?><soapenv:Body>")
                .replace("</soapenv:Header>", "<?pi x?></soapenv:Header>"), "a processing instruction");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(token).substring(0, 300), "a body that ends in its header");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(token.replace("</wsse:Username>", "</wsse:Password>")),
                "tags that do not match");
    }

    /** What parsers on the server read differently from a strict reader is refused, never passed on unread. */
    @Test
    void whatAServerCouldReadAsAToken_butTheGatewayWouldNot_isAFault() {
        String token = Soap.usernameToken("acme", "pw");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(token).replace("version=\"1.0\"", "version=\"1.1\""), "XML 1.1");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(token.replace("wsse:Security", "wsse:Security\u0085")),
                "a name that ends in NEL (a name character to one parser, a line end to another)");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(token.replace("<wsse:Security", "<wsse:Security soapenv:actor=\"urn:next-hop\"")),
                "a Security block for another actor: it would go on unread");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader("<wsse:UsernameToken><wsse:Username>a</wsse:Username>"
                + "</wsse:UsernameToken>"), "a WS-Security element standing as a header block of its own");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader("").replace("<soapenv:Body>", "<soapenv:Header>" + token
                + "</soapenv:Header><soapenv:Body>"), "a second Header");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.envelope11("getQuote").replace("</soapenv:Envelope>", "<soapenv:Header>"
                + token.replace("soapenv:mustUnderstand=\"1\"", "xmlns:wsse=\"" + Soap.WSSE + "\"") + "</soapenv:Header></soapenv:Envelope>"),
                "a Header after the Body");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(token.replace("<wsse:Password Type", "<wsse:Password x=\"1\" Type")
                .replace(">pw<", "><!-- c -->pw<")), "a comment inside the password (one text to us, two to a DOM reader)");
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader(token.replace(">acme<", "><![CDATA[ac]]>me<")), "CDATA in the name");
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 70; i++) {
            many.append(" xmlns:p").append(i).append("=\"urn:p").append(i).append('"');
        }
        assertFault(FaultReason.SECURITY_HEADER_INVALID, Soap.withHeader("<x:A xmlns:x=\"urn:x\"" + many + "/>" + token),
                "namespace declarations past the bound (each name is looked up among them)");
    }

    private void assertFault(FaultReason expected, String envelope, String what) {
        SecurityHeader.Read r = read(envelope);
        assertEquals(expected, r.fault(), what + ": " + r.why());
        assertTrue(!r.hasToken(), what);
    }

    @Test
    void aHeaderLongerThanTheBound_isRefusedWithoutReadingPastIt() {
        String env = Soap.withHeader("<x:Pad xmlns:x=\"urn:x\">" + "p".repeat(70_000) + "</x:Pad>" + Soap.usernameToken("a", "b"));
        byte[] b = env.getBytes(StandardCharsets.UTF_8);
        assertEquals(FaultReason.SECURITY_HEADER_INVALID, header.read(b, 64 * 1024, false, NOW).fault(),
                "only the first 64 KiB were read, and the header had not ended");
    }
}
