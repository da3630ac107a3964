package io.slagate.gateway.upstream;

import io.slagate.gateway.proxy.ClientSideFailure;
import io.slagate.gateway.proxy.GatewayContext;
import io.slagate.gateway.proxy.UpstreamExchange;

import io.slagate.bus.BusConnections;
import io.slagate.config.BusSettings;
import io.slagate.config.ServerConfig;
import io.slagate.gateway.sched.ServerSlots;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.soap.SoapVersion;
import io.slagate.gateway.stats.GatewayMetrics.ServerError;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import org.apache.activemq.ActiveMQConnection;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.transport.TransportListener;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dispatch handler's SOAP over JMS leg (the paper's "SOAP over HTTP and SOAP over JMS"): an
 * admitted request for a {@code jms:queue:NAME} server is sent as one message to that queue on the
 * bus's broker, following the SOAP/JMS binding's conventions (a bytes message; reply-to, our own
 * correlation id; {@code SOAPJMS_soapAction}, {@code SOAPJMS_contentType}, {@code SOAPJMS_bindingVersion}
 * and {@code SOAPJMS_requestURI}, plus the {@code SOAPAction} and {@code Content-Type} properties Axis2's
 * JMS transport reads). The reply, matched by correlation id on one temporary queue, is relayed to
 * the client. Slots, caps and counters are exactly those of an HTTP server; no thread waits for a
 * reply (a map of pending requests, a timer for the server timeout).
 *
 * <p>The whole request body is read before sending (a JMS message is one unit), bounded by the
 * gateway's request size limit. A request that cannot be sent (no broker) gets {@code server-unreachable};
 * no reply within the server timeout, {@code server-timeout} (the message expires at the broker by
 * then, so a late consumer does not execute it; a reply that still comes is dropped).
 */
final class JmsDispatcher extends AbstractLifeCycle {
    private static final Logger LOG = LoggerFactory.getLogger(JmsDispatcher.class);
    private static final long RETRY_MILLIS = 2000;

    private record Pending(UpstreamExchange exchange, ScheduledFuture<?> timeout) {
    }

    private final GatewayContext context;
    private final BusSettings bus;
    private final String[] queueNames; // by server index; null for HTTP servers
    private final String[] requestUris;
    private final long serverTimeoutMillis;
    private final long maxRequestBytes;
    private final ScheduledExecutorService timer;
    private final String correlationPrefix;
    private final AtomicLong sequence = new AtomicLong();
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final Object sendLock = new Object(); // a JMS session is single-threaded
    // guarded by sendLock
    private ActiveMQConnection connection;
    private Session sendSession;
    private MessageProducer producer;
    private Queue[] queues;
    private TemporaryQueue replies;
    private volatile ScheduledFuture<?> retry;
    /** False while the failover transport is between brokers: sends would block, so requests fail fast instead. */
    private volatile boolean brokerUp;

    JmsDispatcher(GatewayContext context, BusSettings bus, List<ServerConfig> servers, long serverTimeoutMillis,
                  long maxRequestBytes, ScheduledExecutorService timer) {
        this.context = context;
        this.bus = bus;
        this.queueNames = new String[servers.size()];
        this.requestUris = new String[servers.size()];
        for (int i = 0; i < queueNames.length; i++) {
            if (servers.get(i).isJms()) {
                queueNames[i] = servers.get(i).jmsQueue();
                requestUris[i] = servers.get(i).url().toString();
            }
        }
        this.serverTimeoutMillis = serverTimeoutMillis;
        this.maxRequestBytes = maxRequestBytes;
        this.timer = timer;
        this.correlationPrefix = context.gatewayId + "-" + Long.toHexString(System.nanoTime()) + "-";
    }

    static boolean anyJms(List<ServerConfig> servers) {
        return servers.stream().anyMatch(ServerConfig::isJms);
    }

    /** Whether server {@code index} is a JMS queue. */
    boolean serves(int index) {
        return queueNames[index] != null;
    }

    /** Connects on its own thread: an unreachable broker host can take a TCP connect timeout to refuse. */
    private ScheduledExecutorService connector;

