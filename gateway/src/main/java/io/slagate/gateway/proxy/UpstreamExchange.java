package io.slagate.gateway.proxy;

import io.slagate.gateway.sched.ServerSlots;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.soap.SoapVersion;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * What a server leg may do with the admitted exchange it carries: read the client's request and write its response,
 * mark how far the request got toward the server, and end the exchange exactly once — answered, faulted, or cut off
 * for what the client did. The way in never sees this side; the legs never see the queue.
 */
public interface UpstreamExchange {
    /** The client's own deadline, in whole milliseconds from arrival; sent on to the server as what is left of it. */
    String DEADLINE_HEADER = "X-Request-Deadline";

    Request request();

    Response response();

    /** The client's body as read before admission, or null when the request has none. */
    RequestBody body();

    GatewayContext context();

    SoapVersion soapVersion();

    /** The event loop of the client's connection: the server leg runs there too. */
    int loop();

    int classIndex();

    String className();

    /** The customer the request was classified for, or null. */
    String customer();

    /** The traceparent sent to the server in place of the client's, or null: the client's, as it came. */
    String startedTrace();

    /** The server it was admitted to (or moved to). */
    ServerSlots server();

    /** Moves the exchange to {@code other}, keeping its class slot (a retry on a server that never got it). */
    void moveTo(ServerSlots other);

    /** Marks the server in force as tried; the servers tried so far, a bit each. */
    long markTried();

    long queueingNanos();

    /** What is left of its deadline now, in whole milliseconds (Long.MAX_VALUE: none). */
    long remainingDeadlineMillis(long nowNanos);

    /** The request has started toward the server: it may have executed, so it is never sent again. */
    void markCommitted();

    boolean requestCommitted();

    /** The body turned out longer than the gateway takes. */
    void markTooLarge();

    boolean tooLarge();

    /** Gives the server slot back (once, whoever calls it first). */
    void releaseSlot();

    /** The server's answer declared working-set hints (locality dispatch). */
    void workingSetDeclared(HttpFields serverHeaders);

    boolean readsWorkingSet();

    /** The server's response was relayed completely. */
    void completed();

    /** Answers with a SOAP fault in the request's version (or aborts a response already started). */
    void fault(FaultReason reason);

    /** The client went away or its response could not be written. */
    void clientFailed(Throwable failure);

    /** Cuts off a client that does not take its answer. */
    void abortClient(FaultReason reason);

    /** Ends the exchange for something its client did. */
    void clientFault(FaultReason reason);
}
