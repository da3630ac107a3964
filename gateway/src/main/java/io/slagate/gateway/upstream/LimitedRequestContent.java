package io.slagate.gateway.upstream;

import io.slagate.gateway.proxy.ClientSideFailure;
import io.slagate.gateway.proxy.UpstreamExchange;
import io.slagate.gateway.proxy.RequestBody;

import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;

/**
 * The client's request body streamed to the server as it arrives (never buffered whole), with the
 * gateway's size limit enforced on the way for bodies that did not announce their length: past the
 * limit the upstream request fails and the exchange answers with a request-too-large fault.
 */
final class LimitedRequestContent implements Request.Content {
    private final org.eclipse.jetty.server.Request clientToProxy;
    private final RequestBody body;
    private final UpstreamExchange exchange;
    private final long maxBytes;
    private long seen;

    LimitedRequestContent(UpstreamExchange exchange, long maxBytes) {
        this.clientToProxy = exchange.request();
        this.body = exchange.body();
        this.exchange = exchange;
        this.maxBytes = maxBytes;
    }

    @Override
    public long getLength() {
        return body.length();
    }

    @Override
    public Content.Chunk read() {
        Content.Chunk chunk = body.read();
        if (Content.Chunk.isFailure(chunk)) {
            // the client's body failed: marked so that the upstream failure is charged to the client
            return Content.Chunk.from(ClientSideFailure.of(chunk.getFailure()), true);
        }
        if (chunk != null) {
            seen += chunk.remaining();
            if (seen > maxBytes) {
                chunk.release();
                exchange.markTooLarge();
                // Fails the upstream request only; the rest of the client's body is left unread and
                // Jetty closes that connection after the fault is written.
                return Content.Chunk.from(new RequestTooLargeException(maxBytes), true);
            }
        }
        return chunk;
    }

    @Override
    public void demand(Runnable demandCallback) {
        body.demand(demandCallback);
    }

    @Override
    public void fail(Throwable failure) {
        // Before the request was sent nothing of the body was read: keep it intact, the exchange
        // may be retried on another server. After, the rest of the body is useless: fail it.
        if (exchange.requestCommitted()) {
            clientToProxy.fail(failure);
        }
    }

    @Override
    public String getContentType() {
        return clientToProxy.getHeaders().get(HttpHeader.CONTENT_TYPE);
    }

    @Override
    public boolean rewind() {
        return false;
    }

    static final class RequestTooLargeException extends RuntimeException {
        RequestTooLargeException(long max) {
            super("request body larger than " + max + " bytes", null, false, false);
        }
    }
}
