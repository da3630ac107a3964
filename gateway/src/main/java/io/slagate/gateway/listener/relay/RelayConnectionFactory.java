package io.slagate.gateway.listener.relay;

import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;

/**
 * HTTP/1.1 and 1.0 on the client listener by the relay's reading ({@code gateway.listener: relay}):
 * each connection a {@link RelayConnection} on the listener's loops. Plain HTTP only.
 */
public final class RelayConnectionFactory extends AbstractConnectionFactory {
    private final HttpConfiguration config;
    private final long maxBodyBytes;
    private final LongAdder lengthMismatches = new LongAdder();

    /** Heads up to {@code config}'s request header size; chunked bodies refused (413) past {@code maxBodyBytes}. */
    public RelayConnectionFactory(HttpConfiguration config, int inputBufferSize, long maxBodyBytes) {
        super(HttpVersion.HTTP_1_1.asString());
        this.config = config;
        this.maxBodyBytes = maxBodyBytes;
        setInputBufferSize(inputBufferSize);
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        return configure(new RelayConnection(connector, endPoint, config, getInputBufferSize(), maxBodyBytes, lengthMismatches),
                connector, endPoint);
    }

    /** Answers whose bytes did not match the Content-Length their head announced (each closed its connection). */
    public double lengthMismatches() {
        return lengthMismatches.sum();
    }
}
