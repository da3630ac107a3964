package io.slagate.gateway.listener.relay;

import io.slagate.gateway.listener.ClientConnection;
import org.eclipse.jetty.server.Response;
import io.slagate.gateway.http1.ChunkedBody;
import io.slagate.gateway.http1.HeadBytes;
import io.slagate.gateway.http1.RequestHead;
import io.slagate.gateway.loop.EventLoops;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client connection of the relay listener: reads each request's head in place with
 * {@link RequestHead}, hands the gateway's handler a {@link RelayRequest} and {@link RelayResponse},
 * serves the body from its own buffer as the handler reads it, and renders the answer's head itself.
 * No HTTP channel, parser or generator of Jetty's; the endpoint, selector and loop are Jetty's.
 *
 * <p>One request at a time: bytes of a pipelined next request stay in the buffer until the answer to
 * this one is out. A head outside the grammar is answered with its status and the connection closed,
 * never resynchronised; so is a body whose framing breaks, once the gateway has answered it. Runs on
 * its loop's thread (a non-blocking connection: the selector runs its reads itself); an answer
 * completed on another thread (a timer) finishes on the loop.
 */
public final class RelayConnection extends AbstractConnection.NonBlocking implements ClientConnection {
    private static final Logger LOG = LoggerFactory.getLogger(RelayConnection.class);
    private static final int MAX_FIELDS = 1000;
    private static final int MAX_CHUNK_EXTENSION_BYTES = 256;

    private final Connector connector;
    private final Server server;
    private final HttpConfiguration config;
    private final EventLoops loops;
    private final int loop;
    private final RequestHead head;
    private final ChunkedBody chunks;
    private final RelayBody body;
    private final RelayMetaData metaData;
    private final HeadBytes headBytes = new HeadBytes();
    /** A server's field lines carried to the answer in progress ({@link SplicedFields}), until its head is rendered. */
    private final HeadBytes splicedBytes = new HeadBytes();
    /** Bytes held and not yet taken; the next request's after this one's; ranges of it lent to the body's reader. */
    private final ReadBuffer buffer;
    private final LongAdder lengthMismatches;
    private long messagesIn;
    private long beginNanos;
    /** The exchange under way, or null between requests. */
    private Exchange exchange;
    /** Inside the handler's call: an exchange that ends there lets the read loop go on, rather than starting it again. */
    private boolean handling;
    private boolean endedWhileHandling;
    /** After the last answer: what the client still sends is read and dropped until it closes. */
    private final LingeringClose closing;

    RelayConnection(Connector connector, EndPoint endPoint, HttpConfiguration config, int bufferSize, long maxBodyBytes,
                    LongAdder lengthMismatches) {
        super(endPoint, connector.getExecutor());
        this.lengthMismatches = lengthMismatches;
        this.connector = connector;
        this.server = connector.getServer();
        this.config = config;
        this.loops = connector instanceof EventLoops l ? l : null;
        this.loop = loops == null ? 0 : loops.loopIndex(endPoint);
        this.head = new RequestHead(config.getRequestHeaderSize(), MAX_FIELDS);
        this.chunks = new ChunkedBody(maxBodyBytes, MAX_CHUNK_EXTENSION_BYTES, config.getRequestHeaderSize());
        this.buffer = new ReadBuffer(connector.getByteBufferPool(), Math.max(bufferSize, config.getRequestHeaderSize()));
        this.closing = new LingeringClose(endPoint, buffer);
        this.body = new RelayBody(chunks);
        this.metaData = new RelayMetaData(this, config);
    }

    @Override
    public void onOpen() {
        super.onOpen();
        interested();
    }

    @Override
    public void onFillable() {
        if (closing.begun()) {
            discard();
        } else if (exchange != null) {
            Runnable reader = body.takeDemand();
            if (reader != null) {
                readBodyFor(reader);
            } else {
                holdNext();
            }
        } else {
            readHeads();
        }
    }

