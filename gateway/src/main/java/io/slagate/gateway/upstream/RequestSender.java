package io.slagate.gateway.upstream;

import io.slagate.gateway.proxy.ClientSideFailure;
import io.slagate.gateway.proxy.Forwarded;
import io.slagate.gateway.proxy.GatewayContext;
import io.slagate.gateway.proxy.UpstreamExchange;
import io.slagate.gateway.proxy.HopByHop;

import io.slagate.gateway.auth.CredentialFields;
import io.slagate.config.ClientPolicy;
import io.slagate.gateway.soap.FaultReason;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * P2S, the proxy→server leg of a {@link ServerExchange}: the request head (encoded straight into
 * the connection's head buffer), then the client's body as it arrives, bounded by the gateway's
 * limit and by the clients' data rate, framed as the client framed it. How the leg ends is the
 * exchange's to judge ({@link ServerExchange#requestSent}, {@link ServerExchange#requestFailed}).
 */
final class RequestSender extends IteratingCallback {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final ServerExchange exchange;
    private final UpstreamExchange ex;
    private final ClientPolicy clients;
    private final String pathPrefix;
    private final long maxRequestBytes;
    private ServerConnection connection;
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

    RequestSender(ServerExchange exchange, UpstreamExchange ex, String pathPrefix, long maxRequestBytes) {
        this.exchange = exchange;
        this.ex = ex;
        this.clients = ex.context().clients;
        this.pathPrefix = pathPrefix;
        this.maxRequestBytes = maxRequestBytes;
    }

    /** Sends the request on {@code c}, the exchange's connection. */
    void start(ServerConnection c) {
        connection = c;
        iterate();
    }

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
            Content.Chunk chunk = ex.body().read();
            if (chunk == null) {
                if (pendingHead != null) {
                    write(pendingHead); // the head goes out now; the body follows as the client sends it
                    return Action.SCHEDULED;
                }
                waitingForClient = true;
                connection.awaitClient(clients.requestBodyTimeout().toMillis());
                ex.body().demand(this::clientSent);
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
            throw new ClientSideFailure(FaultReason.REQUEST_TIMEOUT,
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
        exchange.requestSent();
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        if (inFlight != null) {
            inFlight.release();
            inFlight = null;
        }
        exchange.requestFailed(cause);
    }

    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING;
    }

    /** Request line and headers: end-to-end headers as the client sent them, Host kept, forwarding added. */
    private ByteBuffer encodeHead() {
        Request c2p = ex.request();
        HttpFields headers = c2p.getHeaders();
        if (ex.body() == null) {
            length = c2p.getLength();
            chunked = false;
        } else {
            length = ex.body().length();
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
        put(b, pathPrefix);
        put(b, pathQuery == null ? "/" : pathQuery);
        put(b, " HTTP/1.1");
        b.put(CRLF);
        Set<String> listed = HopByHop.connectionListed(headers);
        boolean trusted = ex.context().forwarded.trusts(c2p);
        String host = Forwarded.host(c2p, headers);
        header(b, "Host", host); // the address the client used: the server publishes it, not its own
        long deadlineMillis = ex.remainingDeadlineMillis(ex.context().clock.getAsLong());
        CredentialFields credentials = ex.context().credentialFields;
        for (HttpField f : headers) {
            if (HopByHop.copiedUpstream(f, listed, trusted) && (credentials == null || !credentials.withheld(f))
                    && !(deadlineMillis >= 0 && f.getName().equalsIgnoreCase(UpstreamExchange.DEADLINE_HEADER))
                    && !(ex.startedTrace() != null && f.getName().equalsIgnoreCase("traceparent"))) {
                header(b, f.getName(), f.getValue());
            }
        }
        if (trusted) {
            Forwarded.put(c2p, headers, true, host, (name, value) -> header(b, name, value));
        } else {
            header(b, "X-Forwarded-Host", host);
            b.put(Forwarded.untrustedLines(c2p)); // the connection's: rendered once for all its requests
        }
        if (ex.startedTrace() != null) {
            header(b, "traceparent", ex.startedTrace());
        }
        if (credentials != null && credentials.identityHeader() != null && ex.customer() != null) {
            header(b, credentials.identityHeader(), CredentialFields.identityValue(ex.customer()));
        }
        if (deadlineMillis >= 0) {
            // what is left of the deadline after queueing here, and the class: a service (or a next gateway) can use both
            header(b, UpstreamExchange.DEADLINE_HEADER, Long.toString(deadlineMillis));
            header(b, GatewayContext.CLASS_HEADER, ex.className());
        }
        if (chunked) {
            header(b, "Transfer-Encoding", "chunked");
        } else if (length >= 0 && (length > 0 || headers.contains(HttpHeader.CONTENT_LENGTH))) {
            header(b, "Content-Length", Long.toString(length));
        }
        b.put(CRLF);
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
}
