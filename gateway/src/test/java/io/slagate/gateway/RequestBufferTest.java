package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code gateway.requestBufferBytes}: the client connections' read buffer, which Jetty holds for as long as a request waits
 * (8 KB of direct memory per waiting request at Jetty's default). A small one must change nothing a client
 * sees: a head and a body several times its size arrive whole and in order, and the admin listener keeps its own.
 */
class RequestBufferTest {
    @Test
    void aOneKibBuffer_carriesAHeadAndABodyManyTimesItsSize_andTheAdminListenerKeepsItsOwn() throws Exception {
        try (TestBackend backend = new TestBackend()) {
            backend.behave(TestBackend.echo());
            Gateway g = new Gateway(TestConfigs.parse("""
                    gateway: { listen: "127.0.0.1:0", admin: "127.0.0.1:0", requestBufferBytes: 1KiB }
                    servers: [ { id: s1, url: "%s", concurrency: 4 } ]
                    classes: [ { name: basic, target: 1s } ]
                    """.formatted(backend.url()), "buffer.yaml")).start();
            try {
                assertArrayEquals(new int[] {1024, 8192}, g.dataPlane().inputBufferSizes(), "the client listener's, then the admin's");
                String body = Soap.envelope11("getQuote" + "x".repeat(20_000));
                String head = "X-Padding: " + "p".repeat(3_000) + "\r\n";
                for (int i = 0; i < 3; i++) {
                    RawHttp.Response r = RawHttp.exchange(g.port(), RawHttp.post("/services/S", head, body));
                    assertEquals(200, r.status());
                    assertEquals(body, r.body(), "the body as sent, every byte in order");
                }
                assertEquals(3, backend.received());
            } finally {
                g.stop(Duration.ofSeconds(5));
            }
        }
    }
}