    /** Reads bytes for the body's reader and runs it; waits again if none came yet. */
    private void readBodyFor(Runnable reader) {
        int n = fill();
        if (n == 0) {
            body.await(reader);
            interested();
            return;
        }
        if (n < 0) {
            body.inputEnded();
        }
        reader.run();
    }

    /**
     * Bytes while an answer is under way and nobody reads the body: a pipelined next request, or the client's
     * close. Appended after what is held (the body's ranges handed out stay where they are); once the buffer is
     * full the rest waits in the socket.
     */
    private void holdNext() {
        if (buffer.full()) {
            return; // read again once this answer is out and the buffer is compacted
        }
        int n;
        try {
            n = buffer.append(getEndPoint());
        } catch (IOException e) {
            n = -1;
        }
        if (n < 0) {
            body.inputEnded(); // the client closed: its answer, if any still goes, ends the connection
        } else {
            interested();
        }
    }

    /** Reads and handles requests until the bytes run out or one is under way. */
    private void readHeads() {
        if (exchange != null || closing.begun()) {
            return; // a read scheduled for pipelined bytes, overtaken by the selector's: that one started the exchange
        }
        while (getEndPoint().isOpen()) {
            if (buffer.in().hasRemaining()) {
                if (beginNanos == 0) {
                    beginNanos = System.nanoTime();
                }
                switch (head.read(buffer.in(), buffer.in().position(), buffer.in().limit())) {
                    case ACCEPTED -> {
                        if (!handle()) {
                            return;
                        }
                        continue;
                    }
                    case REFUSED -> {
                        refuse(head.status(), head.refusal());
                        return;
                    }
                    case INCOMPLETE -> {
                    }
                }
            }
            if (!readMore()) {
                return;
            }
        }
    }

    /** Hands the request just read to the handler; true when its exchange already ended and the next may be read. */
    private boolean handle() {
        messagesIn++;
        RelayRequest request = new RelayRequest(this, head, beginNanos, System.nanoTime());
        beginNanos = 0;
        String badTarget = request.uriProblem(config.getUriCompliance());
        if (badTarget != null || head.unknownExpectation()) {
            refuse(badTarget != null ? 400 : 417, badTarget != null ? badTarget : "an expectation other than 100-continue");
            return false;
        }
        buffer.in().position(buffer.in().position() + head.length());
        body.start(head, request.getLength());
        RelayResponse response = new RelayResponse(this, request, head.minorVersion(), head.keepAlive());
        Exchange ex = new Exchange(response);
        exchange = ex;
        handling = true;
        endedWhileHandling = false;
        try {
            if (!server.handle(request, response, ex)) {
                response.setStatus(404);
                ex.succeeded();
            }
        } catch (Throwable x) {
            ex.failed(x);
        } finally {
            handling = false;
        }
        if (exchange == ex) {
            interested(); // read interest stays on while the answer is under way: no change of the selector's interest per request
        }
        return endedWhileHandling && getEndPoint().isOpen() && !closing.begun();
    }

    /** Compacts what is held and reads more from the socket: bytes read, 0 for none yet, −1 at its end. */
    int fill() {
        try {
            return buffer.fill(getEndPoint());
        } catch (IOException e) {
            LOG.debug("reading {} failed", this, e);
            return -1;
        }
    }

    /** Gives the read buffer up while a request waits with its body taken (refilled on the next read). */
    @Override
    public void releaseBuffer() {
        buffer.releaseIfEmpty();
    }

    /**
     * Whether the client has gone: its connection closed, or its end of input read. The connection reads while an
     * answer is under way ({@link #holdNext}), so this is known without a read of the caller's, which would take the
     * bytes of a request pipelined behind this one.
     */
    @Override
    public boolean clientGone(Response response) {
        return !getEndPoint().isOpen() || body.endedInput();
    }

    /**
     * An answer's bytes did not match the Content-Length its head announced: the exchange fails and the connection is
     * closed (as Jetty's generator does), so the client is never left out of step; counted.
     */
    void lengthMismatch(long announced, long written) {
        LOG.warn("an answer on {} wrote {} bytes after announcing {}: the connection is closed", this, written, announced);
        lengthMismatches.increment();
    }

