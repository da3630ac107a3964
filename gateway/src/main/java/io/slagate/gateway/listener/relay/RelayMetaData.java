package io.slagate.gateway.listener.relay;

import java.net.SocketAddress;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Components;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.util.Attributes;
import org.eclipse.jetty.util.thread.Scheduler;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * A relay connection as the gateway's handler sees it through its requests: addresses, HTTP version,
 * and attributes that live as long as the connection (a client certificate's customer, once checked).
 */
final class RelayMetaData extends Attributes.Lazy implements ConnectionMetaData {
    private final RelayConnection connection;
    private final HttpConfiguration config;
    private final String id;
    private Components components;

    RelayMetaData(RelayConnection connection, HttpConfiguration config) {
        this.connection = connection;
        this.config = config;
        this.id = Integer.toHexString(System.identityHashCode(connection));
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public HttpConfiguration getHttpConfiguration() {
        return config;
    }

    @Override
    public HttpVersion getHttpVersion() {
        return connection.httpVersion();
    }

    @Override
    public String getProtocol() {
        return getHttpVersion().asString();
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    @Override
    public Connector getConnector() {
        return connection.connector();
    }

    @Override
    public boolean isPersistent() {
        return connection.persistent();
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return connection.getEndPoint().getRemoteSocketAddress();
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return connection.getEndPoint().getLocalSocketAddress();
    }

    /** The server's parts, for a handler that asks through its request (made once, when first asked). */
    Components components() {
        Components c = components;
        if (c == null) {
            Connector connector = connection.connector();
            Attributes cache = new Attributes.Lazy();
            c = new Components() {
                @Override
                public ByteBufferPool getByteBufferPool() {
                    return connector.getByteBufferPool();
                }

                @Override
                public Scheduler getScheduler() {
                    return connector.getScheduler();
                }

                @Override
                public ThreadPool getThreadPool() {
                    return connector.getServer().getThreadPool();
                }

                @Override
                public Attributes getCache() {
                    return cache;
                }
            };
            components = c;
        }
        return c;
    }
}
