package io.slagate.console;

import io.slagate.bus.ControlBus;
import io.slagate.config.bus.AllocationMessage;
import io.slagate.config.bus.BusCodec;
import io.slagate.config.bus.BusMessage;
import io.slagate.config.bus.DecisionMessage;
import io.slagate.config.bus.FlowStatsMessage;
import io.slagate.config.bus.StatsMessage;
import io.slagate.config.bus.Topics;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * What the console knows of the running system, fed from the bus: each gateway's last report, the
 * last allocation and decision, and a bounded history of per-flow points for the charts. Listeners
 * (the live event streams) get every message as it arrives.
 */
public final class LiveState {
    /** One chart point of one flow (gateway, class). */
    public record Point(long timestampMillis, String gatewayId, String className, double responseSeconds,
                        double throughput, double rejectionRate, int queueLength, double weight) {
    }

    private final int maxPoints;
    private final Map<String, StatsMessage> gateways = new TreeMap<>();
    private final Deque<Point> history = new ArrayDeque<>();
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private volatile AllocationMessage allocation;
    private volatile DecisionMessage decision;

    public LiveState(int maxPoints) {
        this.maxPoints = maxPoints;
    }

    public void attach(ControlBus bus) {
        for (String topic : List.of(Topics.STATS, Topics.ALLOCATION, Topics.DECISION)) {
            bus.subscribe(topic, this::accept);
        }
    }

    public void accept(BusMessage m) {
        if (m instanceof StatsMessage s) {
            synchronized (this) {
                gateways.put(s.gatewayId(), s);
                for (FlowStatsMessage f : s.flows()) {
                    history.addLast(new Point(s.timestampMillis(), s.gatewayId(), f.className(), f.meanResponseSeconds(),
                            f.throughput(), f.rejectionRate(), f.queueLength(), f.weight()));
                }
                while (history.size() > maxPoints) {
                    history.removeFirst();
                }
            }
        } else if (m instanceof AllocationMessage a) {
            allocation = a;
        } else if (m instanceof DecisionMessage d) {
            decision = d;
        }
        if (listeners.isEmpty()) {
            return; // no browser watching: nothing to encode
        }
        String json = BusCodec.encode(m);
        for (Consumer<String> l : listeners) {
            l.accept(json);
        }
    }

    public synchronized Map<String, StatsMessage> gateways() {
        return new TreeMap<>(gateways);
    }

    /** Points newer than {@code sinceMillis}, oldest first. */
    public synchronized List<Point> history(long sinceMillis) {
        List<Point> out = new ArrayList<>();
        for (Point p : history) {
            if (p.timestampMillis() >= sinceMillis) {
                out.add(p);
            }
        }
        return out;
    }

    public AllocationMessage allocation() {
        return allocation;
    }

    public DecisionMessage decision() {
        return decision;
    }

    public void addListener(Consumer<String> l) {
        listeners.add(l);
    }

    public void removeListener(Consumer<String> l) {
        listeners.remove(l);
    }
}
