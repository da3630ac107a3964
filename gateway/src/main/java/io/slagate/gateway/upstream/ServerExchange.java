package io.slagate.gateway.upstream;

import io.slagate.gateway.proxy.ClientSideFailure;
import io.slagate.gateway.proxy.GatewayContext;
import io.slagate.gateway.proxy.UpstreamExchange;

import io.slagate.config.ClientPolicy;
import io.slagate.gateway.sched.ServerSlots;
import io.slagate.gateway.http1.ResponseHead;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.stats.GatewayMetrics;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;
import org.eclipse.jetty.util.Promise;

/**
 * One admitted request on a {@link ServerConnection}: the proxy→server leg (P2S: request head and
 * streamed body, {@link RequestSender}) and the server→proxy→client legs (S2P and P2C, {@link Relay}).
 *
 * <p>The relay is the exchange's single owner of its outcome: it alone writes to the client and
 * decides between the relayed response and a fault. Everything else that can end an exchange (the
 * server timeout, a failed request body, the server closing) only closes the connection and wakes
 * the relay, which reads why. So nothing races on the client's response. The connection goes back
 * to its pool before the slot is released, so the request that slot admits finds it idle.
 */
final class ServerExchange implements Promise<ServerConnection> {
    private final Dispatcher dispatcher;
    private final UpstreamExchange ex;
    private final ServerSlots server;
    private final ServerConnectionPool pool;
    private final long timeoutMillis;
    final Relay relay = new Relay();
    private final RequestSender sender;
    private ServerConnection connection;
    private Object group;
    private volatile boolean timedOut;
    private volatile Throwable requestFailure;
    /** Set when the client, not the server, stalled the exchange: why it ends. */
    private volatile FaultReason clientStall;
    private final ClientPolicy clients;
    /** The request leg failed after the answer was complete but before it was settled: the connection is not reused. */
    private volatile boolean requestFailedLate;
    /** Request leg and answer leg: the one that ends last decides what becomes of the connection. */
    private final AtomicInteger legs = new AtomicInteger(2);

    ServerExchange(Dispatcher dispatcher, UpstreamExchange ex, ServerSlots server, ServerConnectionPool pool,
                   long timeoutMillis, long maxRequestBytes) {
        this.dispatcher = dispatcher;
        this.ex = ex;
        this.server = server;
        this.pool = pool;
        this.timeoutMillis = timeoutMillis;
        this.clients = ex.context().clients;
        this.sender = new RequestSender(this, ex, pool.pathPrefix, maxRequestBytes);
    }

    void start() {
        group = pool.groupOf(ex);
        pool.acquire(ex.loop(), group, this);
    }

    /** A connection is ours: arm the timeout, listen for the answer, send the request. */
    @Override
    public void succeeded(ServerConnection c) {
        connection = c;
        c.group = group; // a new connection joins the request's group; a reused one is in it already
        Request c2p = ex.request();
        pool.handedOut(c, ex.loop());
        c.attach(this, timeoutMillis, HttpMethod.HEAD.is(c2p.getMethod()));
        c.needInput(); // an early answer (before the body is sent) is read as it comes
        sender.start(c);
    }

    /** No connection (refused, connect timeout): the request was never sent, so another server may take it. */
    @Override
    public void failed(Throwable failure) {
        dispatcher.upstreamFailed(ex, server, failure, null, false);
    }

    /**
     * Gives the connection back (or closes it), then the slot: in that order, so the request the slot
     * admits finds the connection idle. Called once both legs ended, or at once when not reusable.
     */
    private void releaseConnection(boolean reusable) {
        connection.detach(reusable);
        ex.releaseSlot();
    }

    /** The request went out whole: when the answer was complete first and left the connection to this leg, it ends the exchange. */
    void requestSent() {
        if (legs.decrementAndGet() == 0) {
            releaseConnection(true);
            relay.finish();
        }
    }

