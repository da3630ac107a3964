package io.slagate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.listener.relay.RelayConnection;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import io.slagate.gateway.testing.TestConfigs;
import java.lang.reflect.Field;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.junit.jupiter.api.Test;

/**
 * A keep-alive client connection that is answered and quiet holds no read buffer, on either listener: ten thousand
 * quiet clients cost their connections' state, not ten thousand read buffers (bench/idle-connections.sh measures it).
 */
class IdleConnectionBufferTest {
    private static final int CLIENTS = 50;

    @Test
    void answeredQuietKeepAliveConnections_holdNoReadBuffer() throws Exception {
        try (TestBackend backend = new TestBackend()) {
            backend.behave(TestBackend.echo());
            Gateway g = new Gateway(TestConfigs.parse("""
                    gateway: { listen: "127.0.0.1:0", admin: "127.0.0.1:0" }
                    servers: [ { id: s1, url: "%s", concurrency: 8 } ]
                    classes: [ { name: basic, target: 1s } ]
                    """.formatted(backend.url()), "idle.yaml")).start();
            List<Socket> clients = new ArrayList<>();
            try {
                for (int i = 0; i < CLIENTS; i++) {
                    Socket s = RawHttp.open(g.port(), 10_000);
                    clients.add(s);
                    String request = i % 2 == 0 ? RawHttp.post("/svc", "", Soap.envelope11("getQuote"))
                            : "GET /svc?wsdl HTTP/1.1\r\nHost: gw\r\n\r\n"; // a body-less request: nothing released its buffer on the way
                    s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
                    assertEquals(200, RawHttp.read(s.getInputStream()).status());
                }
                Field jettyBuffer = HttpConnection.class.getDeclaredField("_requestBuffer");
                jettyBuffer.setAccessible(true);
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                long holding;
                do {
                    holding = 0;
                    for (Connection c : g.dataPlane().clientConnections()) {
                        if (c instanceof HttpConnection && jettyBuffer.get(c) != null || c instanceof RelayConnection r && r.holdsBuffer()) {
                            holding++;
                        }
                    }
                } while (holding > 0 && System.nanoTime() - deadline < 0);
                assertTrue(g.dataPlane().clientConnections().size() >= CLIENTS, "the clients' connections are open: " + g.dataPlane().clientConnections().size());
                assertEquals(0, holding, "quiet connections holding a read buffer");
            } finally {
                for (Socket s : clients) {
                    s.close();
                }
                g.stop(Duration.ofSeconds(2));
            }
        }
    }
}
