package io.slagate.gateway.proxy;

import io.slagate.gateway.soap.FaultReason;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import io.slagate.gateway.auth.SecurityHeader;
import io.slagate.gateway.listener.ClientConnection;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * C2P before admission: the client's body is read here, before its request may take a server slot,
 * so that whatever a client does wrong with its body — bad chunk framing, a body that never comes
 * ({@code Expect: 100-continue} and silence), one that trickles in, a disconnect — is found while only
 * the client is involved and answered as the client's fault. A server never waits for a client, and
 * never has its health charged for one.
 *
 * <p>A body up to {@code bufferedRequestBytes} (most SOAP requests) is read whole; of a larger one that
 * much is read and the rest streams to the server after admission (under the stall and data-rate
 * limits of the server leg, {@code upstream.ServerExchange}). The buffered part must arrive within {@code requestBodyTimeout} of
 * the request's arrival. A body that comes with the headers (the common case) is read on the arrival
 * thread with no timer at all; a timer is set only when the body has to be waited for.
 *
 * <p>Once read, this is the body's source for the upstream legs: the buffered bytes, then (for a large
 * body) the rest from the client. A whole body has a known length, so it goes upstream with
 * {@code Content-Length} whatever framing the client used.
 */
public final class RequestBody implements Runnable, Invocable {
    /** Answers the client with its fault: through its exchange, or, before it has one, unclassified. */
    private final Consumer<FaultReason> onFault;
    private final Request c2p;
    private final long bufferLimit;
    private final long maxBytes;
    private Runnable admit; // dropped once run: a waiting request need not keep it
    /** Set once, by CAS ({@link #DECIDED}), by whichever of the reader and the timer decides. */
    private volatile boolean decided;
    private static final VarHandle DECIDED;