    /** The request could not go out whole (the client's body failed, the write failed). */
    void requestFailed(Throwable cause) {
        if (relay.reusable) {
            releaseConnection(false); // the answer is complete; the connection is not fit for another
            relay.finish();
            return;
        }
        if (relay.answered) {
            // the answer is complete and being settled (a description rewritten off the loop, or a timer's
            // close racing the answer): this leg ends here, not reusable; whichever leg ends last finishes
            requestFailedLate = true;
            if (legs.decrementAndGet() == 0) {
                releaseConnection(false);
                relay.finish();
            }
            return;
        }
        if (!relay.over) {
            requestFailure = cause;
            connection.close(); // the relay sees the connection closed and reads requestFailure
        }
    }

    /**
     * Called by the connection's timer: the relay answers server-timeout once it sees the connection
     * closed. Time the exchange spent waiting for its client (its body, or taking the answer) is not
     * the server's: then the server gets its timeout anew and the client's own deadline decides.
     */
    void timedOut() {
        if (relay.writing || sender.waitingForClient) {
            connection.extendServerTimeout(timeoutMillis);
            return;
        }
        timedOut = true;
        connection.close();
    }

    /**
     * Called by the connection's client timer: the client sent no body data, or took no part of its
     * answer, for the configured time. Its fault: it ends without touching the server's health.
     */
    void clientStalled() {
        if (relay.writing) {
            // The relay waits on a write the client does not take: end the client's response, which
            // fails that write; the relay then drops the connection (the answer was not read whole).
            ex.abortClient(FaultReason.RESPONSE_TIMEOUT);
        } else if (sender.waitingForClient) {
            clientStall = FaultReason.REQUEST_TIMEOUT;
            connection.close(); // the relay sees the connection closed and reads clientStall
        }
    }

    private Throwable closedCause() {
        FaultReason stall = clientStall;
        if (stall != null) {
            return new ClientSideFailure(stall, "the client's body stalled");
        }
        if (timedOut) {
            return new TimeoutException("no complete answer from the server within " + timeoutMillis + " ms");
        }
        Throwable r = requestFailure;
        return r != null ? r : new EofException("the server closed the connection");
    }

    /**
     * S2P and P2C: reads the server's answer from the connection's input ({@link AnswerReader}) and relays it
     * to the client.
     * An answer up to {@code bufferedResponseBytes} (most SOAP answers) is held until it is complete,
     * so the server's slot is free before the client has to take a byte: a slow reader holds no server.
     * A larger one streams, one piece at a time (the next piece is read only once the previous one was
     * written, so memory stays bounded), under {@code responseWriteTimeout} per write. Holding the
     * answer also means that a server breaking off mid-body still gets its client a proper fault.
     *
     * <p>What a server sends is checked before anything of it reaches a client: a head outside {@link
     * ResponseHead}'s grammar (a status outside 100–599, folding, a bare CR or LF, framing two ways), a 101
     * (the gateway never forwards an upgrade), a head over {@link ServerConnection#MAX_RESPONSE_HEADER_BYTES}
     * or {@link ServerConnection#MAX_RESPONSE_FIELDS} fields, or a chunked body outside its grammar are
     * {@code server-failed}. Bytes left after a complete answer (a
     * 204 with a body, a second answer nobody asked for) never reach anyone: the connection is closed.
     */
    final class Relay extends IteratingCallback {
        /** Set once the outcome is decided; only the relay writes it. */
        volatile boolean over;
        /** A piece of the answer is being written to the client (who, not the server, is awaited). */
        volatile boolean writing;
        private boolean streaming;
        /** The answer was complete and the connection may serve another request once the request leg ends. */
        volatile boolean reusable;
        /** The answer is complete (its settling may still be under way); unlike {@link #over}, never set by a failure. */
        volatile boolean answered;
        /** What ends the client's response once both legs ended (published by the legs count). */
        private ByteBuffer lastPiece;
        private int status;
        private boolean closeAfter;
        private boolean responseStarted;
        /** The server's bytes outside its answer were counted (once per exchange). */
        private boolean leftoverCounted;

