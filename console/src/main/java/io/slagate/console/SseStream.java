package io.slagate.console;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One browser's Server-Sent Events stream. Events are queued and written one at a time (Jetty
 * allows one pending write); a slow reader that falls {@value #MAX_QUEUED} events behind loses the
 * oldest ones rather than holding memory. No thread waits: each write's completion sends the next.
 */
final class SseStream implements Consumer<String> {
    static final int MAX_QUEUED = 500;

    private final Response response;
    private final Callback done;
    private final Runnable onClose;
    private final Queue<String> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicBoolean writing = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    SseStream(Response response, Callback done, Runnable onClose) {
        this.response = response;
        this.done = done;
        this.onClose = onClose;
    }

    /** A bus message as a {@code bus} event. */
    @Override
    public void accept(String json) {
        offer("event: bus\ndata: " + json + "\n\n");
    }

    void comment(String text) {
        offer(": " + text + "\n\n");
    }

    private void offer(String frame) {
        if (closed.get()) {
            return;
        }
        queue.add(frame);
        if (size.incrementAndGet() > MAX_QUEUED && queue.poll() != null) {
            size.decrementAndGet();
        }
        flush();
    }

    private void flush() {
        while (!queue.isEmpty() && writing.compareAndSet(false, true)) {
            String next = queue.poll();
            if (next == null) {
                writing.set(false);
                continue;
            }
            size.decrementAndGet();
            response.write(false, ByteBuffer.wrap(next.getBytes(StandardCharsets.UTF_8)), Callback.from(() -> {
                writing.set(false);
                flush();
            }, this::fail));
            return;
        }
    }

    private void fail(Throwable t) {
        close();
    }

    void close() {
        if (closed.compareAndSet(false, true)) {
            onClose.run();
            done.succeeded();
        }
    }

    boolean isClosed() {
        return closed.get();
    }
}
