package io.slagate.gateway.listener.jetty;

import io.slagate.gateway.listener.ClientConnection;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.BufferUtil;

/** Jetty's HTTP/1.1 connection, unchanged, answering what the gateway asks of a client connection. */
final class JettyConnection extends HttpConnection implements ClientConnection {
    /** The parser's states after a head's first byte and before it is whole (START: idle between requests). */
    private static final Set<HttpParser.State> HEADER_PHASE = EnumSet.of(HttpParser.State.METHOD, HttpParser.State.SPACE1,
            HttpParser.State.URI, HttpParser.State.SPACE2, HttpParser.State.REQUEST_VERSION, HttpParser.State.HEADER);

    JettyConnection(HttpConfiguration configuration, Connector connector, EndPoint endPoint) {
        super(configuration, connector, endPoint);
    }

    @Override
    public void releaseBuffer() {
        RequestBufferRelease.release(this);
    }

    @Override
    public boolean readingHead() {
        return HEADER_PHASE.contains(getParser().getState());
    }

    /**
     * Jetty does not read from a connection whose request is being handled and whose body was read, so a client's close
     * goes unnoticed until the gateway writes; one non-blocking read finds it (end of input, or a reset). A client that
     * pipelined its next request has those bytes taken by this read: its connection is closed after this answer
     * (pipelining is all but unused by SOAP clients).
     */
    @Override
    public boolean clientGone(Response response) {
        EndPoint endPoint = getEndPoint();
        if (!endPoint.isOpen()) {
            return true;
        }
        try {
            int n = endPoint.fill(BufferUtil.allocate(1));
            if (n > 0) {
                response.getHeaders().put(HttpHeader.CONNECTION, "close");
            }
            return n < 0;
        } catch (IOException | RuntimeException reset) {
            return true;
        }
    }
}
