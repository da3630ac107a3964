package io.slagate.rm;

import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.bus.message.StatsMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;

/**
 * What one control cycle decides from, fixed when the cycle starts: the time, each gateway's last report (by id,
 * sorted) and the allocation in force. Nothing the cycle does changes it; a report that arrives during the cycle
 * counts from the next one.
 *
 * <p>{@code inForce} is the last allocation published, null before the first.
 */
final class CycleInput {
    private final long nowNanos;
    private final SortedMap<String, GatewayReport> reports;
    private final AllocationMessage inForce;
    /** What the reports say of each server, read once for the cycle. */
    private final GatewayReports servers;

    /** @param reports a copy the caller gives up: it is not copied again */
    CycleInput(long nowNanos, SortedMap<String, GatewayReport> reports, AllocationMessage inForce) {
        this.nowNanos = nowNanos;
        this.reports = Collections.unmodifiableSortedMap(reports);
        this.inForce = inForce;
        this.servers = new GatewayReports(reports.values());
    }

    long nowNanos() {
        return nowNanos;
    }

    SortedMap<String, GatewayReport> reports() {
        return reports;
    }

    AllocationMessage inForce() {
        return inForce;
    }

    GatewayReports servers() {
        return servers;
    }

    List<String> gateways() {
        return new ArrayList<>(reports.keySet());
    }

    boolean knows(String gatewayId) {
        return reports.containsKey(gatewayId);
    }

    /** Gateway {@code g}'s statistics, null when it has not reported (or is not known). */
    StatsMessage stats(String g) {
        GatewayReport r = reports.get(g);
        return r == null ? null : r.stats();
    }

    /** The statistics of every gateway that has reported, in gateway order. */
    List<StatsMessage> allStats() {
        List<StatsMessage> out = new ArrayList<>(reports.size());
        reports.values().forEach(r -> {
            if (r.reported()) {
                out.add(r.stats());
            }
        });
        return out;
    }

    /** The statistics window gateway {@code g} last reported (its rates are means over it); NaN when unknown. */
    double windowSeconds(String g) {
        StatsMessage s = stats(g);
        return s == null ? Double.NaN : s.windowSeconds();
    }

    /** The weight of class {@code className} at gateway {@code g} in the allocation in force, or null when there is none. */
    Double weightInForce(String g, String className) {
        GatewayAllocation a = inForce == null ? null : inForce.gateways().get(g);
        Double w = a == null ? null : a.weights().get(className);
        return w != null && Double.isFinite(w) ? w : null;
    }
}
