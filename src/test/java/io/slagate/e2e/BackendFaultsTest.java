package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.ConfigLoader;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.testing.TestBackend;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Locale;
import org.awaitility.Awaitility;
import org.eclipse.jetty.client.HttpClient;
import org.junit.jupiter.api.Test;

/**
 * Backend faults under load: a server that hangs, then refuses connections, then comes
 * back. Clients are never left hanging (the server timeout answers them with a fault), the server
 * is taken out of rotation, the healthy one carries the load, and the returning server is probed
 * back in. The times to eject and to recover are printed for docs/RELIABILITY.md.
 */
class BackendFaultsTest {
    @Test
    void hangRefuseReturn_clientsAnswered_serverEjectedAndRestored() throws Exception {
        TestBackend s1 = new TestBackend();
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        TestBackend s2 = new TestBackend(port); // a fixed port, so that it comes back where the gateway looks
        s1.behave(s1.delayed(10));
        s2.behave(s2.delayed(10));
        Gateway gw = new Gateway(ConfigLoader.parse("""
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  serverTimeout: 1s
                  connectTimeout: 500ms
                  health: { failuresToEject: 3, backoff: 200ms, maxBackoff: 1s }
                servers:
                  - { id: s1, url: "%s", concurrency: 4 }
                  - { id: s2, url: "%s", concurrency: 4 }
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                """.formatted(s1.url(), s2.url()), "faults")).start();
        HttpClient client = new HttpClient();
        client.start();
        try {
            ClosedLoopLoad load = new ClosedLoopLoad(client, gw.port(), "urn:getQuote", 8);
            await().atMost(Duration.ofSeconds(20)).until(() -> s2.received() > 50 && s1.received() > 50);

            s2.behave(s2.hold()); // hangs: accepts and never answers
            long hangAt = System.nanoTime();
            await("the hanging server is taken out").atMost(Duration.ofSeconds(20)).until(() -> !gw.queues().server(1).inRotation());
            double ejectSeconds = (System.nanoTime() - hangAt) / 1e9;
            long s1Before = s1.received();
            await("the healthy server carries the load").atMost(Duration.ofSeconds(20)).until(() -> s1.received() > s1Before + 200);

            s2.stop(); // now it refuses connections (and its held requests are cut)
            long servedDown = load.ok();
            await().atMost(Duration.ofSeconds(20)).until(() -> load.ok() > servedDown + 200);

            s2.behave(s2.delayed(10));
            s2.start();
            long backAt = System.nanoTime();
            long s2Before = s2.received();
            await("the returning server is probed back in").atMost(Duration.ofSeconds(20))
                    .until(() -> gw.queues().server(1).inRotation() && s2.received() > s2Before + 20);
            double recoverSeconds = (System.nanoTime() - backAt) / 1e9;

            load.close();
            System.out.printf(Locale.ROOT, "backend faults: sent %d, ok %d, faults %d; ejected after %.2f s; back in %.2f s%n",
                    load.sent(), load.ok(), load.failed(), ejectSeconds, recoverSeconds);
            assertEquals(load.sent(), load.ok() + load.failed(), "every request answered, none left hanging");
            assertTrue(load.failed() <= 40, "only the requests caught on the hanging server fail: " + load.failed());
            assertTrue(ejectSeconds < 10, "ejected within a few server timeouts: " + ejectSeconds);
            // a completion is counted once its last write's callback ran, which may be just after the client read it
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gw.metrics().inFlight() == 0);
            assertEquals(gw.metrics().totals().arrived(), gw.metrics().totals().completed() + gw.metrics().totals().faulted()
                    + gw.metrics().inFlight(), "the gateway's counters balance");
        } finally {
            client.stop();
            gw.stop(Duration.ofSeconds(3));
            s1.close();
            s2.close();
        }
    }
}
