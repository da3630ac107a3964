package io.slagate.gateway.proxy;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.Transport;
import org.eclipse.jetty.util.Promise;

/**
 * The keep-alive connections of this gateway to one plain-HTTP server. Idle ones are kept last in,
 * first out (the warmest connection is reused; extra ones reach the idle timeout and close). No cap
 * of its own: a connection is opened only when an admitted request finds none idle, and the
 * scheduler admits at most N_{g,s} requests to the server at a time.
 */
final class ServerConnectionPool implements ClientConnectionFactory {
    private final ClientConnector connector;
    private final String host;
    private final int port;
    /** The server URL's path without a trailing slash, put before every request's path. */
    final String pathPrefix;
    private final long idleTimeoutMillis;
    private final ConcurrentLinkedDeque<ServerConnection> idle = new ConcurrentLinkedDeque<>();
    private volatile boolean stopped;

    ServerConnectionPool(ClientConnector connector, URI url, long idleTimeoutMillis) {
        this.connector = connector;
        this.host = url.getHost();
        this.port = url.getPort() > 0 ? url.getPort() : 80;
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        this.pathPrefix = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        this.idleTimeoutMillis = idleTimeoutMillis;
    }

    /** Hands a live connection to {@code promise}: an idle one, else a new one once connected. */
    void acquire(Promise<ServerConnection> promise) {
        for (ServerConnection c = idle.pollFirst(); c != null; c = idle.pollFirst()) {
            if (c.activate()) {
                promise.succeeded(c);
                return;
            }
        }
        Map<String, Object> context = new HashMap<>();
        context.put(ClientConnectionFactory.CONTEXT_KEY, this);
        context.put(Transport.CONTEXT_KEY, Transport.TCP_IP);
        context.put(ClientConnector.CONNECTION_PROMISE_CONTEXT_KEY, new Promise<Connection>() {
            @Override
            public void succeeded(Connection connection) {
                promise.succeeded((ServerConnection) connection);
            }

            @Override
            public void failed(Throwable failure) {
                promise.failed(failure);
            }
        });
        try {
            // resolved per connect (rare: connections are reused), so a changed DNS entry is picked up
            connector.connect(new InetSocketAddress(host, port), context);
        } catch (RuntimeException e) {
            promise.failed(e);
        }
    }

    @Override
    public Connection newConnection(EndPoint endPoint, Map<String, Object> context) {
        endPoint.setIdleTimeout(idleTimeoutMillis);
        return new ServerConnection(endPoint, connector.getExecutor(), connector.getScheduler(), this);
    }

    void release(ServerConnection c) {
        idle.offerFirst(c);
        if (stopped && idle.remove(c)) {
            c.close();
        }
    }

    void closed(ServerConnection c) {
        idle.remove(c);
    }

    /** Closes the idle connections; busy ones close when their exchange ends. */
    void stop() {
        stopped = true;
        for (ServerConnection c = idle.pollFirst(); c != null; c = idle.pollFirst()) {
            c.close();
        }
    }
}
