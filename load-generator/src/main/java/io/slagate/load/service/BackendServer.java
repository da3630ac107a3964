package io.slagate.load.service;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Synthetic SOAP servers: one Jetty server per port, each with its own thread pool and its own
 * Axis2 runtime, so that they behave as separate servers s. The service is at
 * {@code /services/StockUtility} (WSDL at {@code ?wsdl}).
 */
public final class BackendServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BackendServer.class);
    private final List<Server> servers = new ArrayList<>();
    private final List<ItemCache> caches = new ArrayList<>();
    private final List<ServerKnobs> knobs = new ArrayList<>();

    /** Starts one server per port (0: any free port) on {@code host}. */
    public static BackendServer start(String host, List<Integer> ports, ServiceTime serviceTime) throws Exception {
        return start(host, ports, serviceTime, null);
    }

    /**
     * As above; with {@code jms}, the first server also consumes SOAP over JMS from the queue
     * {@value SyntheticServiceServlet#SERVICE} on that broker.
     */
    public static BackendServer start(String host, List<Integer> ports, ServiceTime serviceTime, JmsEndpoint jms) throws Exception {
        return start(host, ports, serviceTime, jms, null);
    }

    /**
     * As above; with {@code store}, every server also serves the {@link Bookstore} service on a data set of its
     * own, with its own cache and worker pool (the backend with a working set).
     */
    public static BackendServer start(String host, List<Integer> ports, ServiceTime serviceTime, JmsEndpoint jms,
                                      WorkingSetModel store) throws Exception {
        StockUtility.configure(serviceTime);
        BackendServer b = new BackendServer();
        try {
            for (int i = 0; i < ports.size(); i++) {
                ItemCache cache = store == null ? null : new ItemCache(store.forServer(i));
                if (cache != null) {
                    b.caches.add(cache);
                }
                ServerKnobs k = new ServerKnobs(serviceTime.workers(), 0);
                b.knobs.add(k);
                b.servers.add(startOne(host, ports.get(i), i == 0 ? jms : null, cache, k));
            }
        } catch (Exception e) {
            b.close();
            throw e;
        }
        LOG.info("synthetic StockUtility service on {}{} (mean service time {}, CPU fraction {})", b.urls(),
                jms == null ? "" : " and on JMS queue " + SyntheticServiceServlet.SERVICE + " at " + jms.brokerUrl(),
                serviceTime.defaultMean(), serviceTime.cpu());
        return b;
    }

    private static Server startOne(String host, int port, JmsEndpoint jms, ItemCache cache, ServerKnobs knobs) throws Exception {
        // Axis2 is synchronous: a thread per executing request, so the pool bounds the concurrency it can take.
        QueuedThreadPool threads = new QueuedThreadPool(400, 8);
        threads.setName("backend-" + port);
        Server server = new Server(threads);
        ServerConnector c = new ServerConnector(server);
        c.setHost(host);
        c.setPort(port);
        server.addConnector(c);
        ServletContextHandler ctx = new ServletContextHandler("/");
        ServletHolder axis = new ServletHolder("axis2", new SyntheticServiceServlet(jms).withBookstore(cache).withKnobs(knobs));
        axis.setInitOrder(1);
        ctx.addServlet(axis, "/services/*");
        ctx.addServlet(new ServletHolder("knobs", new KnobsServlet(knobs, cache)), "/admin/knobs/*");
        if (cache != null) {
            // the Bookstore's counters, for experiments and operators (the gateway never reads them)
            ctx.addServlet(new ServletHolder("bookstore-stats", new HttpServlet() {
                @Override
                protected void doGet(HttpServletRequest req, HttpServletResponse resp)
                        throws IOException {
                    resp.setContentType("application/json");
                    resp.getWriter().printf(Locale.ROOT, "{\"hits\":%d,\"misses\":%d,\"cacheItems\":%d,\"items\":%d,\"workers\":%d}%n",
                            cache.hits(), cache.misses(), cache.capacity(), cache.model().items(), cache.model().workers());
                }
            }), "/bookstore/stats");
        }
        server.setHandler(ctx);
        server.start();
        return server;
    }

    /** Stops server {@code i} alone (a server that fails while the others go on). */
    public void stop(int i) throws Exception {
        servers.get(i).stop();
    }

    /** Per server, its knobs (worker pool, contention knee). */
    public List<ServerKnobs> knobs() {
        return List.copyOf(knobs);
    }

    /** Per server, its Bookstore cache (empty when started without a working-set model). */
    public List<ItemCache> caches() {
        return List.copyOf(caches);
    }

    public List<String> urls() {
        List<String> out = new ArrayList<>();
        for (Server s : servers) {
            ServerConnector c = (ServerConnector) s.getConnectors()[0];
            out.add("http://" + (c.getHost() == null ? "127.0.0.1" : c.getHost()) + ":" + c.getLocalPort());
        }
        return out;
    }

    public List<Integer> ports() {
        List<Integer> out = new ArrayList<>();
        for (Server s : servers) {
            out.add(((ServerConnector) s.getConnectors()[0]).getLocalPort());
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        for (Server s : servers) {
            s.stop();
        }
    }
}
