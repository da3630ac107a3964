package io.slagate.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.ConfigLoader;
import io.slagate.gateway.Gateway;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The WSDL of a real Axis2 service read through the gateway names the gateway's address only (Axis2
 * writes its own, ignoring Host and X-Forwarded-*), as the client reached it; a client's own
 * X-Forwarded-Host is not believed; and the schema a WSDL points to is fetched through the gateway too.
 */
class WsdlThroughTheGatewayTest {
    private static final Pattern LOCATION = Pattern.compile("(?:location|schemaLocation)=\"([^\"]+)\"");

    /** A raw GET (the Host header as given), its status line and body. */
    private static String[] get(int port, String target, String host, String extraHeader) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n" + extraHeader + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            String all = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int end = all.indexOf("\r\n\r\n");
            String head = all.substring(0, end);
            String body = all.substring(end + 4);
            Matcher len = Pattern.compile("(?im)^content-length:\\s*(\\d+)").matcher(head);
            if (len.find()) {
                assertEquals(Integer.parseInt(len.group(1)), body.getBytes(StandardCharsets.UTF_8).length, "Content-Length matches the rewritten body");
            }
            return new String[] {head.substring(0, head.indexOf("\r\n")), body};
        }
    }

    @Test
    void wsdlAndSchema_nameOnlyTheGatewaysAddress() throws Exception {
        try (BackendServer axis = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.of(Duration.ofMillis(1), 0.1))) {
            String backend = axis.urls().get(0);
            String backendAuthority = backend.replaceFirst("^http://", "").replaceFirst("/.*$", "");
            Gateway gw = new Gateway(ConfigLoader.parse("""
                    gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0" }
                    servers: [ { id: s1, url: "%s", concurrency: 4 } ]
                    classes: [ { name: basic, target: 1s } ]
                    """.formatted(backend), "wsdl-e2e")).start();
            try {
                String self = "127.0.0.1:" + gw.port();
                String[] direct = get(Integer.parseInt(backendAuthority.substring(backendAuthority.indexOf(':') + 1)),
                        "/services/StockUtility?wsdl", backendAuthority, "");
                assertTrue(direct[1].contains(backendAuthority), "Axis2 itself writes its own address: " + direct[1]);

                String[] wsdl = get(gw.port(), "/services/StockUtility?wsdl", self, "X-Forwarded-Host: evil.example\r\n");
                assertEquals("HTTP/1.1 200 OK", wsdl[0]);
                Matcher m = LOCATION.matcher(wsdl[1]);
                int absolute = 0;
                while (m.find()) {
                    if (m.group(1).startsWith("http")) {
                        absolute++;
                        assertTrue(m.group(1).startsWith("http://" + self + "/"), "the gateway's address: " + m.group(1));
                    }
                }
                assertTrue(absolute > 0, "the WSDL has endpoint addresses: " + wsdl[1]);
                assertFalse(wsdl[1].contains(backendAuthority), "no backend address left");
                assertFalse(wsdl[1].contains("evil.example"), "a client's X-Forwarded-Host is not believed");

                // the name the client used is the one it gets back
                String[] named = get(gw.port(), "/services/StockUtility?wsdl", "soap-gw.example:" + gw.port(), "");
                assertTrue(named[1].contains("location=\"http://soap-gw.example:" + gw.port() + "/services/StockUtility"), named[1]);

                // a schema the WSDL points to comes through the gateway as well
                Matcher xsd = Pattern.compile("schemaLocation=\"([^\"]*xsd=[^\"]+)\"").matcher(wsdl[1]);
                if (xsd.find()) {
                    String loc = xsd.group(1);
                    String target = loc.startsWith("http") ? loc.substring(loc.indexOf('/', 8)) : "/services/" + loc;
                    String[] schema = get(gw.port(), target, self, "");
                    assertEquals("HTTP/1.1 200 OK", schema[0]);
                    assertFalse(schema[1].contains(backendAuthority), schema[1]);
                }
            } finally {
                gw.stop(Duration.ofSeconds(2));
            }
        }
    }
}
