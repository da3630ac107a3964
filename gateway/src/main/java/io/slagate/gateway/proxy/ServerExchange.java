package io.slagate.gateway.proxy;

import io.slagate.gateway.sched.ServerSlots;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;
import org.eclipse.jetty.util.Promise;

/**
 * One admitted request on a {@link ServerConnection}: the proxy→server leg (P2S: request head and
 * streamed body, {@link Sender}) and the server→proxy→client legs (S2P and P2C, {@link Relay}).
 *
 * <p>The relay is the exchange's single owner of its outcome: it alone writes to the client and
 * decides between the relayed response and a fault. Everything else that can end an exchange (the
 * server timeout, a failed request body, the server closing) only closes the connection and wakes
 * the relay, which reads why. So nothing races on the client's response. The connection goes back
 * to its pool before the slot is released, so the request that slot admits finds it idle.
 */
final class ServerExchange implements Promise<ServerConnection> {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Dispatcher dispatcher;
    private final GatewayExchange ex;
    private final ServerSlots server;
    private final ServerConnectionPool pool;
    private final long timeoutMillis;
    private final long maxRequestBytes;
    final Relay relay = new Relay();
    private final Sender sender = new Sender();
    private ServerConnection connection;
    private Object group;
    private volatile boolean timedOut;
    private volatile Throwable requestFailure;
    /** Set when the client, not the server, stalled the exchange: why it ends. */
    private volatile io.slagate.gateway.soap.FaultReason clientStall;
    private final io.slagate.config.ClientPolicy clients;
    /** The request leg failed after the answer was complete but before it was settled: the connection is not reused. */
    private volatile boolean requestFailedLate;
    /** Request leg and answer leg: the one that ends last decides what becomes of the connection. */
    private final java.util.concurrent.atomic.AtomicInteger legs = new java.util.concurrent.atomic.AtomicInteger(2);

    ServerExchange(Dispatcher dispatcher, GatewayExchange ex, ServerSlots server, ServerConnectionPool pool,
                   long timeoutMillis, long maxRequestBytes) {
        this.dispatcher = dispatcher;
        this.ex = ex;
        this.server = server;
        this.pool = pool;
        this.timeoutMillis = timeoutMillis;
        this.maxRequestBytes = maxRequestBytes;
        this.clients = ex.context.clients;
    }

    void start() {
        group = pool.groupOf(ex);
        pool.acquire(ex.loop, group, this);
    }

