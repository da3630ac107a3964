package io.slagate.gateway.testing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A real HTTP backend on loopback whose behaviour a test sets: echo, hold each request until the
 * test completes it, answer after a delay (timer, no thread held), or break off mid-response.
 */
public final class TestBackend implements AutoCloseable {
    /** A held request: the test decides when and how it ends. */
    public record Held(Request request, Response response, Callback callback) {
        public void reply(String body) {
            TestBackend.reply(response, callback, 200, body);
        }
    }

    private final Server server;
    private final ServerConnector connector;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final BlockingQueue<Held> held = new LinkedBlockingQueue<>();
    private final ConcurrentLinkedQueue<HttpFields> seenHeaders = new ConcurrentLinkedQueue<>();
    private final AtomicInteger received = new AtomicInteger();
    private final AtomicInteger concurrent = new AtomicInteger();
    private final AtomicInteger maxConcurrent = new AtomicInteger();
    private final AtomicInteger connectionsOpened = new AtomicInteger();
    private volatile Handler behaviour;

    public TestBackend() throws Exception {
        this(0);
    }

    public TestBackend(int port) throws Exception {
        this("127.0.0.1", port);
    }

    /** On {@code host} (an address of this machine), e.g. a bridge's for peers in other network namespaces. */
    public TestBackend(String host, int port) throws Exception {
        QueuedThreadPool threads = new QueuedThreadPool(64, 4);
        threads.setName("backend");
        server = new Server(threads);
        connector = new ServerConnector(server);
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        connector.addEventListener(new Connection.Listener() {
            @Override
            public void onOpened(Connection connection) {
                connectionsOpened.incrementAndGet();
            }
        });
        behaviour = echo();
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                received.incrementAndGet();
                seenHeaders.add(request.getHeaders().asImmutable());
                maxConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
                Callback counted = Callback.from(() -> {
                    concurrent.decrementAndGet();
                    callback.succeeded();
                }, x -> {
                    concurrent.decrementAndGet();
                    callback.failed(x);
                });
                return behaviour.handle(request, response, counted);
            }
        });
        server.start();
    }

    public int port() {
        return connector.getLocalPort();
    }

    public String url() {
        return "http://" + connector.getHost() + ":" + port();
    }

    public void behave(Handler h) {
        behaviour = h;
    }

    public int received() {
        return received.get();
    }

    /** Connections the gateway opened to this backend so far. */
    public int connectionsOpened() {
        return connectionsOpened.get();
    }

    /** Connections open right now. */
    public int connectionsOpen() {
        return connector.getConnectedEndPoints().size();
    }

    /** Closes keep-alive connections idle this long (servers do; the gateway must not trip over them). */
    public void idleTimeout(long millis) {
        connector.setIdleTimeout(millis);
    }

    public int maxConcurrent() {
        return maxConcurrent.get();
    }

    public int concurrent() {
        return concurrent.get();
    }

    public HttpFields lastHeaders() {
        HttpFields last = null;
        for (HttpFields f : seenHeaders) {
            last = f;
        }
        return last;
    }

    public Held takeHeld(long timeoutMillis) throws InterruptedException {
        return held.poll(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    public int heldCount() {
        return held.size();
    }

    /** Answers with the request body, and its SOAPAction in a header. */
    public static Handler echo() {
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                Content.Source.asString(request, StandardCharsets.UTF_8, new Promise<>() {
                    @Override
                    public void succeeded(String body) {
                        response.getHeaders().put("X-Echo-Path", request.getHttpURI().getPathQuery());
                        reply(response, callback, 200, body.isEmpty() ? "<ok/>" : body);
                    }

                    @Override
                    public void failed(Throwable x) {
                        callback.failed(x);
                    }
                });
                return true;
            }
        };
    }

    /** Keeps every request until the test takes it with {@link #takeHeld}. */
    public Handler hold() {
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                held.add(new Held(request, response, callback));
                return true;
            }
        };
    }

    /** Reads the body, then answers after {@code millis} on a timer (no thread waits). */
    public Handler delayed(long millis) {
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                Content.Source.consumeAll(request, Callback.from(
                        () -> timer.schedule(() -> reply(response, callback, 200, "<done/>"), millis, TimeUnit.MILLISECONDS),
                        callback::failed));
                return true;
            }
        };
    }

    /**
     * A server whose work is shared by the requests it executes (a CPU): each answers after {@code millis} times the
     * requests executing when it arrived, itself included.
     */
    public Handler sharing(long millis) {
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                long delay = millis * Math.max(1, concurrent.get());
                Content.Source.consumeAll(request, Callback.from(
                        () -> timer.schedule(() -> reply(response, callback, 200, "<done/>"), delay, TimeUnit.MILLISECONDS),
                        callback::failed));
                return true;
            }
        };
    }

    /** Sends headers and part of a body, then kills the connection. */
    public static Handler breakMidResponse() {
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/xml");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 1000);
                response.write(false, ByteBuffer.wrap("<partial>".getBytes(StandardCharsets.UTF_8)),
                        Callback.from(() -> request.getConnectionMetaData().getConnection().getEndPoint().close(), callback::failed));
                return true;
            }
        };
    }

    static void reply(Response response, Callback callback, int status, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/xml; charset=utf-8");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    public void stop() throws Exception {
        server.stop();
    }

    public void start() throws Exception {
        server.start();
    }

    @Override
    public void close() throws Exception {
        timer.shutdownNow();
        server.stop();
    }
}
