package io.slagate.console;

import io.slagate.bus.ControlBus;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusCodec;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
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

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private final int maxPoints;
    private final long expiryNanos;
    private final java.util.function.LongSupplier nanoClock;
    private final Map<String, StatsMessage> gateways = new TreeMap<>();
    private final Map<String, Long> heardNanos = new java.util.HashMap<>();
    private final Deque<Point> history = new ArrayDeque<>();
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private volatile AllocationMessage allocation;
    private volatile DecisionMessage decision;

    /**
     * @param expiry how long a gateway may stay silent before the console drops it (as the resource
     *               manager does: {@code controller.gatewayExpiry} reporting intervals); one that says
     *               {@code leave} is dropped at once
     */
    public LiveState(int maxPoints, java.time.Duration expiry, java.util.function.LongSupplier nanoClock) {
        this.maxPoints = maxPoints;
        this.expiryNanos = expiry.toNanos();
        this.nanoClock = nanoClock;
    }

    public void attach(ControlBus bus) {
        bus.whileLost("the console's live figures pause until it is back; edits are not delivered meanwhile");
        for (String topic : List.of(Topics.STATS, Topics.ALLOCATION, Topics.DECISION, Topics.HEARTBEAT_GATEWAY)) {
            bus.subscribe(topic, this::accept);
        }
    }

    /** Seconds a gateway may stay silent before it is dropped (the browser drops it after as long). */
    public double expirySeconds() {
        return expiryNanos / 1e9;
    }

    public void accept(BusMessage m) {
        List<String> gone = expire();
        if (m instanceof HeartbeatMessage h) {
            if (HeartbeatMessage.LEAVE.equals(h.event()) && forget(h.componentId())) {
                gone.add(h.componentId());
            }
            announceGone(gone, "left");
            return;
        }
        announceGone(gone, "silent");
        if (m instanceof StatsMessage s) {
            synchronized (this) {
                gateways.put(s.gatewayId(), s);
                heardNanos.put(s.gatewayId(), nanoClock.getAsLong());
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

    /** The gateways heard from within the expiry, each with its last report. */
    public Map<String, StatsMessage> gateways() {
        announceGone(expire(), "silent");
        synchronized (this) {
            return new TreeMap<>(gateways);
        }
    }

    private synchronized List<String> expire() {
        List<String> gone = new ArrayList<>();
        long now = nanoClock.getAsLong();
        heardNanos.entrySet().removeIf(e -> {
            if (now - e.getValue() > expiryNanos) {
                gateways.remove(e.getKey());
                gone.add(e.getKey());
                return true;
            }
            return false;
        });
        return gone;
    }

    private synchronized boolean forget(String gatewayId) {
        heardNanos.remove(gatewayId);
        return gateways.remove(gatewayId) != null;
    }

    /** Tells the browsers that a gateway is gone, so that its row and figures are not drawn as live. */
    private void announceGone(List<String> gone, String why) {
        for (String g : gone) {
            String json;
            try {
                json = JSON.writeValueAsString(Map.of("type", "gateway-gone", "gatewayId", g, "reason", why));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                continue; // a map of strings always encodes
            }
            for (Consumer<String> l : listeners) {
                l.accept(json);
            }
        }
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
