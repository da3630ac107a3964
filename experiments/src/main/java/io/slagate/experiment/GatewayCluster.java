package io.slagate.experiment;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.slagate.bus.ControlBus;
import io.slagate.bus.EmbeddedBroker;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.agent.GatewayAgent;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import io.slagate.rm.ControlLoop;
import io.slagate.rm.Overrides;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * An in-VM broker, a resource manager and several gateways with their agents, in this JVM: a cluster
 * for an experiment or an end-to-end test. {@code yaml} gives each part's configuration from its id
 * ({@code gw1}, {@code gw2}, … and {@code rm}); its bus must be {@code vm://BROKER?create=false}.
 */
public final class GatewayCluster implements AutoCloseable {
    private final List<AutoCloseable> open = new ArrayList<>();
    private final Gateway[] gateways;

    public GatewayCluster(String broker, int gatewayCount, Function<String, String> yaml) throws Exception {
        gateways = new Gateway[gatewayCount];
        try {
            open.add(EmbeddedBroker.start(broker, "", null, null));
            String url = "vm://" + broker + "?create=false";
            for (int i = 0; i < gatewayCount; i++) {
                String id = "gw" + (i + 1);
                Gateway g = new Gateway(ConfigLoader.parse(yaml.apply(id), id));
                ControlBus bus = new ControlBus(url, null, null, id);
                GatewayAgent agent = new GatewayAgent(g, bus);
                g.start();
                bus.start();
                open.add(() -> g.stop(Duration.ofSeconds(5)));
                open.add(bus);
                open.add(agent);
                gateways[i] = g;
            }
            SlagateConfig rmConfig = ConfigLoader.parse(yaml.apply("rm"), "rm");
            ControlBus rmBus = new ControlBus(url, null, null, "rm");
            ControlLoop rm = new ControlLoop("rm", rmConfig, rmBus, new Overrides(), new SimpleMeterRegistry());
            rmBus.start();
            rm.start();
            open.add(rmBus);
            open.add(() -> {
                RunningSystem.counted(rm);
                rm.close();
            });
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    /** The client address of gateway {@code i} (from 0). */
    public String url(int i) {
        return "http://127.0.0.1:" + gateways[i].port();
    }

    /**
     * One load per gateway, all at once: the load generator on {@code spec.apply(i)} for gateway {@code i} (whose
     * target is {@link #url}); each one's summary, in the gateways' order.
     */
    public List<Summary> load(IntFunction<LoadSpec> spec) throws Exception {
        List<CompletableFuture<Summary>> runs = new ArrayList<>();
        for (int i = 0; i < gateways.length; i++) {
            LoadSpec s = spec.apply(i);
            runs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return new LoadGenerator(s, null).run();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        List<Summary> out = new ArrayList<>();
        for (CompletableFuture<Summary> r : runs) {
            out.add(r.get());
        }
        return out;
    }

    public Gateway gateway(int i) {
        return gateways[i];
    }

    @Override
    public void close() {
        for (int i = open.size() - 1; i >= 0; i--) {
            try {
                open.get(i).close();
            } catch (Exception e) {
                // the others still close
            }
        }
    }
}
