package io.slagate.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.ControlBus;
import io.slagate.bus.EmbeddedBroker;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The login race over real HTTP: 40 wrong passwords sent at once from one address check at
 * most the free attempts, and cannot lock the operator out at another address.
 */
class LoginThrottleHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path dir;

    /** POST /api/login from a chosen local address (the whole of 127/8 is this machine); the HTTP status. */
    private static int loginFrom(int port, String localAddress, String user, String password) throws Exception {
        byte[] body = JSON.writeValueAsBytes(Map.of("user", user, "password", password));
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(localAddress, 0));
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(20_000);
            String head = "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
            s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().write(body);
            String status = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(status.split(" ")[1]);
        }
    }

    @Test
    void fortyConcurrentWrongPasswords_atMostFiveChecked_operatorElsewhereLogsIn() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start("login-throttle-test", "", null, null);
             ControlBus bus = new ControlBus(broker.vmUrl(), null, null, "console").start();
             // the throttle's clock stands still: however long 40 requests take on this machine, the 1 s wait after the
             // fifth failure has not passed when the guessing address tries the right password
             ConsoleServer console = ConsoleServer.start(ConsoleApiTest.config(dir), bus,
                     new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), () -> 42_000_000_000L)) {
            console.putUser("operator", Role.ADMIN, "operator-password-for-test".toCharArray());
            int port = console.port();
            ExecutorService pool = Executors.newFixedThreadPool(40);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> all = new ArrayList<>();
            int checked = 0;
            int throttled = 0;
            try {
                for (int i = 0; i < 40; i++) {
                    int n = i;
                    all.add(pool.submit(() -> {
                        go.await();
                        return loginFrom(port, "127.0.0.1", "operator", "wrong-" + n);
                    }));
                }
                go.countDown();
                for (Future<Integer> f : all) {
                    int status = f.get(60, TimeUnit.SECONDS);
                    if (status == 401) {
                        checked++;
                    } else if (status == 429) {
                        throttled++;
                    }
                }
            } finally {
                pool.shutdownNow();
            }
            System.out.println("console login: 40 concurrent wrong passwords -> " + checked + " checked (401), "
                    + throttled + " throttled (429)");
            assertTrue(checked <= LoginThrottle.DEFAULT_FREE_FAILURES, "password checks: " + checked);
            assertEquals(40, checked + throttled);
            assertEquals(429, loginFrom(port, "127.0.0.1", "operator", "operator-password-for-test"),
                    "the guessing address waits, even with the right password");
            assertEquals(200, loginFrom(port, "127.0.0.2", "operator", "operator-password-for-test"),
                    "the operator at another address logs in at once");
        }
    }
}
