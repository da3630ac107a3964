package io.slagate.gateway.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A backend on a plain socket that answers every request with bytes the test wrote, byte for byte:
 * for answers a well-behaved HTTP server would not produce (interim 1xx, a body ended by closing the
 * connection, HTTP/1.0) and to see the exact request head the gateway sent. One thread per connection;
 * for a handful of requests in a test, never for load.
 */
public final class ScriptedBackend implements AutoCloseable {
    /** What to send back for one request, and whether to close the connection afterwards. */
    public record Answer(String raw, boolean close) {
    }

    private final ServerSocket socket;
    private final List<String> heads = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    /** Connections open now. */
    private final AtomicInteger connected = new AtomicInteger();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile Answer answer = new Answer("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n<ok>", false);
    /** When set, the answer to a request head (instead of the fixed {@link #answer}). */
    private volatile Function<String, String> answerOf;
    /** Bytes written on the connection {@link #strayDelayMillis} after each answer, as a misbehaving server would. */
    private volatile String stray;
    private volatile Function<String, String> strayOf;
    private volatile long strayDelayMillis;
    /** When above 0, answers go out in pieces of this many bytes, {@link #pieceGapMillis} apart (a server that dribbles). */
    private volatile int pieceBytes;
    private volatile long pieceGapMillis;

    public ScriptedBackend() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "scripted-backend");
        t.setDaemon(true);
        t.start();
    }

    public String url() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    public void answer(Answer a) {
        answer = a;
    }

    /** Answers each request with what {@code f} makes of its head (request line and headers). */
    public void answerWith(Function<String, String> f) {
        answerOf = f;
    }

    /** After each answer, waits {@code delayMillis} and writes {@code bytes} nobody asked for. */
    public void strayAfterEachAnswer(String bytes, long delayMillis) {
        stray = bytes;
        strayDelayMillis = delayMillis;
    }

    /** After the answer to a request head for which {@code f} gives bytes (not null), waits {@code delayMillis} and writes them. */
    public void strayAfterAnswersTo(Function<String, String> f, long delayMillis) {
        strayOf = f;
        strayDelayMillis = delayMillis;
    }

    /** Writes each answer in pieces of {@code bytes}, {@code gapMillis} apart: its head arrives in several reads. */
    public void dribble(int bytes, long gapMillis) {
        pieceGapMillis = gapMillis;
        pieceBytes = bytes;
    }

    /** Request heads received, in order, exactly as sent (request line and headers). */
    public List<String> heads() {
        return heads;
    }

    public int connectionsAccepted() {
        return accepted.get();
    }

    /** Connections open now, as this server sees them (one counts until its thread reads the close). */
    public int connectionsOpen() {
        return connected.get();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket s = socket.accept();
                accepted.incrementAndGet();
                open.add(s);
                Thread t = new Thread(() -> serve(s), "scripted-connection");
                t.setDaemon(true);
                t.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void write(OutputStream out, byte[] answer) throws IOException {
        int piece = pieceBytes;
        for (int at = 0; at < answer.length; at += piece > 0 ? piece : answer.length) {
            if (at > 0) {
                try {
                    Thread.sleep(pieceGapMillis); // the misbehaviour itself: an answer in pieces
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }
            out.write(answer, at, Math.min(piece > 0 ? piece : answer.length, answer.length - at));
            out.flush();
        }
    }

    private void serve(Socket s) {
        connected.incrementAndGet();
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                heads.add(head);
                skipBody(in, head);
                Answer a = answer;
                Function<String, String> f = answerOf;
                write(out, (f != null ? f.apply(head) : a.raw()).getBytes(StandardCharsets.ISO_8859_1));
                Function<String, String> sf = strayOf;
                String extra = sf != null ? sf.apply(head) : stray;
                if (extra != null) {
                    try {
                        Thread.sleep(strayDelayMillis); // the misbehaviour itself: late bytes on an idle connection
                    } catch (InterruptedException e) {
                        return;
                    }
                    out.write(extra.getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                }
                if (f == null && a.close()) {
                    return;
                }
            }
        } catch (IOException gone) {
            // the gateway closed the connection
        } finally {
            connected.decrementAndGet();
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while ((b = in.read()) >= 0) {
            buf.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
            if (matched == 4) {
                return buf.toString(StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    private static void skipBody(InputStream in, String head) throws IOException {
        String lower = head.toLowerCase(Locale.ROOT);
        int at = lower.indexOf("\r\ncontent-length:");
        if (at >= 0) {
            long n = Long.parseLong(lower.substring(at + 17, lower.indexOf("\r\n", at + 2)).trim());
            in.readNBytes((int) n);
        } else if (lower.contains("\r\ntransfer-encoding: chunked")) {
            while (true) {
                String size = readLine(in);
                long n = Long.parseLong(size.trim(), 16);
                in.readNBytes((int) n);
                readLine(in);
                if (n == 0) {
                    return;
                }
            }
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                sb.append((char) b);
            }
        }
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket s : open) {
            s.close();
        }
    }
}
