package io.slagate.gateway.listener.jetty;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;

/** Jetty's HTTP/1.1, as its own factory makes it, with connections the gateway can ask ({@link JettyConnection}). */
public final class JettyConnectionFactory extends HttpConnectionFactory {
    public JettyConnectionFactory(HttpConfiguration configuration) {
        super(configuration);
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        JettyConnection connection = new JettyConnection(getHttpConfiguration(), connector, endPoint);
        connection.setTransferEncodingChunkMaxLength(getTransferEncodingChunkMaxLength());
        return configure(connection, connector, endPoint);
    }
}
