package io.slagate.gateway;

import io.slagate.config.GatewaySettings;
import io.slagate.gateway.listener.connector.Listeners;
import io.slagate.gateway.loop.LoopConnector;
import io.slagate.gateway.proxy.SlowHeaderGuard;
import io.slagate.gateway.soap.SoapErrorHandler;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A gateway's one Jetty server with its two listeners: the client listener, guarded against slow headers and held to
 * the connection limit, and the admin listener beside it (not counted).
 */
record Listening(Server server, LoopConnector client, ServerConnector admin) {

    static Listening of(QueuedThreadPool threads, GatewaySettings g) {
        // buckets of 1 KiB (Jetty's default is 4 KiB): a client connection's read buffer is held while its request waits,
        // so its configured size, not the next multiple of 4 KiB, is what a waiting request costs in direct memory
        Server server = new Server(threads, null, new ArrayByteBufferPool(0, 1024, 64 * 1024));
        server.setErrorHandler(new SoapErrorHandler(g.id()));
        Listeners listeners = new Listeners(server);
        LoopConnector client = listeners.client(g);
        ServerConnector admin = listeners.admin(g);
        // slowloris: headers that trickle in are cut off after the header timeout
        client.addBean(new SlowHeaderGuard(client, g.headerTimeout()));
        server.addConnector(client);
        // bounded file descriptors and memory whatever the clients do; the admin listener is not counted
        server.addBean(new NetworkConnectionLimit(g.maxConnections(), client));
        server.addConnector(admin);
        return new Listening(server, client, admin);
    }
}