        @Override
        protected Action process() {
            if (over) {
                return Action.IDLE;
            }
            ServerConnection c = connection;
            try {
                while (true) {
                    // Step even with nothing new: after a paused piece the reader may owe the end of the answer.
                    ByteBuffer in = c.input;
                    switch (c.answer.next(in)) {
                        case HEAD -> {
                            if (!head(c.answer.head)) {
                                return Action.IDLE;
                            }
                        }
                        case DATA -> {
                            if (relayPiece(c, c.answer.piece())) {
                                return Action.SCHEDULED;
                            }
                        }
                        case COMPLETE -> {
                            if (in.hasRemaining()) {
                                leftover(); // bytes after a complete answer: nobody's; the connection goes
                            }
                            succeed(c.held.take());
                            return Action.IDLE;
                        }
                        case REFUSED -> {
                            fail(new BadMessageException(c.answer.refusal()));
                            return Action.IDLE;
                        }
                        case MORE -> {
                            int n = c.fill();
                            if (n == 0) {
                                c.needInput();
                                return Action.IDLE;
                            }
                            if (n < 0) {
                                endOfInput(c);
                                return Action.IDLE;
                            }
                        }
                    }
                }
            } catch (Throwable x) {
                fail(timedOut || requestFailure != null || !c.getEndPoint().isOpen() ? closedCause() : x);
                return Action.IDLE;
            }
        }

        /**
         * A piece of the answer's body: held, or (past {@code bufferedResponseBytes}) written to the client with what
         * was held before it.
         *
         * @return whether a write to the client is under way (the relay goes on when it completes)
         */
        private boolean relayPiece(ServerConnection c, ByteBuffer piece) {
            if (!piece.hasRemaining()) {
                return false;
            }
            if (!streaming) {
                if (hold(c, piece)) {
                    return false;
                }
                streaming = true; // past the limit: what is held goes out, then the rest streams
                piece = c.held.take();
            }
            writing = true;
            c.awaitClient(clients.responseWriteTimeout().toMillis());
            ex.response().write(false, piece, this);
            return true;
        }

        /** The server closed its side: a body delimited by the end of the connection ends here; anything else is cut short. */
        private void endOfInput(ServerConnection c) {
            if (responseStarted && c.answer.endedByClose()) {
                succeed(c.held.take());
            } else {
                fail(closedCause());
            }
        }

        /** Holds a piece of the answer; false when the answer then exceeds {@code bufferedResponseBytes}. */
        private boolean hold(ServerConnection c, ByteBuffer piece) {
            return c.held.hold(piece, c.answer.contentLength(), clients.bufferedResponseBytes());
        }

        /** The server sent more than its answer: relayed as it is, the connection never reused, the server's error counted. */
        private void leftover() {
            if (leftoverCounted) {
                return;
            }
            leftoverCounted = true;
            closeAfter = true;
            pool.distrust();
            ex.context().metrics.servers().error(server.index(), GatewayMetrics.ServerError.PROTOCOL);
        }

        @Override
        protected void onSuccess() {
            writing = false;
            connection.clientResponded();
        }

        /** The answer is complete; {@code lastPiece} (possibly empty, never the connection's input) ends it. */
        private void succeed(ByteBuffer lastPiece) {
            over = true;
            answered = true;
            if (describesService()) {
                // rewriting a description's addresses scans up to bufferedResponseBytes: off the event loop
                ex.context().executor.execute(() -> settle(rewritten(lastPiece)));
            } else {
                settle(lastPiece);
            }
        }

