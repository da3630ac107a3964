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
    private static final int MAX_COPIED_PIECE = 8 * 1024;
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
    private volatile boolean timedOut;
    private volatile Throwable requestFailure;
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
    }

    void start() {
        pool.acquire(this);
    }

    /** A connection is ours: arm the timeout, listen for the answer, send the request. */
    @Override
    public void succeeded(ServerConnection c) {
        connection = c;
        Request c2p = ex.request;
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

    /** Called by the connection's timer: the relay answers server-timeout once it sees the connection closed. */
    void timedOut() {
        timedOut = true;
        connection.close();
    }

    private Throwable closedCause() {
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
                Content.Chunk chunk = ex.request.read();
                if (chunk == null) {
                    if (pendingHead != null) {
                        write(pendingHead); // the head goes out now; the body follows as the client sends it
                        return Action.SCHEDULED;
                    }
                    ex.request.demand(this::iterate);
                    return Action.IDLE;
                }
                if (Content.Chunk.isFailure(chunk)) {
                    throw chunk.getFailure();
                }
                seen += chunk.remaining();
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
            length = c2p.getLength();
            chunked = length < 0 && headers.contains(HttpHeader.TRANSFER_ENCODING);
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
            boolean host = false;
            for (HttpField f : headers) {
                if (HopByHop.copiedUpstream(f, listed)) {
                    host |= f.getHeader() == HttpHeader.HOST;
                    header(b, f.getName(), f.getValue()); // Host included: the server sees the address the client used
                }
            }
            if (!host) {
                header(b, "Host", pool.authority);
            }
            Forwarded.put(c2p, headers, (name, value) -> header(b, name, value));
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
     * S2P and P2C: parses the server's answer from the connection's input and writes it to the
     * client, one piece at a time (the next piece is read only once the previous one was written, so
     * a slow client slows its server exchange rather than filling memory).
     */
    final class Relay extends IteratingCallback {
        /** Set once the outcome is decided; only the relay writes it. */
        volatile boolean over;
        /** The answer was complete and the connection may serve another request once the request leg ends. */
        volatile boolean reusable;
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
                    if (content != null) {
                        ByteBuffer piece = content;
                        content = null;
                        if (isLastSmallPiece(c, piece)) {
                            c.parser.parseNext(in); // the parser owes only the end of the message
                            if (complete) {
                                succeed(BufferUtil.copy(piece));
                                return Action.IDLE;
                            }
                        }
                        ex.response.write(false, piece, this);
                        return Action.SCHEDULED;
                    }
                    if (bad != null) {
                        fail(bad);
                        return Action.IDLE;
                    }
                    if (interim) {
                        interim = false; // a 1xx answer: the real one follows on the same connection
                        c.parser.reset();
                        continue;
                    }
                    if (complete) {
                        succeed(BufferUtil.EMPTY_BUFFER);
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
                    if (complete && content == null) {
                        succeed(BufferUtil.EMPTY_BUFFER);
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
         * The whole body of a typical SOAP answer arrives in one read: its one piece goes out as the
         * response's last write (one pass through Jetty's response instead of two). It is copied, since
         * the connection's input is reused as soon as the connection is back in its pool.
         */
        private boolean isLastSmallPiece(ServerConnection c, ByteBuffer piece) {
            long length = c.parser.getContentLength();
            return length >= 0 && c.parser.getContentRead() >= length && piece.remaining() <= MAX_COPIED_PIECE;
        }

        /** The answer is complete; {@code lastPiece} (possibly empty, never the connection's input) ends it. */
        private void succeed(ByteBuffer lastPiece) {
            over = true;
            // Reusable only when the request goes out whole and nobody asked to close: a server that
            // answered before reading the whole body leaves unread bytes that would poison the next
            // answer. The answer usually arrives while the request's last write is still completing on
            // another thread (loopback is that fast): then that write's completion returns the
            // connection, releases the slot and ends the client's response, in that order, so the
            // request the slot admits finds the connection idle.
            this.lastPiece = lastPiece;
            if (closeAfter || timedOut || !sender.lastWriteIssued) {
                sender.abort(new EofException("the server answered before the request was sent"));
                releaseConnection(false);
                finish();
            } else {
                reusable = true;
                if (legs.decrementAndGet() == 0) {
                    releaseConnection(true);
                    finish();
                }
            }
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
            finalAnswer = status >= 200 || status == HttpStatus.SWITCHING_PROTOCOLS_101;
        }

        /** Straight into the client's response headers, hop-by-hop ones left out. */
        void parsedHeader(HttpField field) {
            if (!finalAnswer) {
                return; // a 1xx answer's headers concern no one
            }
            if (field.getHeader() == HttpHeader.CONNECTION) {
                closeAfter |= field.contains("close");
                connectionListed = HopByHop.listed(field.getValue(), connectionListed);
            }
            if (!HopByHop.isHopByHop(field, null)) {
                ex.response.getHeaders().add(field);
            }
        }

        boolean headerComplete() {
            if (!finalAnswer) {
                return false;
            }
            if (status == HttpStatus.SWITCHING_PROTOCOLS_101) {
                closeAfter = true; // never asked for (Upgrade is not forwarded): relayed, then the connection is dropped
            }
            responseStarted = true;
            dispatcher.answered(server);
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
