package io.slagate.experiment;

import io.slagate.bus.ControlBus;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusCodec;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiConsumer;

/**
 * A gateway's control-plane side without its data plane, for the scale experiment: a real bus client with its own
 * connection, which joins, reports every interval what a gateway of C classes and S servers reports (each class's rate
 * and the response time an M/M/1 slot queue gives at the share it holds), beats alive, and applies the allocations it
 * receives (its weights and caps). Each applied allocation's latency, from the manager's decision to here, goes to
 * the experiment.
 */
final class SimulatedGateway implements AutoCloseable {
    /** Per class, what one slot serves per second. */
    static final double MU = 10;

    private final String id;
    private final ControlBus bus;
    private final String[] classes;
    private final String[] servers;
    private final double[] rate;
    private final Random random;
    private final boolean sampleSizes;
    private long sequence;
    private volatile AllocationMessage applied;
    private volatile long appliedAtMillis;
    /** JSON characters of the last allocation received and the last report sent (sampled gateways only). */
    private volatile int allocationChars;
    private volatile int reportChars;
    private volatile BiConsumer<Long, Long> onApplied;

    /**
     * @param url         the bus URL (a failover URL of the brokers)
     * @param rate        per class, the requests per second this gateway is offered
     * @param sampleSizes whether to measure the JSON size of what it sends and receives (costs an encoding)
     */
    SimulatedGateway(String id, String url, String user, String password, String[] classes, String[] servers, double[] rate,
                     long seed, boolean sampleSizes) {
        this.id = id;
        this.classes = classes;
        this.servers = servers;
        this.rate = rate;
        this.random = new Random(seed);
        this.sampleSizes = sampleSizes;
        this.bus = new ControlBus(url, user, password, id);
        bus.subscribe(Topics.allocationFor(id), m -> {
            if (m instanceof AllocationMessage a && a.gateways().containsKey(id)
                    && (applied == null || a.version() > applied.version())) {
                long now = System.currentTimeMillis();
                applied = a;
                appliedAtMillis = now;
                BiConsumer<Long, Long> l = onApplied;
                if (l != null) {
                    l.accept(a.version(), now - a.timestampMillis());
                }
                if (sampleSizes) {
                    allocationChars = BusCodec.encode(a).length();
                }
            }
        });
        bus.onConnected(() -> bus.publish(Topics.HEARTBEAT_GATEWAY, heartbeat(HeartbeatMessage.JOIN)));
    }

    /** Told (version, latency in ms from its decision to here) of each allocation applied from now on; null: no one. */
    void onApplied(BiConsumer<Long, Long> listener) {
        onApplied = listener;
    }

    SimulatedGateway start() {
        bus.start();
        return this;
    }

    /** One reporting interval: the report, then an alive beat (as a gateway does). */
    void report(double windowSeconds) {
        StatsMessage s = stats(windowSeconds);
        if (sampleSizes) {
            reportChars = BusCodec.encode(s).length() + BusCodec.encode(heartbeat(HeartbeatMessage.ALIVE)).length();
        }
        bus.publish(Topics.STATS, s);
        bus.publish(Topics.HEARTBEAT_GATEWAY, heartbeat(HeartbeatMessage.ALIVE));
    }

    private HeartbeatMessage heartbeat(String event) {
        AllocationMessage a = applied;
        return new HeartbeatMessage(BusMessage.SCHEMA, id, "gateway", event, System.currentTimeMillis(), a == null ? 0 : a.version());
    }

    /** What a gateway with this allocation reports: its rates (±10% noise), and M/M/1 response times at its shares. */
    StatsMessage stats(double windowSeconds) {
        AllocationMessage a = applied;
        GatewayAllocation mine = a == null ? null : a.gateways().get(id);
        int slots = 0;
        List<ServerStatusMessage> status = new ArrayList<>(servers.length);
        for (String s : servers) {
            int cap = mine == null ? 0 : mine.caps().getOrDefault(s, 0);
            slots += cap;
            ServerStatusMessage st = new ServerStatusMessage(s, cap, cap / 2, true);
            if (!st.idle()) {
                status.add(st); // as a gateway does: an idle server goes without saying
            }
        }
        double weights = 0;
        for (String c : classes) {
            weights += weight(mine, c);
        }
        List<FlowStatsMessage> flows = new ArrayList<>(classes.length);
        for (int c = 0; c < classes.length; c++) {
            double lambda = rate[c] * (0.9 + 0.2 * random.nextDouble());
            double share = weights > 0 ? slots * weight(mine, classes[c]) / weights : 0;
            double t = share > 0 && lambda / share < MU ? 1 / (MU - lambda / share) : 5.0;
            flows.add(new FlowStatsMessage(classes[c], lambda, lambda, 0, t, Math.max(0, t - 1 / MU), 1 / MU, 0,
                    (int) Math.round(share / 2), weight(mine, classes[c]), 1.0, Double.NaN));
        }
        return new StatsMessage(BusMessage.SCHEMA, id, ++sequence, System.currentTimeMillis(), windowSeconds,
                a == null ? 0 : a.version(), flows, status);
    }

    private static double weight(GatewayAllocation mine, String cls) {
        if (mine == null) {
            return 1;
        }
        Double w = mine.weights().get(cls);
        return w == null ? 1 : w;
    }

    String id() {
        return id;
    }

    ControlBus bus() {
        return bus;
    }

    /** The version of the allocation in force here (0: none yet). */
    long version() {
        AllocationMessage a = applied;
        return a == null ? 0 : a.version();
    }

    /** The decision time (manager's clock, ms) of the allocation in force, and when it was applied here; 0: none. */
    long decidedAtMillis() {
        AllocationMessage a = applied;
        return a == null ? 0 : a.timestampMillis();
    }

    long appliedAtMillis() {
        return appliedAtMillis;
    }

    int allocationChars() {
        return allocationChars;
    }

    int reportChars() {
        return reportChars;
    }

    Map<String, Integer> caps() {
        AllocationMessage a = applied;
        return a == null || a.gateways().get(id) == null ? Map.of() : a.gateways().get(id).caps();
    }

    @Override
    public void close() {
        bus.close(Duration.ofMillis(200));
    }
}
