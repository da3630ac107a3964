package io.slagate.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The floor of bench/waiting-heap.sh: bare Jetty 12, with the gateway's thread pool, HTTP configuration and
 * idle timeout, whose handler reads each request's body and then holds the request unanswered: what any gateway on
 * Jetty's server side pays per waiting request before it keeps anything of its own. {@code GET /held} answers how
 * many it holds.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.slagate.bench.JettyHoldBaseline PORT [INPUT_BUFFER_BYTES]}
 */
public final class JettyHoldBaseline {
    private JettyHoldBaseline() {
    }

    /** A request held with its body read: its response and callback, all an answer later needs. */
    private record Held(Response response, Callback callback, byte[] body) {
    }

    /** Reads a body of known length into an array of that length, as the gateway does, then holds the request. */
    private static final class BodyReader implements Runnable {
        private final Request request;
        private final Response response;
        private final Callback callback;
        private final Queue<Held> held;
        private final byte[] body;
        private int size;

        BodyReader(Request request, Response response, Callback callback, Queue<Held> held) {
            this.request = request;
            this.response = response;
            this.callback = callback;
            this.held = held;
            this.body = new byte[(int) Math.max(0, Math.min(request.getLength(), 64 * 1024))];
        }

        @Override
        public void run() {
            while (true) {
                Content.Chunk chunk = request.read();
                if (chunk == null) {
                    request.demand(this);
                    return;
                }
                if (Content.Chunk.isFailure(chunk)) {
                    callback.failed(chunk.getFailure());
                    return;
                }
                ByteBuffer b = chunk.getByteBuffer();
                int n = Math.min(b.remaining(), body.length - size);
                b.get(body, size, n);
                size += n;
                chunk.release();
                if (chunk.isLast() || size == body.length) {
                    held.add(new Held(response, callback, body));
                    return;
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        QueuedThreadPool threads = new QueuedThreadPool(64, 8);
        Server server = args.length > 2 ? new Server(threads, null, new ArrayByteBufferPool(0, 1024, 64 * 1024))
                : new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(false);
        http.setResponseHeaderSize(64 * 1024);
        HttpConnectionFactory h1 = new HttpConnectionFactory(http);
        if (args.length > 1) {
            h1.setInputBufferSize(Integer.parseInt(args[1]));
        }
        ServerConnector connector = new ServerConnector(server, h1);
        connector.setHost("127.0.0.1");
        connector.setPort(Integer.parseInt(args[0]));
        connector.setIdleTimeout(Duration.ofMinutes(10).toMillis());
        server.addConnector(connector);
        Queue<Held> held = new ConcurrentLinkedQueue<>();
        server.setHandler(new Handler.Abstract(Invocable.InvocationType.BLOCKING) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                if (HttpMethod.GET.is(request.getMethod())) {
                    response.write(true, ByteBuffer.wrap(("held " + held.size() + "\n").getBytes(StandardCharsets.US_ASCII)), callback);
                    return true;
                }
                new BodyReader(request, response, callback, held).run();
                return true;
            }
        });
        server.start();
        System.out.println("holding on " + connector.getLocalPort());
        server.join();
    }
}