    /** Whether this connection holds a read buffer now. */
    public boolean holdsBuffer() {
        return buffer.holds();
    }

    /** Whether a request's head is partly here and not yet whole (for the slow-header guard). */
    @Override
    public boolean readingHead() {
        return exchange == null && !closing.begun() && buffer.in().hasRemaining();
    }

    @Override
    public long getMessagesIn() {
        return messagesIn;
    }

    /** Sends the buffers given (a null one skipped) in one gathering write. */
    void send(Callback callback, ByteBuffer... buffers) {
        int n = 0;
        for (ByteBuffer b : buffers) {
            if (b != null) {
                buffers[n++] = b;
            }
        }
        getEndPoint().write(callback, n == buffers.length ? buffers : java.util.Arrays.copyOf(buffers, n));
    }

    HeadBytes headBytes() {
        return headBytes;
    }

    HeadBytes splicedBytes() {
        return splicedBytes;
    }

    /** A head outside the grammar: its status as the gateway's fault, the connection closed after it. */
    private void refuse(int status, String why) {
        LOG.debug("refused a request head on {}: {} {}", this, status, why);
        HttpFields.Mutable fields = HttpFields.build();
        ByteBuffer content = errorBody(status, why, fields);
        HeadBytes out = headBytes.statusLine(1, status);
        fields.forEach(f -> out.field(f.getName(), f.getValue()));
        out.ascii("Content-Length: ").number(content.remaining()).crlf().ascii("Connection: close").crlf().crlf();
        buffer.clear();
        send(Callback.from(this::shutOutput, x -> getEndPoint().close(x)), out.take(), content);
    }

    /** Output shut after the last answer; the client's further bytes dropped ({@link LingeringClose}). */
    private void shutOutput() {
        closing.begin();
        discard();
    }

    private void discard() {
        if (closing.dropMore()) {
            interested(); // none yet, or more waiting: the selector calls again, after the loop's other connections
        }
    }

    /** Reads more: true when bytes came; else read interest is asked for (none yet) or the connection closed (its end). */
    private boolean readMore() {
        int n = fill();
        if (n == 0) {
            interested();
        } else if (n < 0 && exchange == null && !closing.begun() && buffer.in().hasRemaining()) {
            refuse(400, "the request ended inside its head"); // as Jetty's listener answers an early end of input
        } else if (n < 0) {
            getEndPoint().close();
        }
        return n > 0;
    }

    /** The end of {@code ex}: the next request is read, or the connection closed; on the connection's loop. */
    private void ended(Exchange ex, boolean keep) {
        if (loops != null && !loops.onLoop(loop)) {
            loops.execute(loop, () -> ended(ex, keep));
            return;
        }
        if (exchange != ex) {
            return;
        }
        exchange = null;
        // a client that shut its side after pipelining is still answered for every request whole in the buffer
        boolean next = keep && body.finish(buffer.in()) && !closing.begun() && !(body.endedInput() && !buffer.in().hasRemaining());
        if (!next) {
            // the answer is out whole (an aborted one closed the connection already); the client may still be sending
            // a body that was not read to its end, and a close with its bytes unread would reset the connection under
            // it, losing the answer: the output is shut and what still comes is dropped until the client closes
            if (getEndPoint().isOpen()) {
                shutOutput();
            }
            return;
        }
        if (handling) {
            endedWhileHandling = true;
        } else if (buffer.in().hasRemaining() && loops != null) {
            loops.execute(loop, this::readHeads); // a pipelined request: read after the stack that ended this one unwinds
        } else if (buffer.in().hasRemaining()) {
            readHeads();
        } else {
            buffer.releaseIfEmpty(); // an idle keep-alive connection holds no read buffer: the next read takes one from the pool
            interested();
        }
    }

    /** Asks the selector for the next bytes, unless already asked (a body's demand and an ending may both ask). */
    void interested() {
        if (!isFillInterested()) {
            fillInterested();
        }
    }

