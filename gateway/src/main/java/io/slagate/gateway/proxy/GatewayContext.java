package io.slagate.gateway.proxy;

import io.slagate.gateway.loop.LoopConnector;
import io.slagate.config.ClientPolicy;
import io.slagate.config.FaultStatus;
import io.slagate.gateway.auth.Authenticator;
import io.slagate.gateway.auth.ClientAddress;
import io.slagate.gateway.auth.CredentialFields;
import io.slagate.gateway.quota.Quotas;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.stats.GatewayMetrics;
import io.slagate.gateway.stats.SlaCounts;
import io.slagate.gateway.trace.Tracer;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.PreEncodedHttpField;

/** What every exchange of one gateway shares: set once at start, read on the request path. */
public final class GatewayContext {
    public static final String CLASS_HEADER = "X-Slagate-Class";
    public static final String QUEUE_MILLIS_HEADER = "X-Slagate-Queue-Millis";
    static final String FAULT_HEADER = "X-Slagate-Fault";

    public final String gatewayId;
    public final String[] classNames;
    public final QueueManager queues;
    public final GatewayMetrics metrics;
    /** For work that may block or take long (SOAP/JMS sends): never run on an event loop. */
    public final Executor executor;
    /** The client listener's event loops: an exchange's server leg runs on its client's loop. */
    public final LoopConnector loops;
    public final LongSupplier clock;
    final FaultStatus faultStatus;
    final int retryAfterSeconds;
    /** {@link #CLASS_HEADER} per class, encoded once rather than on every response. */
    public final HttpField[] classFields;
    /** How far clients are trusted and waited for. */
    public final ClientPolicy clients;
    public final Forwarded forwarded;
    /** Body deadlines (only for bodies that do not come with their headers). */
    public final ScheduledExecutorService timer;
    /** Set once, right after construction: the dispatcher is built over this context (its one late field). */
    private Forwarding dispatcher;
    /** Locality dispatch: the request header that is part of a request type (null: none), and the response header declaring working sets (null: none). */
    public final String localityKeyHeader;
    final String workingSetHeader;
    /** Per class, its deadline ({@code deadline:}), or null: the class has none, and no client header gives it one. */
    public final Duration[] deadlines;
    /** The access log, or null when it is off. */
    public final AccessLog accessLog;
    /** Decides which requests are traced and takes their spans when they end; null: tracing off. */
    public final Tracer tracer;
    /** The subscription quotas (every configuration's: they outlive a reload). */
    public final Quotas quotas;
    /** Proves customers, or null: the customer is the name a request claims. */
    public final Authenticator authenticator;
    /** What of a client's credentials is kept from the server, and the verified-identity header; null: authentication off. */
    public final CredentialFields credentialFields;
    /** The WWW-Authenticate fields of a 401, encoded once. */
    final HttpField[] challenges;
    /** What each answer counts toward its class's objective. */
    public final SlaCounts sla;

    /** What the gateway's settings decide for every request: its records, quotas, authentication and locality headers. */
    public record Policies(AccessLog accessLog, Tracer tracer, Quotas quotas, Authenticator authenticator, CredentialFields credentialFields,
                    HttpField[] challenges, String localityKeyHeader, String workingSetHeader, SlaCounts sla) {
    }
    private static final HttpField[] QUEUE_MILLIS = new HttpField[100];

    static {
        for (int i = 0; i < QUEUE_MILLIS.length; i++) {
            QUEUE_MILLIS[i] = new PreEncodedHttpField(QUEUE_MILLIS_HEADER, Integer.toString(i));
        }
    }

    /** The dispatcher, built over this context: set once, right after construction. */
    public void dispatcher(Forwarding d) {
        if (dispatcher != null) {
            throw new IllegalStateException("the dispatcher is set once");
        }
        dispatcher = d;
    }

    Forwarding dispatcher() {
        return dispatcher;
    }

    /** {@link #QUEUE_MILLIS_HEADER} for a queueing time; the short ones (most of them) pre-encoded. */
    public static HttpField queueMillisField(long millis) {
        return millis >= 0 && millis < QUEUE_MILLIS.length ? QUEUE_MILLIS[(int) millis]
                : new HttpField(QUEUE_MILLIS_HEADER, Long.toString(millis));
    }

    public GatewayContext(String gatewayId, String[] classNames, QueueManager queues, GatewayMetrics metrics, Executor executor,
                   LongSupplier clock, FaultStatus faultStatus, int retryAfterSeconds, ClientPolicy clients,
                   ScheduledExecutorService timer, LoopConnector loops, Policies policies) {
        this.loops = loops;
        this.accessLog = policies.accessLog();
        this.tracer = policies.tracer();
        this.quotas = policies.quotas();
        this.authenticator = policies.authenticator();
        this.credentialFields = policies.credentialFields();
        this.challenges = policies.challenges();
        this.localityKeyHeader = policies.localityKeyHeader();
        this.workingSetHeader = policies.workingSetHeader();
        this.sla = policies.sla();
        this.clients = clients;
        this.forwarded = new Forwarded(new ClientAddress(clients.trustedProxies()));
        this.timer = timer;
        this.gatewayId = gatewayId;
        this.classNames = classNames;
        this.queues = queues;
        this.metrics = metrics;
        this.executor = executor;
        this.clock = clock;
        this.faultStatus = faultStatus;
        this.retryAfterSeconds = retryAfterSeconds;
        this.classFields = new HttpField[classNames.length];
        this.deadlines = new Duration[classNames.length];
        for (int i = 0; i < classNames.length; i++) {
            classFields[i] = new PreEncodedHttpField(CLASS_HEADER, classNames[i]);
        }
    }
}
