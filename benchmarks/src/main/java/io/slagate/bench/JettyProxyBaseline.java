package io.slagate.bench;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.proxy.ProxyHandler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The gateway benchmark's baseline (bench/gateway-vs-haproxy.sh with BASELINE=1): Jetty 12's own
 * reverse proxy, with the thread pool and upstream connection cap slagate uses, and nothing else —
 * no classification, queues, scheduling or metrics. What it reaches bounds what slagate can reach on
 * Jetty's HTTP stack.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.slagate.bench.JettyProxyBaseline PORT BACKEND_URL CONNECTIONS}
 */
public final class JettyProxyBaseline {
    private JettyProxyBaseline() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String backend = args[1];
        int connections = Integer.parseInt(args[2]);
        QueuedThreadPool threads = new QueuedThreadPool(64, 8);
        Server server = new Server(threads);
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        HttpClient client = new HttpClient();
        client.setExecutor(threads);
        client.setMaxConnectionsPerDestination(connections);
        ProxyHandler.Reverse proxy = new ProxyHandler.Reverse((Request r) ->
                HttpURI.from(backend + r.getHttpURI().getPathQuery()));
        proxy.setHttpClient(client);
        server.setHandler(proxy);
        server.start();
        server.join();
    }
}
