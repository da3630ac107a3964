package io.slagate.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The byte relay over real sockets: its answers, and what it refuses. Its heads are read by the gateway's
 * {@code RequestHead} and {@code ResponseHead}, tested with their corpora beside them.
 */
class ByteRelayProxyTest {
    @Test
    void theRelay_answersEachRequestFromTheServer_andRefusesWhatItCannotFrame() throws Exception {
        try (ServerSocket backend = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             ServerSocketChannel listener = ServerSocketChannel.open()) {
            Thread server = new Thread(() -> serve(backend), "backend");
            server.setDaemon(true);
            server.start();
            listener.bind(new InetSocketAddress("127.0.0.1", 0));
            listener.configureBlocking(false);
            ByteRelayProxy.Loop loop = new ByteRelayProxy.Loop(listener, new InetSocketAddress("127.0.0.1", backend.getLocalPort()), 2);
            Thread t = new Thread(loop::run, "relay");
            t.setDaemon(true);
            t.start();
            try (Socket c = new Socket("127.0.0.1", listener.socket().getLocalPort())) {
                c.setSoTimeout(10_000);
                for (int i = 0; i < 3; i++) {
                    String body = "<q>" + i + "</q>";
                    c.getOutputStream().write(("POST /s HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
                            .getBytes(StandardCharsets.ISO_8859_1));
                    assertEquals(expected(body), read(c.getInputStream()), "answer " + i);
                }
            }
            try (Socket c = new Socket("127.0.0.1", listener.socket().getLocalPort())) {
                c.setSoTimeout(10_000);
                c.getOutputStream().write("POST /s HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"
                        .getBytes(StandardCharsets.ISO_8859_1));
                String answer = new String(c.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
            }
        }
    }

    private static String expected(String body) {
        return "HTTP/1.1 200 OK\r\nContent-Length: " + (body.length() + 9) + "\r\n\r\n<re>" + body + "</re>";
    }

    /** One answer from {@code in}: its head, then as many body bytes as its Content-Length says. */
    private static String read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed in the head: " + head);
            }
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String h = head.toString(StandardCharsets.ISO_8859_1);
        int at = h.indexOf("Content-Length: ") + "Content-Length: ".length();
        int n = Integer.parseInt(h.substring(at, h.indexOf('\r', at)));
        return h + new String(in.readNBytes(n), StandardCharsets.ISO_8859_1);
    }

    /** Answers each request on each connection with its body wrapped in {@code <re>}, keeping the connection. */
    private static void serve(ServerSocket backend) {
        while (!backend.isClosed()) {
            try {
                Socket s = backend.accept();
                Thread t = new Thread(() -> {
                    try (s) {
                        InputStream in = s.getInputStream();
                        OutputStream out = s.getOutputStream();
                        while (true) {
                            String req = read(in);
                            String body = req.substring(req.indexOf("\r\n\r\n") + 4);
                            String reply = "<re>" + body + "</re>";
                            out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + reply.length() + "\r\n\r\n" + reply)
                                    .getBytes(StandardCharsets.ISO_8859_1));
                        }
                    } catch (IOException closed) {
                        // the relay closed the connection
                    }
                });
                t.setDaemon(true);
                t.start();
            } catch (IOException closed) {
                return;
            }
        }
    }
}
