package io.slagate.gateway.listener.relay;

import io.slagate.gateway.http1.RequestHead;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Components;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Context;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Session;
import org.eclipse.jetty.server.TunnelSupport;
import org.eclipse.jetty.util.Attributes;
import org.eclipse.jetty.util.HostPort;

/**
 * A request read by the relay listener, as the gateway's handler reads any request: the head's
 * method, target and fields taken out of the bytes once, the body from the connection's buffer as it
 * arrives. Plain HTTP/1.1 or 1.0 only (no tunnel, no session, no HTTP/2 stream wrappers).
 */
final class RelayRequest extends Attributes.Lazy implements Request {
    private final RelayConnection connection;
    private final String method;
    private final String target;
    private final HttpFields headers;
    private final long length;
    private final long beginNanos;
    private final long headersNanos;
    private HttpURI uri;

    RelayRequest(RelayConnection connection, RequestHead head, long beginNanos, long headersNanos) {
        this.connection = connection;
        this.method = head.method();
        this.target = head.target();
        int n = head.fieldCount();
        HttpField[] fields = new HttpField[n];
        for (int f = 0; f < n; f++) {
            fields[f] = head.httpField(f);
        }
        this.headers = HttpFields.from(fields); // immutable over this array: no copy
        this.length = head.chunked() ? -1 : Math.max(0, head.contentLength());
        this.beginNanos = beginNanos;
        this.headersNanos = headersNanos;
    }

    @Override
    public String getId() {
        return connection.metaData().getId() + '/' + connection.getMessagesIn();
    }

    @Override
    public Components getComponents() {
        return connection.metaData().components();
    }

    @Override
    public ConnectionMetaData getConnectionMetaData() {
        return connection.metaData();
    }

    @Override
    public String getMethod() {
        return method;
    }

    /** Built when first asked for: the target as sent, its authority from Host when the target is a path. */
    @Override
    public HttpURI getHttpURI() {
        HttpURI u = uri;
        if (u == null) {
            HttpURI.Mutable m = HttpURI.build().uri(method, target); // CONNECT's target is an authority, not a path
            if (m.getHost() == null) {
                m.scheme("http");
                String host = headers.get("Host");
                if (host != null && !host.isEmpty()) {
                    HostPort hp = new HostPort(host);
                    m.authority(hp.getHost(), hp.getPort());
                }
            }
            u = m.asImmutable();
            uri = u;
        }
        return u;
    }

    /**
     * Why the target must be refused under {@code compliance} (a path a server could read two ways: encoded dots or
     * separators, dot segments with parameters), as Jetty's listener refuses it; null when it may be forwarded.
     */
    String uriProblem(UriCompliance compliance) {
        try {
            String problem = UriCompliance.checkUriCompliance(compliance, getHttpURI(), null);
            return problem != null ? problem : authorityProblem();
        } catch (IllegalArgumentException notAUri) {
            return "a target that is not a URI: " + notAUri.getMessage();
        }
    }

    /**
     * An absolute-form target names the authority the request is for (RFC 9112 3.2.2): one that differs from the Host
     * field is refused, as Jetty's listener refuses it, rather than one of the two silently believed.
     */
    private String authorityProblem() {
        HttpURI target = HttpURI.from(method, this.target);
        String host = headers.get("Host");
        if (target.getHost() == null || host == null || host.isEmpty()) {
            return null;
        }
        HostPort field = new HostPort(host);
        boolean ports = field.getPort() <= 0 || target.getPort() <= 0 || field.getPort() == target.getPort();
        boolean same = field.getHost().equalsIgnoreCase(target.getHost()) && ports;
        return same ? null : "an absolute target whose authority is not the Host field";
    }

    @Override
    public Context getContext() {
        return connection.connector().getServer().getContext();
    }

    @Override
    public HttpFields getHeaders() {
        return headers;
    }

    /** The body's length from Content-Length (0 without a body), or −1 when it comes chunked. */
    @Override
    public long getLength() {
        return length;
    }

    @Override
    public Content.Chunk read() {
        return connection.readBody();
    }

    @Override
    public void demand(Runnable demandCallback) {
        connection.demandBody(demandCallback);
    }

    @Override
    public void fail(Throwable failure) {
        connection.failBody(failure);
    }

    @Override
    public boolean consumeAvailable() {
        return connection.consumeAvailable();
    }

    @Override
    public HttpFields getTrailers() {
        return null;
    }

    @Override
    public long getBeginNanoTime() {
        return beginNanos;
    }

    @Override
    public long getHeadersNanoTime() {
        return headersNanos;
    }

    @Override
    public boolean isSecure() {
        return false;
    }

    @Override
    public void addIdleTimeoutListener(Predicate<TimeoutException> onIdleTimeout) {
        // the gateway bounds a request's life with its own timers; an idle connection mid-request is left to them
    }

    @Override
    public void addFailureListener(Consumer<Throwable> onFailure) {
        // nothing in the gateway listens: a client gone is found by reading or writing
    }

    @Override
    public TunnelSupport getTunnelSupport() {
        return null;
    }

    @Override
    public void addHttpStreamWrapper(Function<HttpStream, HttpStream> wrapper) {
        throw new UnsupportedOperationException("the relay listener has no HTTP stream to wrap");
    }

    @Override
    public Session getSession(boolean create) {
        return null;
    }

    @Override
    public String toString() {
        return method + ' ' + target + " on " + connection;
    }
}
