package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import io.slagate.gateway.listener.relay.RelayConnection;
import org.eclipse.jetty.io.Connection;
import io.slagate.gateway.listener.jetty.RequestBufferRelease;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.junit.jupiter.api.Test;

/**
 * A request waiting in its class's queue, its body read, holds no read buffer of its client connection: Jetty would
 * keep one per connection until the answer ({@code RequestBufferRelease} gives it back through a package-private
 * method of Jetty's; the relay listener gives its pooled buffer back itself). Fails if a Jetty upgrade changes that
 * method's behaviour, and shows what turning it off costs.
 */
class WaitingRequestBufferTest {
    private static final int WAITING = 40;

    /**
     * Client connections holding a read buffer with {@value #WAITING} requests waiting behind one held by the server. The
     * buffer is Jetty's private field: a Jetty that renames it fails here, which is the point (the shim is re-checked).
     */
    private static long inUseWhileWaiting(boolean release) throws Exception {
        try (TestBackend backend = new TestBackend()) {
            backend.behave(backend.hold());
            Gateway g = new Gateway(TestConfigs.parse("""
                    gateway: { listen: "127.0.0.1:0", admin: "127.0.0.1:0", requestBufferBytes: 1KiB, releaseRequestBuffer: %s }
                    servers: [ { id: s1, url: "%s", concurrency: 1 } ]
                    classes: [ { name: basic, target: 1s, queueBound: 1000 } ]
                    """.formatted(release, backend.url()), "waiting.yaml")).start();
            List<Socket> clients = new ArrayList<>();
            try {
                // a body larger than the read buffer: the request is not parsed whole before its handler runs (then Jetty
                // would release the buffer itself), so the buffer outlives the body's last read unless given back
                String request = RawHttp.post("/services/S", "", Soap.envelope11("getQuote" + "x".repeat(20_000)));
                for (int i = 0; i <= WAITING; i++) {
                    Socket s = RawHttp.open(g.port(), 10_000);
                    clients.add(s);
                    OutputStream out = s.getOutputStream();
                    out.write(request.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
                await(() -> backend.heldCount() == 1 && g.queues().counts().waiting(0) == WAITING);
                Field buffer = HttpConnection.class.getDeclaredField("_requestBuffer");
                buffer.setAccessible(true);
                long holding = 0;
                for (Connection c : g.dataPlane().clientConnections()) {
                    if (c instanceof HttpConnection && buffer.get(c) != null || c instanceof RelayConnection r && r.holdsBuffer()) {
                        holding++;
                    }
                }
                return holding;
            } finally {
                for (Socket s : clients) {
                    s.close();
                }
                g.stop(Duration.ofSeconds(5));
            }
        }
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "the requests did not all reach the queue");
            Thread.sleep(10);
        }
    }

    @Test
    void waitingRequests_holdNoReadBuffer() throws Exception {
        assertTrue(RequestBufferRelease.releases(), "this Jetty has the method the gateway releases buffers by");
        long inUse = inUseWhileWaiting(true);
        assertTrue(inUse < WAITING / 4, inUse + " client connections holding a read buffer with " + WAITING + " requests waiting");
    }

    @Test
    void releaseTurnedOff_eachWaitingRequestHoldsItsBuffer() throws Exception {
        long inUse = inUseWhileWaiting(false);
        assertTrue(inUse >= WAITING, inUse + " client connections holding a read buffer with " + WAITING + " requests waiting");
    }
}
