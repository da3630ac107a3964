package io.slagate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.testing.DigestServer;
import io.slagate.gateway.testing.TestConfigs;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every body reaches the server as the client sent it, and every answer is its own request's: keep-alive clients post
 * random bodies of 1 B to 60 KB (some pipelined behind the one before, some sent as a burst then a trickle) through a
 * gateway that buffers only 1 KiB of a body before admission, to a server that reads slowly and takes two requests at
 * a time, so that requests wait in the queue while their bodies arrive and then stream upstream while the gateway's
 * writes back up; meanwhile another client keeps disconnecting in the middle of its bodies. The server answers each request with the SHA-256 of what it received: compared byte for byte with what was
 * sent, on both client listeners and two read-buffer sizes.
 */
class BodyIntegrityTest {
    private static final int CLIENTS = 6;
    private static final int REQUESTS = 70;

    private record Tally(int sent, int changed, int foreign, int failed) {
    }

    @ParameterizedTest(name = "read buffer {0}")
    @ValueSource(strings = {"64KiB", "8KiB"})
    void everyBodyArrivesAsSent_andEveryAnswerIsItsOwn(String readBuffer) throws Exception {
        try (DigestServer server = new DigestServer(200_000, 10_000_000)) {
            Gateway gw = new Gateway(TestConfigs.parse("""
                    gateway:
                      id: gw1
                      listen: "127.0.0.1:0"
                      admin: "127.0.0.1:0"
                      bufferedRequestBytes: 1KiB
                      requestBufferBytes: %s
                      serverTimeout: 60s
                    servers: [ { id: s1, url: "%s", concurrency: 2 } ]
                    classes: [ { name: basic, target: 2s, queueTimeout: 60s } ]
                    """.formatted(readBuffer, server.url()), "integrity")).start();
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 1);
            try {
                List<Future<Tally>> clients = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    int seed = c;
                    clients.add(pool.submit(() -> client(gw.port(), seed)));
                }
                AtomicInteger leaving = new AtomicInteger();
                Future<?> quitter = pool.submit(() -> quitter(gw.port(), leaving));
                int sent = 0;
                int changed = 0;
                int foreign = 0;
                int failed = 0;
                for (Future<Tally> f : clients) {
                    Tally t = f.get(5, TimeUnit.MINUTES);
                    sent += t.sent();
                    changed += t.changed();
                    foreign += t.foreign();
                    failed += t.failed();
                }
                leaving.set(-1);
                quitter.get(1, TimeUnit.MINUTES);
                assertEquals(CLIENTS * REQUESTS, sent);
                assertEquals(0, changed, "bodies that reached the server changed");
                assertEquals(0, foreign, "answers that were another request's");
                assertEquals(0, failed, "requests not answered 200");
                assertTrue(server.received() >= sent, server.received() + " bodies read whole by the server");
            } finally {
                pool.shutdownNow();
                gw.stop(Duration.ofSeconds(2));
            }
        }
    }

    /** One keep-alive client: REQUESTS bodies, each checked against the server's digest of what it got. */
    private static Tally client(int port, int seed) {
        Random random = new Random(seed);
        int changed = 0;
        int foreign = 0;
        int failed = 0;
        int sent = 0;
        int answered = 0;
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(120_000);
            OutputStream out = s.getOutputStream();
            InputStream in = new BufferedInputStream(s.getInputStream());
            while (sent < REQUESTS) {
                boolean pipelined = sent + 1 < REQUESTS && random.nextInt(4) == 0;
                List<String[]> expected = new ArrayList<>();
                for (int k = 0; k < (pipelined ? 2 : 1); k++) {
                    byte[] body = new byte[1 + random.nextInt(60_000)];
                    random.nextBytes(body);
                    String id = seed + "-" + sent;
                    send(out, id, body, !pipelined && random.nextInt(3) == 0);
                    expected.add(new String[] {id, DigestServer.digest(body)});
                    sent++;
                }
                for (String[] e : expected) {
                    String[] answer = answer(in);
                    answered++;
                    if (answer == null) {
                        failed++;
                    } else if (!answer[0].equals(e[0])) {
                        foreign++;
                    } else if (!answer[1].equals(e[1])) {
                        changed++;
                    }
                }
            }
        } catch (IOException closed) { // the gateway closed the connection: every request not answered failed
            failed += sent - answered;
            sent = REQUESTS;
        }
        return new Tally(sent, changed, foreign, failed);
    }

    /** A request whose body comes whole, or ({@code trickle}) half at once and the rest in 512-byte pieces. */
    private static void send(OutputStream out, String id, byte[] body, boolean trickle) throws IOException {
        out.write(("POST /svc HTTP/1.1\r\nHost: gw\r\nContent-Type: text/xml\r\nSOAPAction: \"urn:x\"\r\nX-Id: " + id
                + "\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        if (!trickle) {
            out.write(body);
            out.flush();
            return;
        }
        int half = body.length / 2;
        out.write(body, 0, half);
        out.flush();
        for (int at = half; at < body.length; at += 512) {
            out.write(body, at, Math.min(512, body.length - at));
            out.flush();
            LockSupport.parkNanos(50_000); // a trickle, by design
        }
    }

    /** The server's "id digest" of a 200 answer, or null for any other status. */
    private static String[] answer(InputStream in) throws IOException {
        String status = line(in);
        int length = 0;
        String l;
        while (!(l = line(in)).isEmpty()) {
            if (l.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Integer.parseInt(l.substring(15).trim());
            }
        }
        String body = new String(in.readNBytes(length), StandardCharsets.US_ASCII);
        if (!status.startsWith("HTTP/1.1 200")) {
            System.err.println("not 200: " + status + " " + body);
        }
        return status.startsWith("HTTP/1.1 200") ? body.split(" ") : null;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            b.append((char) c);
        }
        if (c < 0) {
            throw new IOException("closed");
        }
        return b.toString().strip();
    }

    /** Starts requests with large bodies and leaves in their middle, until told to stop. */
    private static void quitter(int port, AtomicInteger stop) {
        Random random = new Random(99);
        while (stop.get() >= 0) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                byte[] body = new byte[20_000 + random.nextInt(40_000)];
                random.nextBytes(body);
                OutputStream out = s.getOutputStream();
                out.write(("POST /svc HTTP/1.1\r\nHost: gw\r\nContent-Type: text/xml\r\nX-Id: quitter\r\nContent-Length: " + body.length
                        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body, 0, body.length / 2 + random.nextInt(body.length / 2));
                out.flush();
                LockSupport.parkNanos(random.nextInt(5_000_000)); // leaves mid-body, at a random moment
            } catch (IOException e) {
                // refused or reset: try again
            }
        }
    }
}
