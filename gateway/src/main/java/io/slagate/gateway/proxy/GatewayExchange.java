package io.slagate.gateway.proxy;

import io.slagate.gateway.loop.LoopConnector;
import io.slagate.gateway.locality.LocalityLearner;
import io.slagate.gateway.listener.ClientConnection;
import io.slagate.gateway.sched.QueuedRequest;
import io.slagate.gateway.sched.Rejection;
import io.slagate.gateway.sched.ServerSlots;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.soap.SoapVersion;
import io.slagate.gateway.trace.FinishedRequest;
import io.slagate.gateway.trace.RequestSpan;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client request through the gateway, from arrival to its single response. It waits in its
 * class queue as a {@link QueuedRequest} (no thread), is forwarded by the dispatcher ({@link Forwarding}) once
 * admitted, and ends in exactly one of: the server's response relayed, a SOAP fault, or (only when
 * the server broke off after the response had started) an aborted client connection. One CAS on
 * {@code flags} decides which; the slot on the server is released exactly once, by another.
 */
public final class GatewayExchange extends QueuedRequest implements UpstreamExchange {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayExchange.class);
    private static final int SLOT_RELEASED = 1;
    private static final int FINISHED = 2;

    final Request request;
    final Response response;
    final Callback callback;
    final SoapVersion soapVersion;
    final GatewayContext context;
    /**
     * {@link #SLOT_RELEASED} and {@link #FINISHED}, set by CAS ({@link #FLAGS}): a field, not an AtomicInteger, since
     * every waiting request holds one.
     */
    private volatile int flags;
    private static final VarHandle FLAGS;

    static {
        try {
            FLAGS = MethodHandles.lookup().findVarHandle(GatewayExchange.class, "flags", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    private volatile ServerSlots server;
    private volatile long admittedNanos;
    private volatile boolean requestCommitted;
    private volatile boolean tooLarge;
    /** Servers this request was sent to (bit = server index), so a retry never goes back to one. */
    private long tried;
    /** A request type not known to locality dispatch yet: its key, learned if a server answers it 2xx (else null). */
    String localityKey;
    /** The client's body as read before admission, or null when the request has none. */
    RequestBody body;
    /** The event loop of the client's connection: this exchange's server leg runs there too. */
    int loop;
    /** The request's SOAP operation (for the access log), or null. */
    String operation;
    /**
     * The {@code traceparent} sent to the server in place of the client's: one started here (the client sent none), or
     * the traced request's call to the server; null: the client's, as it came.
     */
    String startedTrace;
    /** Its spans when it is traced, else null. */
    RequestSpan span;

    /** A classified request of {@code customer} (null: none claimed), for SOAP operation {@code operation} (null: unknown). */
    public GatewayExchange(GatewayContext context, int classIndex, long arrivedNanos, Request request, Response response,
                    Callback callback, SoapVersion soapVersion, String customer, String operation) {
        super(classIndex, arrivedNanos, customer);
        this.context = context;
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.soapVersion = soapVersion;
        this.operation = operation;
        this.loop = LoopConnector.loopOf(request.getConnectionMetaData().getConnection().getEndPoint());
    }

    /** The request's spans where it is traced (else null), and the traceparent sent to the server in place of the client's (null: the client's). */
    public void trace(RequestSpan span, String startedTrace) {
        this.span = span;
        this.startedTrace = startedTrace;
    }

    @Override
    public Request request() {
        return request;
    }

    @Override
    public Response response() {
        return response;
    }

    @Override
    public GatewayContext context() {
        return context;
    }

    @Override
    public SoapVersion soapVersion() {
        return soapVersion;
    }

    @Override
    public int loop() {
        return loop;
    }

    @Override
    public String startedTrace() {
        return startedTrace;
    }

    /** The client's body, read before admission (null: the request has none). */
    @Override
    public RequestBody body() {
        return body;
    }

    /** The body as read before the customer was known (its credential was in it). */
    public void body(RequestBody body) {
        this.body = body;
    }

    /** A request type locality dispatch does not know yet: learned under {@code key} if a server answers it 2xx. */
    public void localityKey(String key) {
        this.localityKey = key;
    }

    /** The thread offering this request to the queue manager, while it does; see {@link #onAdmitted}. */
    private Thread offeringThread;
    private boolean admittedDuringOffer;

    /** Queues this request; one admitted at once goes to its server now, from the caller's thread. */
    public void enqueue() {
        if (offer()) {
            context.dispatcher().forward(this);
        }
    }

    /** Offers this request; true when it was admitted at once and the caller must forward it. */
    private boolean offer() {
        offeringThread = Thread.currentThread();
        Rejection r = context.queues.offer(this);
        offeringThread = null;
        if (r != null) {
            fault(FaultReason.QUEUE_FULL);
            return false;
        }
        return admittedDuringOffer;
    }

    @Override
    protected void onAdmitted(ServerSlots s) {
        server = s;
        admittedNanos = context.clock.getAsLong();
        if (Thread.currentThread() == offeringThread) {
            // Admitted by its own arrival (a free slot): the arrival thread forwards it, no handoff.
            admittedDuringOffer = true;
            return;
        }
        // Admitted by another request's completion, an arrival or the controller: forwarded on its own
        // loop, queued behind that loop's current events (never on the stack of the thread that
        // completed a request, which must get back to its own work; from its own loop no wake-up). It
        // waited, so its client may have left meanwhile: then the slot goes to the next request.
        context.loops.execute(loop, this::forwardAdmitted);
    }

    private void forwardAdmitted() {
        if (clientGone()) {
            clientFault(FaultReason.CLIENT_ABORTED);
        } else if (pastDeadline(context.clock.getAsLong())) {
            fault(FaultReason.DEADLINE_EXCEEDED); // releases the slot: the next request takes it
        } else {
            context.dispatcher().forward(this);
        }
    }

    /** Whether the client closed its connection while this request waited (its connection knows how to tell). */
    private boolean clientGone() {
        if (body != null && !body.complete()) {
            return false; // still streaming its body: the sender will see whether it is there
        }
        ClientConnection connection = ClientConnection.of(request);
        return connection == null ? !request.getConnectionMetaData().getConnection().getEndPoint().isOpen()
                : connection.clientGone(response);
    }

    @Override
    protected void onExpired() {
        fault(expiredForDeadline() ? FaultReason.DEADLINE_EXCEEDED : FaultReason.QUEUE_TIMEOUT);
    }

    /** When the answer stops being useful (arrival + the smaller of the class's and the client's deadline), or 0: none. */
    private long deadlineAtNanos;

    /**
     * The request's deadline, for a class that has one ({@code deadline:}): the class's, or the client's
     * {@code X-Request-Deadline} (milliseconds from now, a whole number) when smaller. It must be admitted
     * early enough for the class's predicted service time to fit; past that it is answered with
     * {@code deadline-exceeded} instead of being sent. A header that does not parse is ignored and counted.
     */
    public void deadline(HttpFields headers) {
        Duration classDeadline = context.deadlines[classIndex()];
        if (classDeadline == null) {
            return;
        }
        long nanos = classDeadline.toNanos();
        String h = headers.get(DEADLINE_HEADER);
        if (h != null) {
            long ms = parseMillis(h);
            if (ms < 0) {
                context.metrics.badDeadlineHeader();
            } else {
                nanos = Math.min(nanos, TimeUnit.MILLISECONDS.toNanos(ms));
            }
        }
        deadlineAtNanos = enqueuedNanos() + nanos;
        if (deadlineAtNanos == 0) {
            deadlineAtNanos = 1; // 0 means none
        }
        admitBy(deadlineAtNanos - context.metrics.predictedServiceNanos(classIndex()));
    }


    /** A whole number of milliseconds from 0 to one hour, or −1. */
    static long parseMillis(String s) {
        String t = s.trim();
        if (t.isEmpty() || t.length() > 7) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < t.length(); i++) {
            char ch = t.charAt(i);
            if (ch < '0' || ch > '9') {
                return -1;
            }
            v = v * 10 + (ch - '0');
        }
        return v <= 3_600_000 ? v : -1;
    }

    /** Whether a request with a deadline can no longer meet it if sent now (checked once admitted: the sweeper is coarse). */
    boolean pastDeadline(long nowNanos) {
        return deadlineAtNanos != 0 && nowNanos + context.metrics.predictedServiceNanos(classIndex()) - deadlineAtNanos > 0;
    }

    /** What a server should know of the deadline: the milliseconds left, passed on as X-Request-Deadline. */
    @Override
    public long remainingDeadlineMillis(long nowNanos) {
        return deadlineAtNanos == 0 ? -1 : Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineAtNanos - nowNanos));
    }

    @Override
    public ServerSlots server() {
        return server;
    }

    @Override
    public void moveTo(ServerSlots other) {
        server = other;
    }

    /** Records the current server as tried; returns the mask of every server tried so far. */
    @Override
    public long markTried() {
        int i = server.index();
        if (i < 64) {
            tried |= 1L << i;
        }
        return tried;
    }

    @Override
    public String className() {
        return context.classNames[classIndex()];
    }

    @Override
    public long queueingNanos() {
        long a = admittedNanos;
        return a == 0 ? 0 : a - enqueuedNanos();
    }

    @Override
    public void markCommitted() {
        requestCommitted = true;
    }

    @Override
    public boolean requestCommitted() {
        return requestCommitted;
    }

    @Override
    public void markTooLarge() {
        tooLarge = true;
    }

    @Override
    public boolean tooLarge() {
        return tooLarge;
    }

    /** Gives the server slot back (once) so the scheduler can admit the next request. */
    @Override
    public void releaseSlot() {
        ServerSlots s = server;
        if (s != null && ((int) FLAGS.getAndBitwiseOr(this, SLOT_RELEASED) & SLOT_RELEASED) == 0) {
            context.queues.release(s, classIndex());
        }
    }

    private boolean finish() {
        return ((int) FLAGS.getAndBitwiseOr(this, FINISHED) & FINISHED) == 0;
    }

    /** The response's headers, as the server sent them: the working set it may declare teaches locality dispatch. */
    @Override
    public void workingSetDeclared(HttpFields serverHeaders) {
        if (!readsWorkingSet()) {
            return;
        }
        LocalityLearner learner = context.queues.pools().learner(classIndex());
        if (learner != null) {
            learner.workingSet(requestType(), serverHeaders.get(context.workingSetHeader));
        }
    }

    /** Whether the server's answer declares a working set this gateway learns from (locality on, a typed request). */
    @Override
    public boolean readsWorkingSet() {
        return requestType() >= 0 && context.workingSetHeader != null;
    }

    /** When a server slot was given to this request (clock nanos), or 0 while it has none. */
    long admittedNanos() {
        return admittedNanos;
    }

    private void logged(FaultReason reason) {
        AccessLog log = context.accessLog;
        RequestSpan traced = span;
        if (log == null && traced == null) {
            return;
        }
        long now = context.clock.getAsLong();
        if (log != null) {
            log.finished(this, reason, now);
        }
        if (traced != null) {
            ServerSlots s = server;
            context.tracer.finished(new FinishedRequest(traced, enqueuedNanos(), admittedNanos, now, request.getMethod(),
                    request.getHttpURI().getPath(), className(), customer(), operation, s == null ? null : s.id(), response.getStatus(),
                    reason == null ? null : reason.code()));
        }
    }

    /** The server's response was relayed completely. */
    @Override
    public void completed() {
        releaseSlot();
        if (!finish()) {
            return;
        }
        long now = context.clock.getAsLong();
        long admitted = admittedNanos;
        context.metrics.completed(classIndex(), admitted - enqueuedNanos(), now - admitted, now - enqueuedNanos());
        context.sla.answered(classIndex(), customer(), now - enqueuedNanos(), response.getStatus());
        logged(null);
        ServerSlots s = server;
        if (s != null) {
            context.metrics.servers().completed(s.index(), now - admitted);
            LocalityLearner learner = requestType() >= 0 || localityKey != null
                    ? context.queues.pools().learner(classIndex()) : null;
            if (learner != null && requestType() >= 0) {
                learner.served(requestType(), s.index(), now - admitted);
            } else if (learner != null && response.getStatus() / 100 == 2) {
                learner.learn(localityKey); // a type the servers answer: worth a place in the table
            }
        }
        callback.succeeded();
    }

    /**
     * Answers with a SOAP fault in the request's SOAP version. If the response already started
     * (the server broke off mid-stream) a fault can no longer be written: the client connection is
     * aborted instead, so the client sees a failure rather than a truncated success.
     */
    @Override
    public void fault(FaultReason reason) {
        releaseSlot();
        if (!finish()) {
            return;
        }
        context.metrics.faulted(classIndex(), reason);
        context.sla.faulted(classIndex(), customer(), reason);
        if (response.isCommitted()) {
            LOG.debug("{} P2C abort after commit: {}", this, reason.code());
            logged(reason);
            callback.failed(new IllegalStateException("server failed mid-response: " + reason.code()));
            return;
        }
        if (reason == FaultReason.QUEUE_FULL || reason == FaultReason.QUEUE_TIMEOUT) {
            LOG.debug("{}: class {} waiting {}, executing {}", reason.code(), className(),
                    context.queues.counts().waiting(classIndex()), context.queues.counts().executing(classIndex()));
        }
        FaultAnswers.write(context, response, callback, soapVersion, reason, className());
        logged(reason);
    }

    /** The client went away or the response could not be written: its fault, nothing to answer. */
    @Override
    public void clientFailed(Throwable failure) {
        releaseSlot();
        if (finish()) {
            context.metrics.faulted(classIndex(), FaultReason.CLIENT_ABORTED);
            logged(FaultReason.CLIENT_ABORTED);
            callback.failed(failure);
        }
    }

    /**
     * Cuts off a client that does not take its answer: the client's response ends in failure (its
     * connection is aborted), which fails the write the relay is waiting on and frees the server.
     */
    @Override
    public void abortClient(FaultReason reason) {
        releaseSlot();
        if (finish()) {
            context.metrics.faulted(classIndex(), reason);
            context.sla.faulted(classIndex(), customer(), reason);
            logged(reason);
            callback.failed(new TimeoutException(reason.text()));
        }
    }

    /**
     * Ends the exchange for something its client did (a body that is malformed, too large or late; a
     * client that left). Charged to the client's class, never to a server: no health decision sees it.
     */
    @Override
    public void clientFault(FaultReason reason) {
        if (reason == FaultReason.CLIENT_ABORTED) {
            clientFailed(new EofException("the client closed its connection"));
        } else {
            fault(reason);
        }
    }

    @Override
    public String toString() {
        return "exchange@" + Integer.toHexString(System.identityHashCode(this));
    }
}
