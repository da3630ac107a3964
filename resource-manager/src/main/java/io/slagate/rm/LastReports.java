package io.slagate.rm;

import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.StatsMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The gateways the manager decides for, each with its last report: a report replaces the gateway's previous one, a
 * join adds a gateway with none, a leave or a silence longer than the expiry removes it. The only mutable view of
 * the reports; each cycle reads an immutable {@link CycleInput} taken from it. The control loop's thread only.
 */
final class LastReports {
    private final Map<String, GatewayReport> byGateway = new TreeMap<>();

    void report(StatsMessage stats, long nowNanos) {
        report(stats, nowNanos, Map.of(), Set.of());
    }

    /**
     * A report whose classes named in {@code spans} were estimated over that many seconds, not the window, those in
     * {@code fell} from arrivals that fell at their change.
     */
    void report(StatsMessage stats, long nowNanos, Map<String, Double> spans, Set<String> fell) {
        byGateway.put(stats.gatewayId(), new GatewayReport(stats, nowNanos, spans, fell));
    }

    void join(String gatewayId, long nowNanos) {
        byGateway.computeIfAbsent(gatewayId, g -> new GatewayReport(null, nowNanos));
    }

    void leave(String gatewayId) {
        byGateway.remove(gatewayId);
    }

    /** Removes every gateway unheard for more than {@code limitNanos}; returns their ids. */
    List<String> expire(long nowNanos, long limitNanos) {
        List<String> gone = new ArrayList<>();
        byGateway.entrySet().removeIf(e -> {
            boolean silent = nowNanos - e.getValue().heardNanos() > limitNanos;
            if (silent) {
                gone.add(e.getKey());
            }
            return silent;
        });
        return gone;
    }

    List<String> gateways() {
        return new ArrayList<>(byGateway.keySet());
    }

    /** The reports as they stand now, with the allocation in force, for one cycle. */
    CycleInput input(long nowNanos, AllocationMessage inForce) {
        return new CycleInput(nowNanos, new TreeMap<>(byGateway), inForce);
    }

    /** The statistics of every gateway that has reported, in gateway order. */
    List<StatsMessage> stats() {
        List<StatsMessage> out = new ArrayList<>(byGateway.size());
        byGateway.values().forEach(r -> {
            if (r.reported()) {
                out.add(r.stats());
            }
        });
        return out;
    }

    /** What the reports say of each server now. */
    GatewayReports servers() {
        return new GatewayReports(byGateway.values());
    }

    /** Takes over {@code other}'s gateways and reports (a manager reconfigured keeps what it heard). */
    void keep(LastReports other) {
        byGateway.putAll(other.byGateway);
    }
}
