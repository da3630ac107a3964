package io.slagate.gateway;

import io.slagate.config.SlagateConfig;
import io.slagate.gateway.upstream.ProxyPath;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.stats.GatewayMetrics;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The generation of classes and servers in force, and the replaced ones still finishing the requests they accepted.
 * A generation is what a configuration's classes and servers are built into: queues and slots, meters, the request
 * path. A change of classes or servers at run time builds a new one that takes every request from then on; the one
 * replaced stops once its last request is answered.
 */
final class Generations {
    private static final Logger LOG = LoggerFactory.getLogger(Generations.class);

    record Generation(SlagateConfig config, QueueManager queues, GatewayMetrics metrics, ProxyPath proxy) {
    }

    /** Builds a generation for a configuration, from the one before (null: the first). */
    interface Builder {
        Generation build(SlagateConfig config, Allocation allocation, Generation previous);
    }

    private final Server server;
    private final ScheduledExecutorService timer;
    private final Builder builder;
    private volatile Generation current;
    private final List<Generation> retiring = new CopyOnWriteArrayList<>();

    Generations(Server server, ScheduledExecutorService timer, Builder builder, SlagateConfig first) {
        this.server = server;
        this.timer = timer;
        this.builder = builder;
        this.current = builder.build(first, Allocation.fromConfig(first), null);
    }

    Generation current() {
        return current;
    }

    /**
     * Puts {@code effective} in force. Where it changed nothing the queues, meters and request path are built from,
     * they stay, with its classification; else a new generation is started and takes every request from now on, its
     * classes and servers that stay keeping their weights and caps, and the previous one finishes its requests.
     *
     * @return false when a new request path could not start (the previous one stays)
     */
    boolean apply(SlagateConfig effective) {
        Generation gen = current;
        if (queueingView(effective).equals(queueingView(gen.config())) && effective.servers().equals(gen.config().servers())
                && effective.gateway().equals(gen.config().gateway())) {
            gen.proxy().reclassify(effective);
            current = new Generation(effective, gen.queues(), gen.metrics(), gen.proxy());
            return true;
        }
        Generation fresh = builder.build(effective, gen.queues().caps().allocation().carriedOver(gen.config(), effective), gen);
        try {
            // a managed bean of the running server: started now, stopped with the server if still there
            server.addBean(fresh.proxy(), true);
            if (!fresh.proxy().isStarted()) {
                fresh.proxy().start();
            }
        } catch (Exception e) {
            server.removeBean(fresh.proxy());
            LOG.error("could not start the request path of the new configuration; the old one stays", e);
            return false;
        }
        gen.metrics().retireGauges();
        fresh.metrics().registerGauges();
        gen.queues().succeededBy(fresh.queues());
        current = fresh;
        retiring.add(gen);
        LOG.info("gateway {}: now {} classes, {} servers (N_g = {}); the previous configuration finishes its {} requests",
                effective.gateway().id(), effective.classes().size(), effective.servers().size(),
                fresh.queues().caps().allocation().totalCap(), gen.metrics().ownInFlight());
        return true;
    }

    /** What of the classes the gateway's queues are built from (targets and utilities are the manager's). */
    private static List<String> queueingView(SlagateConfig c) {
        return c.classes().stream().map(x -> x.name() + "/" + x.pool() + "/" + x.queueBound() + "/" + x.queueTimeout()).toList();
    }

    /** Waiting requests past their queue timeout or deadline answered, in every generation; a drained old one retired. */
    void expireOverdue() {
        current.queues().expireOverdue();
        for (Generation old : retiring) {
            old.queues().expireOverdue();
            if (old.metrics().ownInFlight() == 0) {
                retiring.remove(old);
                // its last responses may still be on their way to the clients: stop its client a little later
                timer.schedule(GatewayTimers.guarded("retire a configuration", () -> stopQuietly(old.proxy())), 5, TimeUnit.SECONDS);
                LOG.info("the previous configuration's requests are all answered; its request path stops");
            }
        }
    }

    /** As {@link #expireOverdue} while stopping, when nothing is retired any more. */
    void expireOverdueWhileStopping() {
        current.queues().expireOverdue();
        retiring.forEach(g -> g.queues().expireOverdue());
    }

    private void stopQuietly(ProxyPath proxy) {
        try {
            proxy.stop();
        } catch (Exception e) {
            LOG.warn("stopping a retired request path: {}", e.toString());
        }
        server.removeBean(proxy);
    }
}
