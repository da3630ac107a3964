package io.slagate.gateway.listener.relay;

import io.slagate.gateway.http1.HeadBytes;
import io.slagate.gateway.http1.SplicedFields;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * The answer to a {@link RelayRequest}: status and fields held until the first write, which renders
 * the head once into bytes (a server's field lines spliced as they came, {@link SplicedFields}) and sends
 * it with the first piece of the body (one gathering write). The
 * body is framed by the fields the gateway set (a Content-Length), else by its length when the first
 * write is the last, else chunked (HTTP/1.1) or by closing the connection (HTTP/1.0).
 */
final class RelayResponse implements Response, SplicedFields {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /** A chunk's end and the last chunk, for a last write with data. */
    private static final byte[] CRLF_LAST_CHUNK = "\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final RelayConnection connection;
    private final RelayRequest request;
    private final boolean head;
    private final int minorVersion;
    private final HttpFields.Mutable fields = HttpFields.build(16);
    private int status = HttpStatus.OK_200;
    private boolean persistent;
    private boolean committed;
    private boolean lastWritten;
    private boolean chunked;
    private boolean completed;
    /** The body's length the head announced (Content-Length), or −1: chunked, or no body; and what was written of it. */
    private long announced = -1;
    private long written;
    private Supplier<HttpFields> trailers;

    RelayResponse(RelayConnection connection, RelayRequest request, int minorVersion, boolean keepAlive) {
        this.connection = connection;
        this.request = request;
        this.head = "HEAD".equals(request.getMethod());
        this.minorVersion = minorVersion;
        this.persistent = keepAlive;
        connection.splicedBytes().clear();
    }

    @Override
    public Request getRequest() {
        return request;
    }

    @Override
    public int getStatus() {
        return status;
    }

    @Override
    public void setStatus(int code) {
        if (!committed) {
            status = code;
        }
    }

    @Override
    public HttpFields.Mutable getHeaders() {
        return fields;
    }

    @Override
    public Supplier<HttpFields> getTrailersSupplier() {
        return trailers;
    }

    @Override
    public void setTrailersSupplier(Supplier<HttpFields> trailers) {
        this.trailers = trailers; // not sent: a SOAP answer ends with its body
    }

    @Override
    public boolean isCommitted() {
        return committed;
    }

    @Override
    public boolean hasLastWrite() {
        return lastWritten;
    }

    @Override
    public boolean isCompletedSuccessfully() {
        return completed;
    }

    void completed() {
        completed = true;
    }

    /** Whether the connection may carry another request once this answer is out. */
    boolean persistent() {
        return persistent;
    }

    /** The connection closes after this answer (the request's body was refused, or not all read). */
    void closeAfter() {
        persistent = false;
    }

    @Override
    public void reset() {
        if (committed) {
            throw new IllegalStateException("committed");
        }
        status = HttpStatus.OK_200;
        fields.clear();
        connection.splicedBytes().clear();
    }

    @Override
    public void splice(ByteBuffer b, int from, int to) {
        if (!committed) {
            connection.splicedBytes().bytes(b, from, to);
        }
    }

    @Override
    public CompletableFuture<Void> writeInterim(int interimStatus, HttpFields headers) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("interim answers are the listener's own"));
    }

    @Override
    public void write(boolean last, ByteBuffer content, Callback callback) {
        if (lastWritten) {
            callback.failed(new IllegalStateException("the answer was already written whole"));
            return;
        }
        lastWritten = last;
        ByteBuffer data = content == null || head || !hasBody() ? BufferUtil.EMPTY_BUFFER : content;
        ByteBuffer headBytes;
        try {
            headBytes = committed ? null : commit(last, data.remaining());
        } catch (IllegalArgumentException bad) {
            callback.failed(bad);
            return;
        }
        written += data.remaining();
        if (announced >= 0 && (written > announced || last && written < announced)) {
            // the client would read the next answer's start as this one's body, or wait for bytes that never come
            connection.lengthMismatch(announced, written);
            callback.failed(new IllegalStateException("an answer of " + written + " bytes after Content-Length: " + announced));
            return;
        }
        if (!chunked) {
            connection.send(callback, headBytes, data);
        } else if (data.hasRemaining()) {
            byte[] size = (Integer.toHexString(data.remaining()) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            ByteBuffer end = ByteBuffer.wrap(last ? CRLF_LAST_CHUNK : CRLF);
            connection.send(callback, headBytes, ByteBuffer.wrap(size), data, end);
        } else {
            connection.send(callback, headBytes, last ? ByteBuffer.wrap(LAST_CHUNK) : BufferUtil.EMPTY_BUFFER);
        }
    }

    private boolean hasBody() {
        return status >= 200 && status != HttpStatus.NO_CONTENT_204 && status != HttpStatus.NOT_MODIFIED_304;
    }

    /** The status line and fields as bytes, with the framing and connection fields this answer needs. */
    private ByteBuffer commit(boolean last, int firstPiece) {
        committed = true;
        boolean framed = fields.contains(HttpHeader.CONTENT_LENGTH);
        if (fields.contains(HttpHeader.CONNECTION, "close")) {
            persistent = false;
        }
        HeadBytes out = connection.headBytes();
        out.statusLine(minorVersion, status);
        for (HttpField f : fields) {
            HttpHeader h = f.getHeader();
            if (h == HttpHeader.CONTENT_LENGTH) {
                announced = hasBody() && !head ? f.getLongValue() : -1;
                out.ascii(h.asString()).ascii(": ").number(f.getLongValue()).crlf();
            } else if (h != HttpHeader.TRANSFER_ENCODING && h != HttpHeader.CONNECTION) {
                out.field(f.getName(), f.getValue());
            }
        }
        out.append(connection.splicedBytes());
        if (hasBody() && !framed) {
            if (last) {
                out.ascii("Content-Length: ").number(head ? 0 : firstPiece).crlf();
            } else if (minorVersion == 1) {
                chunked = !head;
                if (chunked) {
                    out.ascii("Transfer-Encoding: chunked").crlf();
                }
            } else {
                persistent = false; // an HTTP/1.0 body of unknown length ends with the connection
            }
        }
        if (!persistent) {
            out.ascii("Connection: close").crlf();
        } else if (minorVersion == 0) {
            out.ascii("Connection: keep-alive").crlf();
        }
        return out.crlf().take();
    }
}