    @Override
    public boolean onIdleExpired(java.util.concurrent.TimeoutException timeout) {
        return exchange == null; // a request under way is bounded by the gateway's own timers
    }

    @Override
    protected boolean onReadTimeout(java.util.concurrent.TimeoutException timeout) {
        return exchange == null; // idle while its answer is under way: read interest comes back when the exchange ends
    }

    @Override
    public void onClose(Throwable cause) {
        super.onClose(cause);
        body.closed();
        if (buffer.holds() && loops != null && !loops.onLoop(loop)) {
            loops.execute(loop, buffer::release); // the buffer is the loop's to give back: it may be reading into it now
        } else {
            buffer.release();
        }
    }

    /** The handler's callback for one exchange: the answer's end, then the connection's next request. */
    private final class Exchange implements Callback {
        private final RelayResponse response;
        private boolean over;

        Exchange(RelayResponse response) {
            this.response = response;
        }

        @Override
        public void succeeded() {
            if (response.hasLastWrite()) {
                end(true);
            } else {
                response.write(true, BufferUtil.EMPTY_BUFFER, Callback.from(() -> end(true), this::abort));
            }
        }

        @Override
        public void failed(Throwable x) {
            if (response.isCommitted()) {
                abort(x);
                return;
            }
            LOG.debug("answering 500 on {}", RelayConnection.this, x);
            response.reset();
            response.setStatus(500);
            response.closeAfter();
            response.write(true, errorBody(500, x.toString(), response.getHeaders()), Callback.from(() -> end(false), this::abort));
        }

        private void abort(Throwable x) {
            LOG.debug("aborting {}", RelayConnection.this, x);
            if (!over) {
                over = true;
                getEndPoint().close(x);
                ended(this, false);
            }
        }

        private void end(boolean ok) {
            if (!over) {
                over = true;
                response.completed();
                ended(this, ok && response.persistent());
            }
        }

        @Override
        public InvocationType getInvocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }

    /** The error handler's body for a status, or an empty one (for a fault the gateway answers itself). */
    private ByteBuffer errorBody(int status, String why, HttpFields.Mutable fields) {
        ByteBuffer b = server.getErrorHandler() instanceof ErrorHandler e ? e.badMessageError(status, why, fields) : null;
        return b == null ? BufferUtil.EMPTY_BUFFER : b;
    }

    /** This connection as the handler sees it: addresses, version, attributes. */
    RelayMetaData metaData() {
        return metaData;
    }

    Connector connector() {
        return connector;
    }

    HttpVersion httpVersion() {
        return head.minorVersion() == 0 ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1;
    }

    /** Whether the connection is to carry another request after the one under way. */
    boolean persistent() {
        Exchange ex = exchange;
        return ex == null || ex.response.persistent();
    }

    // the body, for RelayRequest

    Content.Chunk readBody() {
        return body.read(buffer.in(), buffer::lend);
    }

    /** Runs {@code reader} once the body has something for it; asks the client to go on if it waits for a 100. */
    void demandBody(Runnable reader) {
        if (body.readable(buffer.in())) {
            reader.run();
        } else if (body.expectsContinue() && fillEnded()) {
            reader.run(); // the body came, or the client's end: no 100 for a client that sends nothing more
        } else if (body.await(reader)) {
            send(Callback.from(this::interested, x -> getEndPoint().close(x)), ByteBuffer.wrap(CONTINUE));
        } else {
            interested();
        }
    }

    /** Reads once before a 100 goes out: true when bytes or the client's end came (then no 100 is wanted). */
    private boolean fillEnded() {
        int n = fill();
        if (n < 0) {
            body.inputEnded();
        }
        return n != 0;
    }

    void failBody(Throwable failure) {
        body.fail(failure);
    }

    boolean consumeAvailable() {
        return body.consumeAvailable(buffer.in());
    }

    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @Override
    public String toConnectionString() {
        return "relay@" + metaData.getId() + " " + getEndPoint().getRemoteSocketAddress();
    }
}
