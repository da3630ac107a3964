package io.slagate.bus;

import io.slagate.bus.message.BusCodec;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.BusSettings;
import io.slagate.config.BusTls;
import io.slagate.util.LogLimiter;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.apache.activemq.ActiveMQConnection;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.ActiveMQMessageProducer;
import org.apache.activemq.AsyncCallback;
import org.apache.activemq.command.ActiveMQMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A component's connection to the control bus: publish JSON bus messages to topics, receive them
 * through handlers. Never blocks its caller and never gives up: publishing is handed to the bus
 * thread (bounded; the oldest state is not worth waiting for, so a full queue drops), connecting is
 * retried with exponential backoff, and TCP URLs are wrapped in ActiveMQ's failover transport so
 * that a broker restart is ridden out with subscriptions restored. Every (re)connection runs the
 * {@link #onConnected} callbacks — how a gateway announces itself and gets the current allocation
 * at once. A message that cannot be decoded is counted, logged (at most every 10 s) and skipped; a
 * handler that throws is logged; neither stops the listener.
 */
public final class ControlBus implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControlBus.class);
    private static final int MAX_PENDING = 1024;
    private static final Duration MIN_BACKOFF = Duration.ofMillis(100);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

    private record Subscription(String topic, BiConsumer<BusMessage, String> handler) {
    }

    private final String url;
    private final String user;
    private final String password;
    private final BusTls tls;
    private final String name;
    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
    private final List<Runnable> connectedCallbacks = new CopyOnWriteArrayList<>();
    private final List<Consumer<String>> refusedCallbacks = new CopyOnWriteArrayList<>();
    /** Why the broker refused this component's credentials, or null: set once, then the bus stops trying. */
    private volatile String refused;
    /** The bus thread: connects, publishes, runs callbacks; JMS sessions are single-threaded. */
    private final ScheduledExecutorService worker;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private final AtomicLong oversized = new AtomicLong();
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong connects = new AtomicLong();
    private final LogLimiter malformedWarnings = new LogLimiter(Duration.ofSeconds(10));
    private volatile boolean connected;
    private volatile String whileLost = "";
    private volatile String lastError;
    private volatile boolean closed;
    // bus thread only
    private ActiveMQConnection connection;
    private Session publishSession;
    private MessageProducer producer;
    private Duration backoff = MIN_BACKOFF;

    public ControlBus(String url, String user, String password, String name) {
        this(url, user, password, null, name);
    }

    /** With TLS settings: {@code ssl://} URLs trust the certificates of {@code tls.trustStore}. */
    public ControlBus(String url, String user, String password, BusTls tls, String name) {
        this.tls = tls;
        this.url = BusConnections.effectiveUrl(url);
        this.user = user;
        this.password = password;
        this.name = name;
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "slagate-bus-" + name);
            t.setDaemon(true);
            return t;
        });
    }

    public static ControlBus of(BusSettings settings, String name) {
        return new ControlBus(settings.url(), settings.user(), settings.password(), settings.tls(), name);
    }

    /** Receives every valid message of a topic on the bus's listener thread; register before or after {@link #start}. */
    public ControlBus subscribe(String topic, Consumer<BusMessage> handler) {
        return subscribeWithSender(topic, (m, sender) -> handler.accept(m));
    }

    /**
     * As above, with the sender: the bus user the broker authenticated the sending connection as
     * (the broker stamps it over anything the sender wrote), or null on a bus without authentication.
     * Identities that matter (who changed the configuration, which account a gateway joined with) come
     * from it, never from a field of the message.
     */
    public ControlBus subscribeWithSender(String topic, BiConsumer<BusMessage, String> handler) {
        Subscription s = new Subscription(topic, handler);
        subscriptions.add(s);
        worker.execute(() -> {
            if (connection != null) {
                try {
                    listen(connection, s);
                } catch (JMSException e) {
                    LOG.warn("bus {}: cannot subscribe to {} now ({}); will on reconnect", name, topic, e.getMessage());
                }
            }
        });
        return this;
    }

    /**
     * Runs on the bus thread after the first connection and after every reconnection; registered while
     * connected, it also runs at once (on the caller's thread), so a late registration misses nothing.
     * It may then run twice for one connection: callbacks must bear that.
     */
    public ControlBus onConnected(Runnable callback) {
        connectedCallbacks.add(callback);
        if (connected) {
            callback.run();
        }
        return this;
    }

    /**
     * Runs on the bus thread, once, when the broker refuses this component's credentials. The bus does
     * not retry then: a wrong password does not fix itself, and a component that runs on without its
     * control plane (a gateway on its static caps beside the others' shares) does harm.
     */
    public ControlBus onRefused(Consumer<String> callback) {
        refusedCallbacks.add(callback);
        String already = refused;
        if (already != null) {
            worker.execute(() -> callback.accept(already)); // refused before this registration
        }
        return this;
    }

    /** Why the broker refused the credentials ("bus authentication refused ..."), or null. */
    public String refusal() {
        return refused;
    }

    /** What losing the broker means for this component, for the log line that reports it (e.g. "the last allocation stays in force"). */
    public ControlBus whileLost(String meaning) {
        this.whileLost = meaning == null || meaning.isEmpty() ? "" : " (" + meaning + ")";
        return this;
    }

    /** Connects in the background; returns at once, connected or not. */
    public ControlBus start() {
        worker.execute(this::connect);
        return this;
    }

    /**
     * Queues a message for the topic. Returns false (and counts a drop) when the bus is closed or
     * too far behind; a message the broker does not take is logged and dropped, never retried:
     * every bus message is superseded by the next one of its kind.
     */
    public boolean publish(String topic, BusMessage message) {
        if (closed || pending.incrementAndGet() > MAX_PENDING) {
            if (!closed) {
                pending.decrementAndGet();
            }
            dropped.incrementAndGet();
            return false;
        }
        String json = BusCodec.encode(message);
        try {
            worker.execute(() -> {
                pending.decrementAndGet();
                send(topic, json);
            });
        } catch (RejectedExecutionException e) {
            pending.decrementAndGet();
            dropped.incrementAndGet();
            return false;
        }
        return true;
    }

    /** Sends raw text to a topic: for tests and tools that must put arbitrary bytes on the bus. */
    public void publishRaw(String topic, String text) {
        worker.execute(() -> send(topic, text));
    }

    /** The broker's answer to a send: counted; a refusal (an account not allowed on the topic) also logged. */
    private final AsyncCallback answered = new AsyncCallback() {
        @Override
        public void onSuccess() {
            published.incrementAndGet();
        }

        @Override
        public void onException(JMSException e) {
            dropped.incrementAndGet();
            LOG.debug("bus {}: a publish was refused: {}", name, e.getMessage());
        }
    };

    private void send(String topic, String text) {
        if (producer == null) {
            dropped.incrementAndGet();
            return;
        }
        try {
            TextMessage m = publishSession.createTextMessage(text);
            // pipelined: the broker's answer (taken, or refused for this account) comes back to the callback, so a cycle's
            // hundreds of allocation parts do not wait one round trip each, and a refusal still fails only its message
            ((ActiveMQMessageProducer) producer).send(publishSession.createTopic(topic), m, answered);
        } catch (JMSException e) {
            dropped.incrementAndGet();
            LOG.debug("bus {}: publish to {} failed: {}", name, topic, e.getMessage());
        }
    }

    /** Compressed: JSON repeats its keys (100 servers' report: ~20 KB, ~1.3 KB deflated); {@link MessageSizeGuard} bounds inflation. */
    private ActiveMQConnectionFactory connectionFactory() throws Exception {
        ActiveMQConnectionFactory f = BusConnections.connectionFactory(url, user, password, tls);
        f.setUseCompression(true);
        return f;
    }

    private void connect() {
        if (closed || connection != null) {
            return;
        }
        ActiveMQConnection c = null;
        try {
            ActiveMQConnectionFactory f = connectionFactory();
            f.setWatchTopicAdvisories(false);
            // a refused publish (an account not allowed on a topic) must fail the send, not the connection
            f.setAlwaysSyncSend(true);
            c = (ActiveMQConnection) f.createConnection();
            watch(c);
            c.start();
            Session ps = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = ps.createProducer(null);
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            p.setTimeToLive(60_000);
            for (Subscription s : subscriptions) {
                listen(c, s);
            }
            connection = c;
            publishSession = ps;
            producer = p;
            connected = true;
            backoff = MIN_BACKOFF;
            connects.incrementAndGet();
            LOG.info("bus {}: connected to {}", name, url);
            fireConnected();
        } catch (Exception e) {
            closeQuietly(c);
            if (isAuthenticationFailure(e)) {
                refuse(e);
                return;
            }
            lastError = e.getMessage();
            LOG.warn("bus {}: cannot reach {} ({}); retrying in {} ms", name, url, e.getMessage(), backoff.toMillis());
            scheduleConnect();
        }
    }

    /**
     * Follows the connection's transport: a loss is logged at once, a resumption after it is a reconnection
     * ({@link InterruptionWatch}); a failure drops the connection and schedules a new one.
     */
    private void watch(ActiveMQConnection c) throws JMSException {
        c.addTransportListener(new InterruptionWatch(() -> {
            connected = false;
            LOG.warn("bus {}: lost the broker; reconnecting{}", name, whileLost);
        }, () -> {
            if (!closed) {
                worker.execute(() -> {
                    if (connection == c) {
                        connected = true;
                        connects.incrementAndGet();
                        LOG.info("bus {}: reconnected to {}", name, url);
                        fireConnected();
                    }
                });
            }
        }));
        c.setExceptionListener(e -> worker.execute(() -> {
            if (connection == c) {
                LOG.warn("bus {}: connection failed ({}); reconnecting", name, e.getMessage());
                dropConnection();
                scheduleConnect();
            }
        }));
    }

    /** The broker refused the credentials: recorded (before the error, so that whoever sees one can tell), logged, told; no retry. */
    private void refuse(Exception e) {
        refused = "bus authentication refused for user '" + user + "' at " + url + " (" + e.getMessage() + ")";
        lastError = e.getMessage();
        LOG.error("bus {}: {}; not retrying: correct bus.user and the password (bus.passwordEnv names its variable) or the broker's"
                + " accounts", name, refused);
        for (Consumer<String> cb : refusedCallbacks) {
            try {
                cb.accept(refused);
            } catch (RuntimeException x) {
                LOG.warn("bus {}: refusal callback failed", name, x);
            }
        }
    }

    /** A refusal of the credentials (not of the network): JMS's security exception, or a SecurityException under it. */
    static boolean isAuthenticationFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof JMSSecurityException || t instanceof SecurityException) {
                return true;
            }
        }
        return false;
    }

    private void scheduleConnect() {
        if (closed) {
            return;
        }
        Duration wait = backoff;
        backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        worker.schedule(this::connect, wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void dropConnection() {
        connected = false;
        ActiveMQConnection c = connection;
        connection = null;
        producer = null;
        publishSession = null;
        closeQuietly(c);
    }

    private void listen(ActiveMQConnection c, Subscription s) throws JMSException {
        Session session = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createConsumer(session.createTopic(s.topic())).setMessageListener(m -> deliver(s, m));
    }

    private void deliver(Subscription s, Message m) {
        BusMessage decoded;
        String sender;
        try {
            if (!(m instanceof TextMessage t)) {
                throw new IllegalArgumentException("not a text message");
            }
            // the size first, before the text is inflated, decoded or parsed (a 30 MB message must cost nothing more)
            long tooLarge = MessageSizeGuard.tooLarge(m);
            if (tooLarge >= 0) {
                refuseOversized(s, tooLarge);
                return;
            }
            String text = t.getText();
            if (text == null) {
                throw new IllegalArgumentException("not a text message");
            }
            if (text.length() > Topics.MAX_MESSAGE_CHARS) {
                refuseOversized(s, text.length());
                return;
            }
            decoded = BusCodec.decode(text);
            sender = m instanceof ActiveMQMessage am ? am.getUserID() : null;
        } catch (IllegalArgumentException | JMSException e) {
            long n = malformed.incrementAndGet();
            if (malformedWarnings.allow()) {
                LOG.warn("bus {}: skipped a malformed message on {}: {} ({} skipped so far)", name, s.topic(), e.getMessage(), n);
            }
            return;
        }
        received.incrementAndGet();
        try {
            s.handler().accept(decoded, sender);
        } catch (RuntimeException e) {
            LOG.error("bus {}: the handler of {} failed on a {}; the listener goes on", name, s.topic(),
                    decoded.getClass().getSimpleName(), e);
        }
    }

    private void refuseOversized(Subscription s, long size) {
        long n = oversized.incrementAndGet();
        malformed.incrementAndGet();
        if (malformedWarnings.allow()) {
            LOG.warn("bus {}: refused a message of {} bytes on {} (limit {} characters; {} refused so far)", name, size, s.topic(),
                    Topics.MAX_MESSAGE_CHARS, n);
        }
    }

    /** Messages refused for their size (also counted in {@link #malformed}). */
    public long oversized() {
        return oversized.get();
    }

    private void fireConnected() {
        for (Runnable r : connectedCallbacks) {
            try {
                r.run();
            } catch (RuntimeException e) {
                LOG.error("bus {}: a connect callback failed", name, e);
            }
        }
    }

    private static void closeQuietly(ActiveMQConnection c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing a broken connection: nothing to save
            }
        }
    }

    public boolean isConnected() {
        return connected;
    }

    /** Why the last connection attempt failed, or null if none has. */
    public String lastError() {
        return lastError;
    }

    public long dropped() {
        return dropped.get();
    }

    public long malformed() {
        return malformed.get();
    }

    public long published() {
        return published.get();
    }

    public long received() {
        return received.get();
    }

    /** Successful connections so far, reconnections included. */
    public long connects() {
        return connects.get();
    }

    public String url() {
        return url;
    }

    /**
     * Sends what is queued (up to {@code grace}), then closes. Messages queued before close are
     * sent first: a {@code leave} heartbeat published just before close goes out.
     */
    public void close(Duration grace) {
        CountDownLatch flushed = new CountDownLatch(1);
        try {
            worker.execute(flushed::countDown);
            flushed.await(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            return; // already closed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closed = true;
        try {
            worker.submit(this::dropConnection).get(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            LOG.debug("bus {}: close did not finish cleanly: {}", name, e.toString());
        }
        worker.shutdownNow();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(2));
    }
}
