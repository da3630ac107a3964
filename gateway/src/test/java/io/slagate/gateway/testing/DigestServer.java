package io.slagate.gateway.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A server that reads slowly, so that what the gateway writes to it backs up in the socket: a small receive buffer, a
 * pause after every read, and a stall after the first 8 KiB of each body (the gateway's writes then wait with the rest). It answers each request with the id the request carried ({@code X-Id}) and the SHA-256 of
 * the body it received, so a client can tell a body that arrived changed, or an answer that is another request's.
 * Keep-alive, Content-Length bodies, a thread per connection.
 */
public final class DigestServer implements AutoCloseable {
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "digest-server");
        t.setDaemon(true);
        return t;
    });
    private final long pauseNanos;
    private final long stallNanos;
    private final AtomicInteger received = new AtomicInteger();

    /**
     * @param pauseNanos the pause after each read of at most 2 KiB
     * @param stallNanos the stall after the first 8 KiB of each body
     */
    public DigestServer(long pauseNanos, long stallNanos) throws IOException {
        this.pauseNanos = pauseNanos;
        this.stallNanos = stallNanos;
        server = new ServerSocket();
        server.setReceiveBufferSize(4096); // inherited by accepted sockets: the gateway's writes back up early
        server.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        threads.execute(this::accept);
    }

    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Requests whose body was read whole. */
    public int received() {
        return received.get();
    }

    /** The SHA-256 of {@code body} in hex, as the answers carry it. */
    public static String digest(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                threads.execute(() -> serve(s));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = new BufferedInputStream(s.getInputStream(), 2048);
            OutputStream out = s.getOutputStream();
            while (true) {
                String id = null;
                long length = 0;
                String line = line(in);
                if (line == null) {
                    return;
                }
                while (!(line = line(in)).isEmpty()) {
                    int colon = line.indexOf(':');
                    String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                    String value = line.substring(colon + 1).trim();
                    if (name.equals("x-id")) {
                        id = value;
                    } else if (name.equals("content-length")) {
                        length = Long.parseLong(value);
                    }
                }
                ByteArrayOutputStream body = new ByteArrayOutputStream((int) length);
                byte[] buf = new byte[2048];
                while (body.size() < length) {
                    int n = in.read(buf, 0, (int) Math.min(buf.length, length - body.size()));
                    if (n < 0) {
                        return;
                    }
                    boolean stall = body.size() < 8192 && body.size() + n >= 8192;
                    body.write(buf, 0, n);
                    LockSupport.parkNanos(stall ? stallNanos : pauseNanos); // a slow reader, by design: the socket's buffers fill
                }
                received.incrementAndGet();
                byte[] answer = (id + " " + digest(body.toByteArray())).getBytes(StandardCharsets.US_ASCII);
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + answer.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(answer);
                out.flush();
            }
        } catch (IOException | RuntimeException gone) {
            // the gateway closed the connection
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                int n = b.length();
                return n > 0 && b.charAt(n - 1) == '\r' ? b.substring(0, n - 1) : b.toString();
            }
            b.append((char) c);
        }
        return b.length() == 0 ? null : b.toString();
    }

    @Override
    public void close() throws IOException {
        server.close();
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
