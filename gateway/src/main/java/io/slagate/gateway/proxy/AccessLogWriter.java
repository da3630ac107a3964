package io.slagate.gateway.proxy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusListener;
import ch.qos.logback.core.util.FileSize;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.slagate.config.AccessLogSettings;
import io.slagate.util.LogLimiter;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the access log's lines on a thread of its own: a request's thread only queues its line (no
 * lock, no wake-up: the writer looks every {@value #DRAIN_MILLIS} ms and writes what is there in one
 * go). A handed-over wake-up per line, as an asynchronous appender does, cost more than the line
 * itself (bench/results/access-log.md). The lines go through logback's appenders: standard output,
 * or a file rolled by size and by day. A full queue drops the line (counted) rather than make a
 * request wait; a write that fails later (a full disk) is counted and warned about at most every
 * 10 s, and requests go on. Without logback (slagate embedded in another application), lines go to
 * the logger {@value #LOGGER} at INFO.
 */
public final class AccessLogWriter implements AutoCloseable {
    public static final String LOGGER = "slagate.access";
    private static final Logger LOG = LoggerFactory.getLogger(AccessLogWriter.class);
    private static final Logger LINES = LoggerFactory.getLogger(LOGGER);
    static final int DRAIN_MILLIS = 20;
    private static final int MAX_QUEUED = 65_536;

    private final AccessLogSettings settings;
    private final ConcurrentLinkedQueue<String> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final Counter dropped;
    private final Counter failed;
    private final LogLimiter warn = new LogLimiter(Duration.ofSeconds(10));
    private volatile boolean running;
    private Thread thread;
    private OutputStreamAppender<ILoggingEvent> out;
    private LoggerContext context;
    private StatusListener failures;

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
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (factory instanceof LoggerContext c) {
            context = c;
            PatternLayoutEncoder encoder = new PatternLayoutEncoder();
            encoder.setContext(c);
            encoder.setPattern("%msg%n");
            encoder.start();
            out = settings.toFile() ? file(c, encoder) : stdout(c, encoder);
            if (!out.isStarted()) {
                throw new IllegalStateException("gateway.accessLog.to: " + settings.to() + " cannot be opened: " + lastError(c));
            }
            OutputStreamAppender<ILoggingEvent> origin = out;
            failures = status -> {
                if (status.getLevel() == Status.ERROR && status.getOrigin() == origin) {
                    failed.increment();
                    if (warn.allow()) {
                        LOG.warn("access log: a write to {} failed ({}); requests go on, lines are lost until it works again",
                                settings.to(), status.getMessage());
                    }
                }
            };
            c.getStatusManager().add(failures);
        }
        running = true;
        thread = new Thread(this::drainLoop, "slagate-access-log");
        thread.setDaemon(true);
        thread.start();
        LOG.info("access log: one line per request to {} ({})", settings.to(), settings.format());
    }

    private void drainLoop() {
        while (running) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS));
            drain();
        }
        drain();
    }

    private void drain() {
        int n = 0;
        for (String line; (line = queue.poll()) != null; n++) {
            queued.decrementAndGet();
            if (out == null) {
                LINES.info(line);
                continue;
            }
            LoggingEvent e = new LoggingEvent();
            e.setLoggerContext(context);
            e.setLoggerName(LOGGER);
            e.setLevel(Level.INFO);
            e.setMessage(line);
            e.setTimeStamp(System.currentTimeMillis());
            out.doAppend(e);
        }
        if (n > 0 && out != null) {
            flush();
        }
    }

    private void flush() {
        try {
            out.getOutputStream().flush();
        } catch (IOException e) {
            failed.increment();
            if (warn.allow()) {
                LOG.warn("access log: flushing {} failed ({}); requests go on", settings.to(), e.getMessage());
            }
        }
    }

    private OutputStreamAppender<ILoggingEvent> stdout(LoggerContext c, PatternLayoutEncoder encoder) {
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(c);
        console.setName("slagate-access");
        console.setEncoder(encoder);
        console.setImmediateFlush(false);
        console.start();
        return console;
    }

    private OutputStreamAppender<ILoggingEvent> file(LoggerContext c, PatternLayoutEncoder encoder) {
        RollingFileAppender<ILoggingEvent> file = new RollingFileAppender<>();
        file.setContext(c);
        file.setName("slagate-access");
        file.setFile(settings.to());
        file.setEncoder(encoder);
        file.setImmediateFlush(false); // flushed once per drain
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(c);
        policy.setParent(file);
        policy.setFileNamePattern(settings.to() + ".%d{yyyy-MM-dd}.%i");
        policy.setMaxFileSize(new FileSize(settings.maxFileSize()));
        policy.setMaxHistory(settings.maxHistory());
        policy.start();
        file.setRollingPolicy(policy);
        file.start();
        return file;
    }

    private static String lastError(LoggerContext c) {
        String last = "see the log";
        for (Status s : c.getStatusManager().getCopyOfStatusList()) {
            if (s.getLevel() == Status.ERROR) {
                last = s.getMessage() + (s.getThrowable() == null ? "" : ": " + s.getThrowable().getMessage());
            }
        }
        return last;
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
        if (out != null) {
            out.stop();
            context.getStatusManager().remove(failures);
        }
    }
}