        private void settle(ByteBuffer lastPiece) {
            // Reusable only when the request goes out whole and nobody asked to close: a server that
            // answered before reading the whole body leaves unread bytes that would poison the next
            // answer. The answer usually arrives while the request's last write is still completing on
            // another thread (loopback is that fast): then that write's completion returns the
            // connection, releases the slot and ends the client's response, in that order, so the
            // request the slot admits finds the connection idle.
            this.lastPiece = lastPiece;
            if (closeAfter || timedOut || !sender.lastWriteIssued || requestFailedLate) {
                sender.abort(new EofException("the server answered before the request was sent"));
                releaseConnection(false);
                finish();
            } else {
                reusable = true;
                if (legs.decrementAndGet() == 0) {
                    releaseConnection(!requestFailedLate);
                    finish();
                }
            }
        }

        /**
         * A service description asked for through the gateway and held whole: its addresses become the
         * gateway's, and the length follows. One that streamed (over {@code bufferedResponseBytes}) goes as it is.
         */
        private boolean describesService() {
            return !streaming && status == HttpStatus.OK_200 && WsdlAddresses.asksForDescription(ex.request());
        }

        private ByteBuffer rewritten(ByteBuffer answer) {
            String base = WsdlAddresses.publicBase(ex.request(), ex.context().forwarded.trusts(ex.request()));
            if (base == null) {
                return answer;
            }
            ByteBuffer rewritten = WsdlAddresses.rewrite(answer, base);
            if (rewritten != answer) {
                ex.response().getHeaders().put(HttpHeader.CONTENT_LENGTH, rewritten.remaining());
            }
            return rewritten;
        }

        /** The answer's end (its last piece, possibly empty) to the client: the exchange completes with it. */
        void finish() {
            ex.response().write(true, lastPiece, Callback.from(ex::completed, ex::clientFailed));
        }

        private void fail(Throwable cause) {
            over = true;
            sender.abort(cause);
            connection.detach(false);
            dispatcher.upstreamFailed(ex, server, cause, requestFailure, responseStarted);
        }

        /** The client could not take a piece of the answer: it went away, so does the server exchange. */
        @Override
        protected void onCompleteFailure(Throwable cause) {
            if (!over) {
                over = true;
                sender.abort(cause);
                connection.detach(false);
                ex.clientFailed(cause);
            }
        }

        @Override
        public InvocationType getInvocationType() {
            return InvocationType.NON_BLOCKING;
        }

        /**
         * A head the reader accepted: a 1xx is passed over (its fields concern no one), a 101 refused (the gateway
         * never asks for an upgrade); the answer's own head starts the client's answer.
         *
         * @return false when the exchange failed on it
         */
        private boolean head(ResponseHead h) {
            if (h.status() == HttpStatus.SWITCHING_PROTOCOLS_101) {
                fail(new BadMessageException("101 from the server, but no upgrade was asked for"));
                return false;
            }
            if (h.status() < 200) {
                return true;
            }
            status = h.status();
            closeAfter |= h.minorVersion() == 0 || !h.keepAlive() || connection.answer.untilClose();
            responseStarted = true;
            dispatcher.answered(ex, server, status);
            var p2c = ex.response();
            p2c.setStatus(status);
            if (AnswerFields.carry(h, p2c, bodiless(), ex.readsWorkingSet())) {
                // a 204 or 304 has no body whatever its framing says (RFC 9112 6.3): what the server sent after the
                // head is left over, dropped with the connection, and the server's protocol error; the client gets the
                // answer without it
                leftover();
            }
            HttpFields.Mutable out = p2c.getHeaders();
            out.add(ex.context().classFields[ex.classIndex()]);
            out.add(GatewayContext.queueMillisField(TimeUnit.NANOSECONDS.toMillis(ex.queueingNanos())));
            ex.workingSetDeclared(out);
            return true;
        }

        private boolean bodiless() {
            return status == HttpStatus.NO_CONTENT_204 || status == HttpStatus.NOT_MODIFIED_304;
        }
    }
}