    static {
        try {
            DECIDED = MethodHandles.lookup().findVarHandle(RequestBody.class, "decided", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    private byte[] bytes;
    private int size;
    /** Bytes cut from the buffered part ({@link #cut}): the announced length is that much shorter upstream. */
    private int removed;
    /** What the body's SOAP header holds for the gateway, once read (null: not read). */
    public SecurityHeader.Read security;

    /** The bytes of the body read so far. */
    public int size() {
        return size;
    }
    private volatile boolean complete;
    private boolean served;
    /** Give the client connection's read buffer back once the body is read ({@code gateway.releaseRequestBuffer}). */
    private final boolean releaseBuffer;
    private ScheduledFuture<?> deadline;

    private RequestBody(Request c2p, Consumer<FaultReason> onFault, long bufferLimit, long maxBytes, Runnable admit,
                        boolean releaseBuffer) {
        this.onFault = onFault;
        this.releaseBuffer = releaseBuffer;
        this.c2p = c2p;
        this.bufferLimit = bufferLimit;
        this.maxBytes = maxBytes;
        this.admit = admit;
        long announced = c2p.getLength();
        this.bytes = new byte[(int) Math.max(0, Math.min(announced > 0 ? announced : 4096, bufferLimit))];
    }

    /** Starts with room for what has come rather than what is announced: a body read before its client is proven. */
    private RequestBody growing() {
        bytes = new byte[Math.min(bytes.length, 4096)];
        return this;
    }

    /** Whether the request announces a body (a length or a transfer coding); one that does not has none. */
    public static boolean announced(Request c2p) {
        return c2p.getLength() > 0 || c2p.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
    }

    /**
     * Reads {@code ex}'s body, then runs {@code admit}; or answers the client with its fault and never
     * runs it. {@code ex.body} is this reader from the start.
     */
    public static void read(GatewayExchange ex, long bufferLimit, long maxBytes, ScheduledExecutorService timer,
                     long timeoutMillis, boolean releaseBuffer, Runnable admit) {
        RequestBody b = new RequestBody(ex.request, ex::clientFault, bufferLimit, maxBytes, admit, releaseBuffer);
        ex.body = b; // before it is read: admission may follow at once, and reads it
        b.start(timer, timeoutMillis);
    }

    /**
     * Reads {@code c2p}'s body before it has an exchange (its credential may be in it), then runs {@code ready}; or gives
     * {@code onFault} the client's fault and never runs it.
     */
    public static void read(Request c2p, Consumer<FaultReason> onFault, long bufferLimit, long maxBytes,
                     ScheduledExecutorService timer, long timeoutMillis, boolean releaseBuffer, Consumer<RequestBody> ready) {
        RequestBody b = new RequestBody(c2p, onFault, bufferLimit, maxBytes, null, releaseBuffer).growing();
        b.admit = () -> ready.accept(b);
        b.start(timer, timeoutMillis);
    }

    private void start(ScheduledExecutorService timer, long timeoutMillis) {
        run();
        if (!decided) {
            try {
                deadline = timer.schedule(this::timedOut, timeoutMillis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopping) {
                end(FaultReason.SHUTTING_DOWN);
                return;
            }
            if (decided) {
                deadline.cancel(false); // decided while the timer was being set
            }
        }
    }

    /** The buffered bytes (the first {@link #size} of them), for a reader of the SOAP header. */
    public byte[] buffered() {
        return bytes;
    }

    /**
     * Takes the bytes {@code [from, to)} out of the buffered part (a credential the server is not to see): the body goes
     * upstream that much shorter.
     */
    public void cut(int from, int to) {
        System.arraycopy(bytes, to, bytes, from, size - to);
        size -= to - from;
        removed += to - from;
    }

    /** Reads what has arrived; demands more, or decides. Serialized by Jetty's demand. */
    @Override
    public void run() {
        while (!decided) {
            Content.Chunk chunk = c2p.read();
            if (chunk == null) {
                c2p.demand(this);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                end(ClientSideFailure.of(chunk.getFailure()).reason);
                return;
            }
            int n = chunk.remaining();
            boolean last = chunk.isLast();
            if ((long) size + n > maxBytes) {
                chunk.release();
                end(FaultReason.REQUEST_TOO_LARGE);
                return;
            }
            if (n > 0) {
                if (size + n > bytes.length) {
                    bytes = Arrays.copyOf(bytes, (int) Math.min(Math.max(bytes.length * 2L, (long) size + n),
                            Math.max(bufferLimit, (long) size + n)));
                }
                chunk.get(bytes, size, n);
                size += n;
            }
            chunk.release();
            if (last) {
                complete = true;
                if (size == 0 && HttpMethod.POST.is(c2p.getMethod())) {
                    end(FaultReason.MALFORMED_REQUEST); // a POST whose framing announced a body that was empty
                    return;
                }
                // the connection's read buffer is empty now: not held while the request waits in a queue
                if (releaseBuffer) {
                    ClientConnection connection = ClientConnection.of(c2p);
                    if (connection != null) {
                        connection.releaseBuffer();
                    }
                }
                ready();
                return;
            }
            if (size >= bufferLimit) {
                ready(); // a large body: the rest streams once the request is admitted
                return;
            }
        }
    }

    /** Copying the body aside never blocks: the loop that read the bytes runs it. */
    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING;
    }

    private void timedOut() {
        end(FaultReason.REQUEST_TIMEOUT);
    }

    private void ready() {
        if (DECIDED.compareAndSet(this, false, true)) {
            cancelDeadline();
            Runnable a = admit;
            admit = null;
            a.run();
        }
    }

    private void end(FaultReason reason) {
        if (DECIDED.compareAndSet(this, false, true)) {
            cancelDeadline();
            onFault.accept(reason);
        }
    }

    private void cancelDeadline() {
        ScheduledFuture<?> d = deadline;
        if (d != null) {
            d.cancel(false);
            deadline = null; // nor its cancelled task
        }
    }

    /** Whether the whole body is here (so the client has nothing more to send on this request). */
    public boolean complete() {
        return complete;
    }

    /** The body's length when known (whole, or announced by the client), else -1: it goes upstream chunked. */
    public long length() {
        long announced = c2p.getLength();
        return complete ? size : announced < 0 ? -1 : announced - removed;
    }

    /** The buffered bytes first, then the rest from the client. */
    public Content.Chunk read() {
        if (!served) {
            served = true;
            if (size > 0 || complete) {
                return Content.Chunk.from(ByteBuffer.wrap(bytes, 0, size), complete);
            }
        }
        return complete ? Content.Chunk.EOF : c2p.read();
    }

    public void demand(Runnable demandCallback) {
        c2p.demand(demandCallback);
    }

    /** The body as one array, when whole (SOAP over JMS sends it as one message); null otherwise. */
    public byte[] whole() {
        return complete ? Arrays.copyOf(bytes, size) : null;
    }
}