    /** A connection is ours: arm the timeout, listen for the answer, send the request. */
    @Override
    public void succeeded(ServerConnection c) {
        connection = c;
        c.group = group; // a new connection joins the request's group; a reused one is in it already
        Request c2p = ex.request;
        pool.handedOut(c, ex.loop);
        c.attach(this, timeoutMillis, HttpMethod.HEAD.is(c2p.getMethod()));
        c.needInput(); // an early answer (before the body is sent) is read as it comes
        sender.iterate();
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
            ex.abortClient(io.slagate.gateway.soap.FaultReason.RESPONSE_TIMEOUT);
        } else if (sender.waitingForClient) {
            clientStall = io.slagate.gateway.soap.FaultReason.REQUEST_TIMEOUT;
            connection.close(); // the relay sees the connection closed and reads clientStall
        }
    }

    private Throwable closedCause() {
        io.slagate.gateway.soap.FaultReason stall = clientStall;
        if (stall != null) {
            return new ClientSideFailure(stall, "the client's body stalled");
        }
        if (timedOut) {
            return new TimeoutException("no complete answer from the server within " + timeoutMillis + " ms");
        }
        Throwable r = requestFailure;
        return r != null ? r : new EofException("the server closed the connection");
    }

    /** P2S: the request head, then the client's body as it arrives, bounded by the gateway's limit. */
    private final class Sender extends IteratingCallback {
        private ByteBuffer pendingHead;
        private boolean chunked;
        private boolean hasBody;
        private long length;
        private boolean finished;
        /** The request's last bytes are being written: an answer now is not an early one. */
        volatile boolean lastWriteIssued;
        private long seen;
        private boolean started;
        private Content.Chunk inFlight;
        /** The sender waits for the client's body (a large one, streamed after admission). */
        volatile boolean waitingForClient;
        private long bodyStartNanos;

        @Override
        protected Action process() throws Throwable {
            if (!started) {
                started = true;
                pendingHead = encodeHead();
            }
            while (true) {
                if (finished) {
                    return Action.SUCCEEDED;
                }
                if (!hasBody) {
                    finished = true;
                    lastWriteIssued = true;
                    write(pendingHead);
                    return Action.SCHEDULED;
                }
                Content.Chunk chunk = ex.body.read();
                if (chunk == null) {
                    if (pendingHead != null) {
                        write(pendingHead); // the head goes out now; the body follows as the client sends it
                        return Action.SCHEDULED;
                    }
                    waitingForClient = true;
                    connection.awaitClient(clients.requestBodyTimeout().toMillis());
                    ex.body.demand(this::clientSent);
                    return Action.IDLE;
                }
                if (Content.Chunk.isFailure(chunk)) {
                    throw ClientSideFailure.of(chunk.getFailure());
                }
                seen += chunk.remaining();
                checkDataRate();
                if (seen > maxRequestBytes) {
                    chunk.release();
                    ex.markTooLarge();
                    throw new LimitedRequestContent.RequestTooLargeException(maxRequestBytes);
                }
                if (!chunk.hasRemaining() && !chunk.isLast()) {
                    chunk.release();
                    continue;
                }
                inFlight = chunk;
                // Jetty may hand a body of known length as data then a separate empty last chunk: the
                // body is whole once its length was read, so the answer that follows is not an early one.
                finished = chunk.isLast() || (!chunked && seen == length);
                lastWriteIssued = finished;
                write(frame(chunk));
                return Action.SCHEDULED;
            }
        }

        private void clientSent() {
            waitingForClient = false;
            connection.clientResponded();
            iterate();
        }

        /** A streamed body must keep up {@code minRequestDataRate} on average once the body timeout has passed. */
        private void checkDataRate() {
            long now = System.nanoTime();
            if (bodyStartNanos == 0) {
                bodyStartNanos = now;
                return;
            }
            long elapsed = now - bodyStartNanos;
            long grace = clients.requestBodyTimeout().toNanos();
            if (elapsed > grace && clients.minRequestDataRate() > 0
                    && seen * 1_000_000_000.0 / elapsed < clients.minRequestDataRate()) {
                throw new ClientSideFailure(io.slagate.gateway.soap.FaultReason.REQUEST_TIMEOUT,
                        "the client's body came slower than " + clients.minRequestDataRate() + " bytes/s");
            }
        }

        private ByteBuffer[] frame(Content.Chunk chunk) {
            ByteBuffer data = chunk.getByteBuffer();
            ByteBuffer head = pendingHead;
            pendingHead = null;
            if (!chunked) {
                return head == null ? new ByteBuffer[] {data} : new ByteBuffer[] {head, data};
            }
            ByteBuffer size = chunk.hasRemaining()
                    ? ByteBuffer.wrap((Integer.toHexString(chunk.remaining()) + "\r\n").getBytes(StandardCharsets.US_ASCII))
                    : BufferUtil.EMPTY_BUFFER;
            ByteBuffer end = chunk.hasRemaining() ? ByteBuffer.wrap(CRLF) : BufferUtil.EMPTY_BUFFER;
            ByteBuffer last = chunk.isLast() ? ByteBuffer.wrap(LAST_CHUNK) : BufferUtil.EMPTY_BUFFER;
            return head == null ? new ByteBuffer[] {size, data, end, last} : new ByteBuffer[] {head, size, data, end, last};
        }

        private void write(ByteBuffer... buffers) {
            pendingHead = null;
            ex.markCommitted(); // from here on the server may have executed it: never retried elsewhere
            connection.getEndPoint().write(this, buffers);
        }

        @Override
        protected void onSuccess() {
            if (inFlight != null) {
                inFlight.release();
                inFlight = null;
            }
        }

        @Override
        protected void onCompleteSuccess() {
            if (legs.decrementAndGet() == 0) {
                releaseConnection(true); // the answer was complete first and left the connection to us
                relay.finish();
            }
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            if (inFlight != null) {
                inFlight.release();
                inFlight = null;
            }
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

        @Override
        public InvocationType getInvocationType() {
            return InvocationType.NON_BLOCKING;
        }

        /** Request line and headers: end-to-end headers as the client sent them, Host kept, forwarding added. */
        private ByteBuffer encodeHead() {
            Request c2p = ex.request;
            HttpFields headers = c2p.getHeaders();
            if (ex.body == null) {
                length = c2p.getLength();
                chunked = false;
            } else {
                length = ex.body.length();
                chunked = length < 0;
            }
            hasBody = length > 0 || chunked;
            ByteBuffer buffer = connection.head;
            while (true) {
                try {
                    BufferUtil.clearToFill(buffer);
                    putHead(buffer, c2p, headers, length);
                    BufferUtil.flipToFlush(buffer, 0);
                    return buffer;
                } catch (BufferOverflowException tooSmall) {
                    buffer = ByteBuffer.allocate(buffer.capacity() * 2);
                    connection.head = buffer;
                }
            }
        }

        private void putHead(ByteBuffer b, Request c2p, HttpFields headers, long length) {
            String pathQuery = c2p.getHttpURI().getPathQuery();
            put(b, c2p.getMethod());
            b.put((byte) ' ');
            put(b, pool.pathPrefix);
            put(b, pathQuery == null ? "/" : pathQuery);
            put(b, " HTTP/1.1");
            b.put(CRLF);
            Set<String> listed = HopByHop.connectionListed(headers);
            boolean trusted = ex.context.forwarded.trusts(c2p);
            String host = Forwarded.host(c2p, headers);
            header(b, "Host", host); // the address the client used: the server publishes it, not its own
            long deadlineMillis = ex.remainingDeadlineMillis(ex.context.clock.getAsLong());
            for (HttpField f : headers) {
                if (HopByHop.copiedUpstream(f, listed, trusted)
                        && !(deadlineMillis >= 0 && f.getName().equalsIgnoreCase(GatewayExchange.DEADLINE_HEADER))) {
                    header(b, f.getName(), f.getValue());
                }
            }
            Forwarded.put(c2p, headers, trusted, host, (name, value) -> header(b, name, value));
            if (deadlineMillis >= 0) {
                // what is left of the deadline after queueing here, and the class: a service (or a next gateway) can use both
                header(b, GatewayExchange.DEADLINE_HEADER, Long.toString(deadlineMillis));
                header(b, GatewayContext.CLASS_HEADER, ex.className());
            }
            if (chunked) {
                header(b, "Transfer-Encoding", "chunked");
            } else if (length >= 0 && (length > 0 || headers.contains(HttpHeader.CONTENT_LENGTH))) {
                header(b, "Content-Length", Long.toString(length));
            }
            b.put(CRLF);
        }
    }

    private static void header(ByteBuffer b, String name, String value) {
        put(b, name);
        b.put((byte) ':').put((byte) ' ');
        put(b, value == null ? "" : value);
        b.put(CRLF);
    }

    /** Latin-1, as HTTP/1.1 field values are; anything wider, and CR or LF, becomes '?' rather than a split header. */
    private static void put(ByteBuffer b, String s) {
        int n = s.length();
        int pos = b.position();
        if (b.remaining() < n) {
            throw new BufferOverflowException();
        }
        byte[] a = b.array();
        int off = b.arrayOffset() + pos;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            a[off + i] = c < 256 && c != '\r' && c != '\n' ? (byte) c : (byte) '?';
        }
        b.position(pos + n);
    }

    /**
     * S2P and P2C: parses the server's answer from the connection's input and relays it to the client.
     * An answer up to {@code bufferedResponseBytes} (most SOAP answers) is held until it is complete,
     * so the server's slot is free before the client has to take a byte: a slow reader holds no server.
     * A larger one streams, one piece at a time (the next piece is read only once the previous one was
     * written, so memory stays bounded), under {@code responseWriteTimeout} per write. Holding the
     * answer also means that a server breaking off mid-body still gets its client a proper fault.
     *
     * <p>What a server sends is checked before anything of it reaches a client: a status outside
     * 100–599, a 101 (the gateway never forwards an upgrade), a head over {@link
     * ServerConnection#MAX_RESPONSE_HEADER_BYTES} or {@link ServerConnection#MAX_RESPONSE_FIELDS}
     * fields, or a bare LF in it are {@code server-failed}. Bytes left after a complete answer (a
     * 204 with a body, a second answer nobody asked for) never reach anyone: the connection is closed.
     */
    final class Relay extends IteratingCallback {
        /** Set once the outcome is decided; only the relay writes it. */
        volatile boolean over;
        /** A piece of the answer is being written to the client (who, not the server, is awaited). */
        volatile boolean writing;
        /** The answer held back until complete (heap, fill mode), or null; past the limit it streams. */
        private ByteBuffer held;
        private boolean streaming;
        private int fields;
        /** The answer was complete and the connection may serve another request once the request leg ends. */
        volatile boolean reusable;
        /** The answer is complete (its settling may still be under way); unlike {@link #over}, never set by a failure. */
        volatile boolean answered;
        /** What ends the client's response once both legs ended (published by the legs count). */
        private ByteBuffer lastPiece;
        private int status;
        private boolean closeAfter;
        private boolean responseStarted;
        private boolean complete;
        private boolean interim;
        private ByteBuffer content;
        private Throwable bad;
        private boolean finalAnswer;
        private Set<String> connectionListed;
        /** The server's bytes outside its answer were counted (once per exchange). */
        private boolean leftoverCounted;

        @Override
        protected Action process() {
            if (over) {
                return Action.IDLE;
            }
            ServerConnection c = connection;
            try {
                ByteBuffer in = c.input;
                while (true) {
                    // Parse even with nothing new: after a paused piece the parser may owe the end of the message.
                    int before = in.remaining();
                    c.parser.parseNext(in);
                    if (bad != null) {
                        fail(bad);
                        return Action.IDLE;
                    }
                    if (content != null) {
                        ByteBuffer piece = content;
                        content = null;
                        if (!streaming) {
                            if (hold(c, piece)) {
                                continue; // held (copied out of the input): parse on
                            }
                            streaming = true; // past the limit: what is held goes out, then the rest streams
                            piece = held.flip();
                            held = null;
                        }
                        writing = true;
                        c.awaitClient(clients.responseWriteTimeout().toMillis());
                        ex.response.write(false, piece, this);
                        return Action.SCHEDULED;
                    }
                    if (interim) {
                        interim = false; // a 1xx answer: the real one follows on the same connection
                        c.parser.reset();
                        continue;
                    }
                    if (complete) {
                        if (in.hasRemaining()) {
                            leftover(); // bytes after a complete answer: nobody's; the connection goes
                        }
                        succeed(heldAnswer());
                        return Action.IDLE;
                    }
                    if (in.hasRemaining()) {
                        if (in.remaining() == before) {
                            fail(new org.eclipse.jetty.http.BadMessageException("unparsable bytes in the server's answer"));
                            return Action.IDLE;
                        }
                        continue;
                    }
                    BufferUtil.clear(in);
                    int n = c.getEndPoint().fill(in);
                    if (n > 0) {
                        continue;
                    }
                    if (n == 0) {
                        c.needInput();
                        return Action.IDLE;
                    }
                    c.parser.atEOF(); // a body delimited by the end of the connection ends here
                    c.parser.parseNext(in);
                    if (content != null && !streaming && hold(c, content)) {
                        content = null;
                    }
                    if (complete && content == null) {
                        succeed(heldAnswer());
                    } else {
                        fail(closedCause());
                    }
                    return Action.IDLE;
                }
            } catch (Throwable x) {
                fail(timedOut || requestFailure != null || !c.getEndPoint().isOpen() ? closedCause() : x);
                return Action.IDLE;
            }
        }

        /**
         * Copies a piece of the answer aside (the connection's input is reused); false when the answer
         * would then exceed {@code bufferedResponseBytes} (the piece is held all the same and the whole
         * goes out as the first streamed write).
         */
        private boolean hold(ServerConnection c, ByteBuffer piece) {
            int n = piece.remaining();
            if (held == null) {
                long announced = c.parser.getContentLength();
                int first = (int) Math.min(clients.bufferedResponseBytes(), announced > 0 ? announced : 8192);
                held = ByteBuffer.allocate(Math.max(first, n));
            } else if (held.remaining() < n) {
                ByteBuffer bigger = ByteBuffer.allocate((int) Math.max(held.capacity() * 2L, (long) held.position() + n));
                held.flip();
                bigger.put(held);
                held = bigger;
            }
            held.put(piece);
            return held.position() <= clients.bufferedResponseBytes();
        }

        /** What was held of the answer (all of it, unless it streamed), ready to write. */
        private ByteBuffer heldAnswer() {
            ByteBuffer h = held;
            held = null;
            return h == null ? BufferUtil.EMPTY_BUFFER : h.flip();
        }

        /** The server sent more than its answer: relayed as it is, the connection never reused, the server's error counted. */
        private void leftover() {
            if (leftoverCounted) {
                return;
            }
            leftoverCounted = true;
            closeAfter = true;
            pool.distrust();
            ex.context.metrics.serverError(server.index(), io.slagate.gateway.stats.GatewayMetrics.ServerError.PROTOCOL);
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
                ex.context.executor.execute(() -> settle(rewritten(lastPiece)));
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
            return !streaming && status == HttpStatus.OK_200 && WsdlAddresses.asksForDescription(ex.request);
        }

        private ByteBuffer rewritten(ByteBuffer answer) {
            String base = WsdlAddresses.publicBase(ex.request, ex.context.forwarded.trusts(ex.request));
            if (base == null) {
                return answer;
            }
            ByteBuffer rewritten = WsdlAddresses.rewrite(answer, base);
            if (rewritten != answer) {
                ex.response.getHeaders().put(HttpHeader.CONTENT_LENGTH, rewritten.remaining());
            }
            return rewritten;
        }

        /** The answer's end (its last piece, possibly empty) to the client: the exchange completes with it. */
        void finish() {
            ex.response.write(true, lastPiece, Callback.from(ex::completed, ex::clientFailed));
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

        void startResponse(HttpVersion version, int status) {
            this.status = status;
            interim = false;
            closeAfter |= version != HttpVersion.HTTP_1_1;
            finalAnswer = status >= 200;
            if (status < 100 || status > 599) {
                bad = new org.eclipse.jetty.http.BadMessageException("status " + status + " from the server is not HTTP");
            } else if (status == HttpStatus.SWITCHING_PROTOCOLS_101) {
                bad = new org.eclipse.jetty.http.BadMessageException("101 from the server, but no upgrade was asked for");
            }
        }

        /** Straight into the client's response headers, hop-by-hop ones left out. */
        void parsedHeader(HttpField field) {
            if (++fields > ServerConnection.MAX_RESPONSE_FIELDS && bad == null) {
                bad = new org.eclipse.jetty.http.BadMessageException("more than " + ServerConnection.MAX_RESPONSE_FIELDS
                        + " header fields from the server");
            }
            if (!finalAnswer || bad != null) {
                return; // a 1xx answer's headers concern no one; a refused answer's neither
            }
            if (field.getHeader() == HttpHeader.CONNECTION) {
                closeAfter |= field.contains("close");
                connectionListed = HopByHop.listed(field.getValue(), connectionListed);
            }
            if (bodiless() && (field.getHeader() == HttpHeader.CONTENT_LENGTH || field.getHeader() == HttpHeader.TRANSFER_ENCODING)) {
                // a 204 or 304 has no body whatever its framing says (RFC 9112 6.3): what the server sent after
                // the head is left over, dropped with the connection, and the server's protocol error; the
                // client gets the answer without it
                leftover();
                return;
            }
            if (!HopByHop.isHopByHop(field, null)) {
                ex.response.getHeaders().add(field);
            }
        }

        private boolean bodiless() {
            return status == HttpStatus.NO_CONTENT_204 || status == HttpStatus.NOT_MODIFIED_304;
        }

        boolean headerComplete() {
            fields = 0;
            if (bad != null) {
                return true; // stop here: nothing of this answer goes to the client
            }
            if (!finalAnswer) {
                return false;
            }
            responseStarted = true;
            dispatcher.answered(ex, server, status);
            var p2c = ex.response;
            p2c.setStatus(status);
            HttpFields.Mutable out = p2c.getHeaders();
            if (connectionListed != null) {
                // the server named more hop-by-hop headers in Connection (rare): they stay on this hop
                for (String name : connectionListed) {
                    out.remove(name);
                }
            }
            out.add(ex.context.classFields[ex.classIndex()]);
            out.add(GatewayContext.queueMillisField(TimeUnit.NANOSECONDS.toMillis(ex.queueingNanos())));
            ex.workingSetDeclared(out);
            return false;
        }

        boolean content(ByteBuffer piece) {
            if (!piece.hasRemaining()) {
                return false;
            }
            content = piece;
            return true; // pause parsing until this piece reached the client
        }

        boolean messageComplete() {
            if (!responseStarted) {
                interim = true;
            } else {
                complete = true;
            }
            return true;
        }

        void badMessage(HttpException failure) {
            bad = failure instanceof Throwable t ? t
                    : new org.eclipse.jetty.http.BadMessageException(failure.getCode(), failure.getReason());
        }
    }
}