    @Override
    protected void doStart() {
        connector = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "slagate-" + context.gatewayId + "-jms-connect");
            t.setDaemon(true);
            return t;
        });
        retry = connector.schedule(this::connectOrRetry, 0, TimeUnit.MILLISECONDS);
    }

    private void connectOrRetry() {
        if (!isRunning() && !isStarting()) {
            return;
        }
        try {
            connect();
        } catch (Exception e) {
            LOG.warn("SOAP/JMS: cannot reach the broker at {} ({}); JMS servers answer server-unreachable until it can;"
                    + " retrying in {} ms", bus.url(), e.getMessage(), RETRY_MILLIS);
            closeConnection();
            try {
                retry = connector.schedule(this::connectOrRetry, RETRY_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopping) {
                // the gateway is stopping
            }
        }
    }

    private void connect() throws Exception {
        ActiveMQConnectionFactory f = BusConnections.connectionFactory(BusConnections.effectiveUrl(bus.url()), bus.user(),
                bus.password(), bus.tls());
        f.setWatchTopicAdvisories(false);
        ActiveMQConnection c = (ActiveMQConnection) f.createConnection();
        c.addTransportListener(new TransportListener() {
            @Override
            public void onCommand(Object command) {
            }

            @Override
            public void onException(IOException error) {
                brokerUp = false;
            }

            @Override
            public void transportInterupted() {
                brokerUp = false;
                LOG.warn("SOAP/JMS: lost the broker; JMS servers answer server-unreachable until it is back");
            }

            @Override
            public void transportResumed() {
                brokerUp = true;
                LOG.info("SOAP/JMS: broker back");
            }
        });
        synchronized (sendLock) {
            connection = c;
            sendSession = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            producer = sendSession.createProducer(null);
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT); // a lost request is answered by the timeout
            queues = new Queue[queueNames.length];
            for (int i = 0; i < queueNames.length; i++) {
                if (queueNames[i] != null) {
                    queues[i] = sendSession.createQueue(queueNames[i]);
                }
            }
            replies = sendSession.createTemporaryQueue();
            Session receive = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            receive.createConsumer(replies).setMessageListener(this::onReply);
            c.start();
            brokerUp = true;
        }
        LOG.info("SOAP/JMS: connected to {}; replies on {}", bus.url(), replies);
    }

    @Override
    protected void doStop() {
        ScheduledFuture<?> r = retry;
        if (r != null) {
            r.cancel(false);
        }
        connector.shutdownNow();
        closeConnection();
        for (String corr : pending.keySet()) {
            Pending p = pending.remove(corr);
            if (p != null) {
                p.timeout().cancel(false);
                p.exchange().fault(FaultReason.SERVER_UNREACHABLE);
            }
        }
    }

    private void closeConnection() {
        brokerUp = false;
        synchronized (sendLock) {
            if (connection != null) {
                try {
                    connection.close();
                } catch (JMSException e) {
                    LOG.debug("SOAP/JMS: closing: {}", e.toString());
                }
            }
            connection = null;
            sendSession = null;
            producer = null;
        }
    }

    /** Reads the body (bounded), then sends; runs on the thread that forwards the admitted request. */
    void send(UpstreamExchange ex) {
        if (!HttpMethod.POST.is(ex.request().getMethod())) {
            ex.fault(FaultReason.MALFORMED_REQUEST); // a JMS server has no WSDL to GET
            return;
        }
        byte[] whole = ex.body().whole(); // a POST always has a body (refused at arrival otherwise)
        if (whole != null) {
            sendMessage(ex, whole); // read before admission, as most are
            return;
        }
        // the same size limit as for HTTP servers: past it the exchange is marked too large and reading fails
        Content.Source.asByteArrayAsync(new LimitedRequestContent(ex, maxRequestBytes), -1).whenComplete((body, failure) -> {
            if (failure == null) {
                sendMessage(ex, body);
            } else if (ex.tooLarge()) {
                ex.fault(FaultReason.REQUEST_TOO_LARGE);
            } else {
                ex.clientFault(ClientSideFailure.of(failure instanceof CompletionException
                        && failure.getCause() != null ? failure.getCause() : failure).reason);
            }
        });
    }

    private void sendMessage(UpstreamExchange ex, byte[] body) {
        ServerSlots server = ex.server();
        String corr = correlationPrefix + sequence.incrementAndGet();
        ScheduledFuture<?> timeout = timer.schedule(() -> timedOut(corr, server), serverTimeoutMillis, TimeUnit.MILLISECONDS);
        pending.put(corr, new Pending(ex, timeout));
        String contentType = ex.request().getHeaders().get(HttpHeader.CONTENT_TYPE);
        String action = SoapVersion.operation(ex.request().getHeaders().get("SOAPAction"), contentType);
        try {
            if (!brokerUp) {
                throw new JMSException("not connected to the broker");
            }
            synchronized (sendLock) {
                if (producer == null) {
                    throw new JMSException("not connected to the broker");
                }
                BytesMessage m = sendSession.createBytesMessage();
                m.writeBytes(body);
                m.setJMSCorrelationID(corr);
                m.setJMSReplyTo(replies);
                m.setStringProperty("SOAPJMS_bindingVersion", "1.0");
                m.setStringProperty("SOAPJMS_requestURI", requestUris[server.index()]);
                if (contentType != null) {
                    m.setStringProperty("SOAPJMS_contentType", contentType);
                    m.setStringProperty("Content-Type", contentType);
                }
                if (action != null) {
                    m.setStringProperty("SOAPJMS_soapAction", action);
                    m.setStringProperty("SOAPAction", action);
                }
                producer.send(queues[server.index()], m, DeliveryMode.NON_PERSISTENT, Message.DEFAULT_PRIORITY, serverTimeoutMillis);
            }
            ex.markCommitted();
        } catch (JMSException | RuntimeException e) {
            Pending p = pending.remove(corr);
            if (p != null) {
                timeout.cancel(false);
                context.metrics.servers().error(server.index(), ServerError.CONNECT);
                LOG.debug("{} SOAP/JMS send to {} failed: {}", ex, queueNames[server.index()], e.toString());
                ex.fault(FaultReason.SERVER_UNREACHABLE);
            }
        }
    }

    private void timedOut(String corr, ServerSlots server) {
        Pending p = pending.remove(corr);
        if (p != null) {
            context.metrics.servers().error(server.index(), ServerError.TIMEOUT);
            p.exchange().fault(FaultReason.SERVER_TIMEOUT);
        }
    }

    private void onReply(Message m) {
        Pending p;
        byte[] body;
        String contentType;
        boolean fault;
        try {
            p = pending.remove(String.valueOf(m.getJMSCorrelationID()));
            if (p == null) {
                LOG.debug("SOAP/JMS: a reply for {} after its timeout, or not ours; dropped", m.getJMSCorrelationID());
                return;
            }
            p.timeout().cancel(false);
            body = bodyOf(m);
            contentType = m.getStringProperty("SOAPJMS_contentType");
            if (contentType == null) {
                contentType = m.getStringProperty("Content-Type");
            }
            fault = m.propertyExists("SOAPJMS_isFault") ? m.getBooleanProperty("SOAPJMS_isFault") : looksLikeFault(body);
        } catch (JMSException | RuntimeException e) {
            LOG.warn("SOAP/JMS: unreadable reply: {}", e.toString());
            return; // its request is answered by its timeout
        }
        UpstreamExchange ex = p.exchange();
        if (contentType == null) {
            contentType = ex.soapVersion() == null ? "text/xml; charset=UTF-8" : ex.soapVersion().contentType();
        }
        ex.releaseSlot();
        var response = ex.response();
        response.setStatus(fault ? 500 : 200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.getHeaders().put(GatewayContext.CLASS_HEADER, ex.className());
        response.getHeaders().put(GatewayContext.QUEUE_MILLIS_HEADER, Long.toString(TimeUnit.NANOSECONDS.toMillis(ex.queueingNanos())));
        response.write(true, ByteBuffer.wrap(body), Callback.from(ex::completed, ex::clientFailed));
    }

    /**
     * Whether a reply without {@code SOAPJMS_isFault} (Axis2 does not set it) carries a SOAP Fault:
     * a {@code Fault} element within the first 4 KB, where a fault body starts.
     */
    static boolean looksLikeFault(byte[] body) {
        // "Fault" right after '<' or a prefix's ':', followed by '>' or a space; a byte scan, no string copy
        int end = Math.min(body.length, 4096) - 6;
        for (int i = 1; i <= end; i++) {
            if ((body[i - 1] == '<' || body[i - 1] == ':') && body[i] == 'F' && body[i + 1] == 'a' && body[i + 2] == 'u'
                    && body[i + 3] == 'l' && body[i + 4] == 't' && (body[i + 5] == '>' || body[i + 5] == ' ')) {
                return true;
            }
        }
        return false;
    }

    private static byte[] bodyOf(Message m) throws JMSException {
        if (m instanceof BytesMessage b) {
            byte[] bytes = new byte[(int) b.getBodyLength()];
            b.readBytes(bytes);
            return bytes;
        }
        if (m instanceof TextMessage t) {
            return t.getText() == null ? new byte[0] : t.getText().getBytes(StandardCharsets.UTF_8);
        }
        throw new JMSException("a reply must be a bytes or text message, not " + m.getClass().getSimpleName());
    }
}
