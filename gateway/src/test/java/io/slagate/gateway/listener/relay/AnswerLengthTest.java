package io.slagate.gateway.listener.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An answer whose bytes do not match the Content-Length its head announced never leaves a keep-alive connection out
 * of step: the relay listener closes the connection (as Jetty's generator fails the exchange) and counts it.
 */
class AnswerLengthTest {
    private final Server server = new Server();
    private final RelayConnectionFactory relay = new RelayConnectionFactory(new HttpConfiguration(), 8192, 1 << 20);
    private final LocalConnector connector = new LocalConnector(server, relay);
    private volatile int bodyBytes;

    AnswerLengthTest() throws Exception {
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 10);
                response.write(true, ByteBuffer.wrap(new byte[bodyBytes]), callback);
                return true;
            }
        });
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    private String exchange() throws Exception {
        try (LocalConnector.LocalEndPoint client = connector.executeRequest(
                "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n")) {
            client.waitUntilClosedOrIdleFor(2, TimeUnit.SECONDS);
            return StandardCharsets.ISO_8859_1.decode(client.takeOutput()).toString();
        }
    }

    @Test
    void theAnnouncedLength_passesAndTheConnectionGoesOn() throws Exception {
        bodyBytes = 10;
        String out = exchange();
        assertEquals(2, out.split("HTTP/1.1 200", -1).length - 1, "both pipelined requests answered: " + out);
        assertEquals(0.0, relay.lengthMismatches());
    }

    @Test
    void moreOrFewerBytes_closeTheConnection_andAreCounted() throws Exception {
        for (int n : new int[] {20, 4}) {
            bodyBytes = n;
            String out = exchange();
            assertTrue(out.split("HTTP/1.1 200", -1).length - 1 <= 1, "the second request is never read as the first's body: " + out);
            assertTrue(out.length() < 40 + 2 * 200, out);
        }
        assertEquals(2.0, relay.lengthMismatches());
    }
}
