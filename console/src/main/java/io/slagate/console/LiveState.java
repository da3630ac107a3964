package io.slagate.console;

import io.slagate.bus.ControlBus;
import io.slagate.bus.GatewayRoster;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.AllocationVersions;
import io.slagate.bus.message.BusCodec;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the console knows of the running system, fed from the bus: each gateway's last report, the
 * last allocation and decision, and a bounded history of per-flow points for the charts. Listeners
 * (the live event streams) get every message as it arrives.
 * <p>
 * It believes what the resource manager believes: each topic carries one kind of message (the
 * broker decides which roles may publish on it), and a gateway's statistics count only once it
 * joined, from the account it joined with, within the same roster bounds ({@link GatewayRoster}).
 */
public final class LiveState {
    /** One chart point of one flow (gateway, class). */
    public record Point(long timestampMillis, String gatewayId, String className, double responseSeconds,
                        double throughput, double rejectionRate, int queueLength, double weight) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final int maxPoints;
    private final long expiryNanos;
    private final LongSupplier nanoClock;
    private final Map<String, StatsMessage> gateways = new TreeMap<>();
    private final Map<String, Long> heardNanos = new HashMap<>();
    /** Each live gateway's customers' credentials version (its last heartbeat's; -1: it authenticates nobody). */
    private final Map<String, Long> credentials = new TreeMap<>();
    private final List<Consumer<HeartbeatMessage>> beats = new CopyOnWriteArrayList<>();
    private final Deque<Point> history = new ArrayDeque<>();
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private final GatewayRoster roster; // under this object's lock
    private final AtomicLong refused = new AtomicLong();
    private volatile AllocationMessage allocation;
    private volatile DecisionMessage decision;

    /**
     * @param expiry how long a gateway may stay silent before the console drops it (as the resource
     *               manager does: {@code controller.gatewayExpiry} reporting intervals); one that says
     *               {@code leave} is dropped at once
     */
    public LiveState(int maxPoints, Duration expiry, GatewayRoster roster, LongSupplier nanoClock) {
        this.maxPoints = maxPoints;
        this.expiryNanos = expiry.toNanos();
        this.roster = roster;
        this.nanoClock = nanoClock;
    }

    public void attach(ControlBus bus) {
        bus.whileLost("the console's live figures pause until it is back; edits are not delivered meanwhile");
        for (String topic : List.of(Topics.STATS, Topics.ALLOCATION, Topics.DECISION, Topics.HEARTBEAT_GATEWAY)) {
            bus.subscribeWithSender(topic, (m, account) -> accept(topic, m, account));
        }
    }

    /** Messages not believed: another kind than the topic carries, or about a gateway not joined from that account. */
    public long refused() {
        return refused.get();
    }

    /** Seconds a gateway may stay silent before it is dropped (the browser drops it after as long). */
    public double expirySeconds() {
        return expiryNanos / 1e9;
    }

    /** A message from {@code account} (the broker-stamped sender; null without authentication) on {@code topic}. */
    public void accept(String topic, BusMessage m, String account) {
        announceGone(expire(), "silent");
        List<String> left = new ArrayList<>();
        boolean taken = switch (topic) {
            case Topics.HEARTBEAT_GATEWAY -> m instanceof HeartbeatMessage h && "gateway".equals(h.role()) && onHeartbeat(h, account, left);
            case Topics.STATS -> m instanceof StatsMessage s && onStats(s, account);
            case Topics.ALLOCATION -> m instanceof AllocationMessage a && shows(a.version(), allocation == null ? 0 : allocation.version() + 1)
                    && set(() -> allocation = a);
            // a paused cycle's decision keeps the version of the last allocation: the same version may replace it
            case Topics.DECISION -> m instanceof DecisionMessage d && shows(d.version(), decision == null ? 0 : decision.version())
                    && set(() -> decision = d);
            default -> false;
        };
        announceGone(left, "left");
        if (taken && m instanceof HeartbeatMessage h) {
            beats.forEach(b -> b.accept(h));
        }
        if (!taken) {
            if (!(m instanceof HeartbeatMessage)) {
                refused.incrementAndGet();
            }
            return;
        }
        if (m instanceof HeartbeatMessage || listeners.isEmpty()) {
            return; // no browser watching: nothing to encode
        }
        String json = BusCodec.encode(m);
        for (Consumer<String> l : listeners) {
            l.accept(json);
        }
    }

    private static boolean set(Runnable r) {
        r.run();
        return true;
    }

    /**
     * Whether an allocation or decision of {@code version} may replace the one shown (it needs {@code atLeast}): never
     * an older one (a delayed one, after a newer), never one ahead of this clock by more than the bus allows (a forgery).
     */
    private static boolean shows(long version, long atLeast) {
        return version >= atLeast && AllocationVersions.plausible(version, System.currentTimeMillis());
    }

    /** A join or beat admits a gateway to the roster (as the manager does); a leave from its account drops it. */
    private synchronized boolean onHeartbeat(HeartbeatMessage h, String account, List<String> gone) {
        if (HeartbeatMessage.LEAVE.equals(h.event())) {
            if (roster.check(h.componentId(), account) != null) {
                refused.incrementAndGet();
                return false;
            }
            roster.leave(h.componentId());
            if (forget(h.componentId())) {
                gone.add(h.componentId());
            }
            return true;
        }
        if (roster.join(h.componentId(), account) != null) {
            refused.incrementAndGet();
            return false;
        }
        heardNanos.putIfAbsent(h.componentId(), nanoClock.getAsLong()); // expires like a silent one if no report follows
        credentials.put(h.componentId(), h.credentialsVersion());
        return true;
    }

    private synchronized boolean onStats(StatsMessage s, String account) {
        if (roster.check(s.gatewayId(), account) != null) {
            return false;
        }
        gateways.put(s.gatewayId(), s);
        heardNanos.put(s.gatewayId(), nanoClock.getAsLong());
        for (FlowStatsMessage f : s.flows()) {
            history.addLast(new Point(s.timestampMillis(), s.gatewayId(), f.className(), f.meanResponseSeconds(),
                    f.throughput(), f.rejectionRate(), f.queueLength(), f.weight()));
        }
        while (history.size() > maxPoints) {
            history.removeFirst();
        }
        return true;
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
                roster.leave(e.getKey()); // must join again, as with the manager
                credentials.remove(e.getKey());
                if (gateways.remove(e.getKey()) != null) {
                    gone.add(e.getKey());
                }
                return true;
            }
            return false;
        });
        return gone;
    }

    private synchronized boolean forget(String gatewayId) {
        heardNanos.remove(gatewayId);
        credentials.remove(gatewayId);
        return gateways.remove(gatewayId) != null;
    }

    /** Tells the browsers that a gateway is gone, so that its row and figures are not drawn as live. */
    private void announceGone(List<String> gone, String why) {
        for (String g : gone) {
            String json;
            try {
                json = JSON.writeValueAsString(Map.of("type", "gateway-gone", "gatewayId", g, "reason", why));
            } catch (JsonProcessingException e) {
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

    /** The live gateways that authenticate customers, each with the credentials version it applies. */
    public Map<String, Long> credentialsVersions() {
        announceGone(expire(), "silent");
        synchronized (this) {
            Map<String, Long> out = new TreeMap<>(credentials);
            out.values().removeIf(v -> v < 0);
            return out;
        }
    }

    /** Told every heartbeat of a gateway the console believes (after its own bookkeeping). */
    public void addHeartbeatListener(Consumer<HeartbeatMessage> l) {
        beats.add(l);
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
