package io.slagate.rm;

import io.slagate.bus.message.DecisionMessage;
import io.slagate.rm.limit.ConcurrencyLimit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The resource manager's meters: the solve's time and count, the cluster utility and version of
 * the last decision, and per flow, per pool and per automatic server what the last cycle decided
 * and measured (the gauges hold the last values; a flow or pool gets its series when first decided).
 */
final class ManagerMetrics {
    private final String id;
    private final MeterRegistry registry;
    private final Timer solveTimer;
    private final Counter cycleCounter;
    private final Timer publishTimer;
    private final Map<String, double[]> flowGauges = new ConcurrentHashMap<>();
    private final Map<String, double[]> deficitGauges = new ConcurrentHashMap<>();
    private final Map<String, double[]> limitGauges = new ConcurrentHashMap<>();
    private final AtomicLong refusedFigures = new AtomicLong();

    ManagerMetrics(String id, MeterRegistry registry, ManagerCore loop) {
        this.id = id;
        this.registry = registry;
        solveTimer = Timer.builder("slagate.rm.solve").tag("manager", id)
                .description("Time to compute one allocation (all pools)").register(registry);
        cycleCounter = Counter.builder("slagate.rm.cycles").tag("manager", id).register(registry);
        publishTimer = Timer.builder("slagate.rm.publish").tag("manager", id)
                .description("Time to hand one allocation to the bus (every gateway's part and the summary)").register(registry);
        Gauge.builder("slagate.rm.utility", loop, c -> c.status().lastDecision() == null ? Double.NaN : c.status().lastDecision().clusterUtility())
                .tag("manager", id).description("Cluster utility of the last decision (eq. 2)").register(registry);
        Gauge.builder("slagate.rm.version", loop, c -> c.status().lastAllocation() == null ? 0 : c.status().lastAllocation().version())
                .tag("manager", id).description("Version of the last allocation published").register(registry);
        Gauge.builder("slagate.rm.pool.moves", loop, c -> c.status().pools().moves()).tag("manager", id)
                .description("Servers moved between pools since start").register(registry);
        Gauge.builder("slagate.rm.pool.moves.refused", loop, c -> c.status().pools().refusedMoves()).tag("manager", id)
                .description("Pool moves reverted because the server refused the new pool's requests").register(registry);
        Gauge.builder("slagate.rm.flow.reports.refused", refusedFigures, AtomicLong::get).tag("manager", id)
                .description("Flow reports refused for a non-finite or negative figure (the flow kept its weight)").register(registry);
        FunctionCounter.builder("slagate.rm.predictions.out.of.range", loop, c -> c.status().counts().predictionsOutOfRange()).tag("manager", id)
                .description("Corrected response-time predictions that were not a positive number (floored to 1 ns)").register(registry);
        Gauge.builder("slagate.rm.gateways", loop, c -> c.status().lastAllocation() == null ? 0 : c.status().lastAllocation().gateways().size())
                .tag("manager", id).description("Gateways in the last allocation").register(registry);
    }

