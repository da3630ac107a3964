package io.slagate.gateway;

import io.slagate.gateway.loop.LoopConnector;
import io.slagate.gateway.stats.GatewayMetrics;
import java.util.List;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.AbstractConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;

/**
 * How a gateway's data plane is doing, read-only: its client connections and event loops, and per server the
 * connections it holds. For tests, benchmarks and the operator's dump; the request path does not read it.
 */
public final class DataPlaneFigures {
    private final LoopConnector client;
    private final ServerConnector admin;
    private final Generations generations;

    DataPlaneFigures(LoopConnector client, ServerConnector admin, Generations generations) {
        this.client = client;
        this.admin = admin;
        this.generations = generations;
    }

    /** The client listener's event loops. */
    public int loops() {
        return client.loops();
    }

    /** Requests handed to another event loop than the thread's own (admitted by another loop's completion, or by the controller). */
    public long crossLoopTasks() {
        return client.crossLoopTasks();
    }

    /** Client connections the gateway listener holds open now. */
    public int connectedEndPoints() {
        return client.getConnectedEndPoints().size();
    }

    /** Whether this gateway reuses its connections to server {@code i} (it does once the server proved it speaks only when asked). */
    public boolean reusesConnections(int i) {
        return generations.current().proxy().reusesConnections(i);
    }

    /** Server {@code i}'s connection counters, or null for a server not on the direct leg (https, JMS). */
    public GatewayMetrics.UpstreamConnections upstreamConnections(int i) {
        return generations.current().proxy().upstreamConnections(i);
    }

    /** Connections to server {@code i} given to an exchange of another loop than their own: 0 unless the design is broken. */
    public long crossLoopHandOuts(int i) {
        return generations.current().proxy().crossLoopHandOuts(i);
    }

    /** Quiet checks started on connections to server {@code i}; each took one connection out of its pool for a while. */
    public long quietChecks(int i) {
        return generations.current().proxy().quietChecks(i);
    }

    /** The client listener's connections open now. */
    List<Connection> clientConnections() {
        return client.getConnectedEndPoints().stream().map(e -> e.getConnection()).toList();
    }

    /** The read buffer of a client connection, and of an admin one (bytes), as Jetty will size them. */
    int[] inputBufferSizes() {
        return new int[] {client.getConnectionFactory(AbstractConnectionFactory.class).getInputBufferSize(),
                ((AbstractConnectionFactory) admin.getConnectionFactory("http/1.1")).getInputBufferSize()};
    }
}
