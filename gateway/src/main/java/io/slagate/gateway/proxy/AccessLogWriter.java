package io.slagate.gateway.proxy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.slagate.config.AccessLogSettings;
import io.slagate.util.LogLimiter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the access log's lines on a thread of its own: a request's thread only queues its line (no
 * lock, no wake-up: the writer looks every {@value #DRAIN_MILLIS} ms and writes what is there in one
 * go). Measured against the alternatives (bench/results/access-log.md): an asynchronous appender's
 * wake-up per line, and a logging event, layout and encoder per line, each cost more than building
 * the line. A file is rolled by size and by day ({@code FILE.yyyy-MM-dd.N}, the oldest beyond
 * {@code maxHistory} days removed); standard output gets whole lines, at most 4 KiB per write, so
 * that they never interleave with the log's. A full queue drops the line (counted) rather than make
 * a request wait; a write that fails (a full disk) is counted, warned about at most every 10 s, and
 * the file is opened again at the next drain.
 */
public final class AccessLogWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AccessLogWriter.class);
    static final int DRAIN_MILLIS = 20;
    private static final int MAX_QUEUED = 65_536;
    private static final int STDOUT_CHUNK = 4096;

    private final AccessLogSettings settings;
    private final ConcurrentLinkedQueue<String> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final Counter dropped;
    private final Counter failed;
    private final LogLimiter warn = new LogLimiter(Duration.ofSeconds(10));
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    private volatile boolean running;
    private Thread thread;
    private FileChannel out;
    private long size;
    private LocalDate day;

    public AccessLogWriter(AccessLogSettings settings, MeterRegistry registry, String gatewayId) {
        this.settings = settings;
        this.dropped = Counter.builder("slagate_access_log_dropped").tag("gateway", gatewayId)
                .description("Access-log lines dropped because the writer was behind (the request was not held up)").register(registry);
        this.failed = Counter.builder("slagate_access_log_write_failures").tag("gateway", gatewayId)
                .description("Access-log writes that failed (a full disk, a removed directory); requests unaffected").register(registry);
    }

    /** Queues a line; drops it (counted) when {@value #MAX_QUEUED} are already waiting. */
    void line(String line) {
        if (queued.incrementAndGet() > MAX_QUEUED) {
            queued.decrementAndGet();
            dropped.increment();
            return;
        }
        queue.offer(line);
    }

    /**
     * Opens the output and starts writing.
     *
     * @throws IllegalStateException when the file cannot be opened
     */
    public void start() {
        try {
            open();
        } catch (IOException e) {
            throw new IllegalStateException("gateway.accessLog.to: " + settings.to() + " cannot be opened: " + e.getMessage(), e);
        }
        running = true;
        thread = new Thread(this::drainLoop, "slagate-access-log");
        thread.setDaemon(true);
        thread.start();
        LOG.info("access log: one line per request to {} ({})", settings.to(), settings.format());
    }

    private void open() throws IOException {
        if (!settings.toFile()) {
            out = new FileOutputStream(FileDescriptor.out).getChannel();
            return;
        }
        Path file = Path.of(settings.to());
        out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        size = out.size();
        day = LocalDate.now(ZoneOffset.UTC);
    }

    private void drainLoop() {
        while (running) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS));
            drain();
        }
        drain();
    }

    private void drain() {
        try {
            if (out == null) {
                open(); // after a failure
            }
            for (String line; (line = queue.poll()) != null; ) {
                queued.decrementAndGet();
                append(line);
            }
            flush();
        } catch (IOException e) {
            failed.increment();
            if (warn.allow()) {
                LOG.warn("access log: writing to {} failed ({}); requests go on, lines are lost until it works again",
                        settings.to(), e.getMessage());
            }
            buffer.clear();
            closeQuietly();
        }
    }

    private void append(String line) throws IOException {
        // String.getBytes: a copy for the ASCII lines nearly all are (an encoder into the buffer went char by char,
        // and cost more than the rest of the log together)
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        int length = Math.min(bytes.length, buffer.capacity() - 1); // a line of over 64 KiB: cut, still one line
        int limit = settings.toFile() ? buffer.capacity() : STDOUT_CHUNK;
        if (buffer.position() + length + 1 > limit) {
            flush();
        }
        buffer.put(bytes, 0, length).put((byte) '\n');
    }

    private void flush() throws IOException {
        if (buffer.position() == 0) {
            return;
        }
        buffer.flip();
        int bytes = buffer.remaining();
        if (settings.toFile()) {
            rollIfDue(bytes);
        }
        while (buffer.hasRemaining()) {
            out.write(buffer);
        }
        buffer.clear();
        size += bytes;
    }

    /** A new file when this one would pass maxFileSize, or on a new day (UTC). */
    private void rollIfDue(int bytes) throws IOException {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        if (size + bytes <= settings.maxFileSize() && today.equals(day) || size == 0) {
            day = today;
            return;
        }
        out.close();
        out = null;
        Path file = Path.of(settings.to());
        int n = 1;
        Path rolled;
        do {
            rolled = Path.of(settings.to() + "." + day + "." + n++);
        } while (Files.exists(rolled));
        Files.move(file, rolled);
        removeExpired(file, today);
        open();
    }

    private void removeExpired(Path file, LocalDate today) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        String prefix = file.getFileName() + ".";
        LocalDate oldest = today.minusDays(settings.maxHistory());
        try (var rolled = Files.list(dir)) {
            for (Path p : (Iterable<Path>) rolled::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith(prefix) && name.length() >= prefix.length() + 10) {
                    try {
                        if (LocalDate.parse(name.substring(prefix.length(), prefix.length() + 10)).isBefore(oldest)) {
                            Files.deleteIfExists(p);
                        }
                    } catch (RuntimeException notOurs) {
                        // another file sharing the prefix
                    }
                }
            }
        }
    }

    private void closeQuietly() {
        if (out != null && settings.toFile()) {
            try {
                out.close();
            } catch (IOException ignored) {
                // it failed already
            }
        }
        out = null;
    }

    /** Writes the lines still queued, then stops. */
    @Override
    public void close() {
        running = false;
        if (thread != null) {
            LockSupport.unpark(thread);
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        closeQuietly();
    }
}