    /** One allocation handed to the bus in {@code nanos}. */
    void published(long nanos) {
        publishTimer.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** One control cycle solved in {@code nanos}. */
    void cycleSolved(long nanos) {
        solveTimer.record(nanos, TimeUnit.NANOSECONDS);
        cycleCounter.increment();
    }

    /** The automatic N_s of each {@code concurrency: auto} server and its knee estimate (NaN until measured). */
    void recordLimits(Map<String, ConcurrencyLimit> limits) {
        for (Map.Entry<String, ConcurrencyLimit> e : limits.entrySet()) {
            double[] v = limitGauges.computeIfAbsent(e.getKey(), server -> {
                double[] holder = new double[2];
                Gauge.builder("slagate.server.concurrency", holder, h -> h[0]).tag("manager", id).tag("server", server)
                        .description("N_s found by concurrency: auto").register(registry);
                Gauge.builder("slagate.server.knee", holder, h -> h[1]).tag("manager", id).tag("server", server)
                        .description("The knee estimate X_max * S_0 behind it (NaN until measured)").register(registry);
                return holder;
            });
            v[0] = e.getValue().limit();
            v[1] = e.getValue().knee();
        }
    }

    /** The automatic N_s of a server as of the last cycle, or -1 for a server without {@code concurrency: auto}. */
    /** Per server with {@code concurrency: auto}, its N_s as of the last cycle. */
    Map<String, Integer> concurrencies() {
        Map<String, Integer> out = new java.util.HashMap<>();
        limitGauges.forEach((server, v) -> out.put(server, (int) v[0]));
        return out;
    }

    /**
     * Per pool sized so far, the servers of its mean size to add for every class to meet its goals (negative: that
     * could go) as of the last cycle; NaN when more servers would not help.
     */
    Map<String, Double> deficitServers() {
        Map<String, Double> out = new java.util.HashMap<>();
        deficitGauges.forEach((pool, v) -> {
            if (v.length == 3) { // a pool's own gauges, not one of its classes'
                out.put(pool, v[2]);
            }
        });
        return out;
    }

    /** Per pool (and class): slots needed, lacking, and servers to add, for an autoscaler (docs/OPERATIONS.md, deploy/hpa-capacity-deficit.yaml). */
    void recordDeficits(Map<String, CapacityDeficit.Result> deficits, long refusedFigures) {
        this.refusedFigures.set(refusedFigures);
        for (CapacityDeficit.Result r : deficits.values()) {
            double[] v = deficitGauges.computeIfAbsent(r.pool(), pool -> {
                double[] holder = new double[3];
                Gauge.builder("slagate.capacity.needed.slots", holder, h -> h[0]).tag("manager", id).tag("pool", pool)
                        .description("Slots every class of the pool needs to meet its target at the measured load (NaN: no number of servers can)")
                        .register(registry);
                Gauge.builder("slagate.capacity.deficit.slots", holder, h -> h[1]).tag("manager", id).tag("pool", pool)
                        .description("Slots the pool lacks for every class to meet its target (0: enough)").register(registry);
                Gauge.builder("slagate.capacity.deficit.servers", holder, h -> h[2]).tag("manager", id).tag("pool", pool)
                        .description("Servers of the pool's mean size to add for every class to meet its target, or that could go with"
                                + " every target met (negative); NaN: more servers would not help")
                        .register(registry);
                return holder;
            });
            v[0] = r.neededSlots();
            v[1] = r.deficitSlots();
            v[2] = r.servers();
            for (Map.Entry<String, Double> c : r.neededByClass().entrySet()) {
                double[] cv = deficitGauges.computeIfAbsent(r.pool() + "\u0000" + c.getKey(), k -> {
                    double[] holder = new double[1];
                    Gauge.builder("slagate.capacity.needed.class.slots", holder, h -> h[0]).tag("manager", id).tag("pool", r.pool())
                            .tag("class", c.getKey()).description("Slots the class's flows need to meet its target at the measured load")
                            .register(registry);
                    return holder;
                });
                cv[0] = c.getValue();
            }
        }
    }

    void recordFlows(DecisionMessage d) {
        for (DecisionMessage.FlowDecision f : d.flows()) {
            String key = f.gatewayId() + "\u0000" + f.className();
            double[] v = flowGauges.computeIfAbsent(key, k -> {
                double[] holder = new double[7];
                Gauge.builder("slagate.rm.flow.weight", holder, h -> h[0]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).description("w_{g,c} decided").register(registry);
                Gauge.builder("slagate.rm.flow.predicted", holder, h -> h[1]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).baseUnit("seconds").description("Predicted response time t(w)")
                        .register(registry);
                Gauge.builder("slagate.rm.flow.utility", holder, h -> h[2]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).description("Predicted utility of the flow").register(registry);
                Gauge.builder("slagate.rm.flow.model.error", holder, h -> h[3]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).description("|predicted - measured| / measured of the last cycle's prediction")
                        .register(registry);
                Gauge.builder("slagate.rm.flow.model.gain", holder, h -> h[4]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).description("The online correction's gain on the model's predicted change")
                        .register(registry);
                Gauge.builder("slagate.rm.flow.arrival.rate", holder, h -> h[5]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).description("Arrival rate measured over the gateway's window (req/s)")
                        .register(registry);
                Gauge.builder("slagate.rm.flow.forecast.rate", holder, h -> h[6]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).description("Arrival rate forecast for the next cycle and used (NaN: none in force)")
                        .register(registry);
                return holder;
            });
            v[0] = f.weight();
            v[1] = f.predictedSeconds();
            v[2] = f.utility();
            v[3] = f.modelError();
            v[4] = f.modelGain();
            v[5] = f.arrivalRate();
            v[6] = f.forecastRate();
        }
    }
}
