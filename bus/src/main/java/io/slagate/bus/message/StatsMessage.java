package io.slagate.bus.message;

import java.util.List;
import java.util.Map;

/**
 * A gateway's report of one reporting interval: statistics of every class over the sliding window,
 * the state of every server, and the version of the allocation it enforces. A report sent out of turn
 * because a class's arrivals surged names that class in {@code flashCrowd}: the resource
 * manager then runs a control cycle at once; otherwise it is null. {@code quotaDemand}: per bucket key of
 * a subscription quota, the requests per second offered over the last reporting interval (admitted or
 * not), at most {@value #MAX_QUOTA_DEMAND} keys. {@code sla}: the gateway's running totals toward its classes' objectives
 * (null: none to report).
 */
public record StatsMessage(int schema, String gatewayId, long sequence, long timestampMillis, double windowSeconds,
                           long allocationVersion, List<FlowStatsMessage> flows, List<ServerStatusMessage> servers,
                           String flashCrowd, Map<String, Double> quotaDemand, SlaTally sla)
        implements BusMessage {
    public static final int MAX_QUOTA_DEMAND = 1_000;

    public StatsMessage {
        flows = List.copyOf(flows);
        servers = List.copyOf(servers);
        quotaDemand = quotaDemand == null ? Map.of() : Map.copyOf(quotaDemand);
        if (quotaDemand.size() > MAX_QUOTA_DEMAND) {
            throw new IllegalArgumentException("quotaDemand: " + quotaDemand.size() + " keys, at most " + MAX_QUOTA_DEMAND);
        }
        if (flashCrowd != null && flashCrowd.length() > 256) {
            flashCrowd = flashCrowd.substring(0, 256);
        }
    }

    public StatsMessage(int schema, String gatewayId, long sequence, long timestampMillis, double windowSeconds,
                        long allocationVersion, List<FlowStatsMessage> flows, List<ServerStatusMessage> servers,
                        String flashCrowd, Map<String, Double> quotaDemand) {
        this(schema, gatewayId, sequence, timestampMillis, windowSeconds, allocationVersion, flows, servers, flashCrowd, quotaDemand,
                null);
    }

    public StatsMessage(int schema, String gatewayId, long sequence, long timestampMillis, double windowSeconds,
                        long allocationVersion, List<FlowStatsMessage> flows, List<ServerStatusMessage> servers) {
        this(schema, gatewayId, sequence, timestampMillis, windowSeconds, allocationVersion, flows, servers, null, Map.of());
    }

    public StatsMessage(int schema, String gatewayId, long sequence, long timestampMillis, double windowSeconds,
                        long allocationVersion, List<FlowStatsMessage> flows, List<ServerStatusMessage> servers, String flashCrowd) {
        this(schema, gatewayId, sequence, timestampMillis, windowSeconds, allocationVersion, flows, servers, flashCrowd, Map.of());
    }

    /** The same report, sent out of turn for a flash crowd of {@code className}. */
    public StatsMessage withFlashCrowd(String className) {
        return new StatsMessage(schema, gatewayId, sequence, timestampMillis, windowSeconds, allocationVersion, flows, servers,
                className, quotaDemand, sla);
    }

    /** The same report with the quota demand of the last interval. */
    public StatsMessage withQuotaDemand(Map<String, Double> demand) {
        return new StatsMessage(schema, gatewayId, sequence, timestampMillis, windowSeconds, allocationVersion, flows, servers,
                flashCrowd, demand, sla);
    }

    /** The same report with the gateway's SLA totals. */
    public StatsMessage withSla(SlaTally tally) {
        return new StatsMessage(schema, gatewayId, sequence, timestampMillis, windowSeconds, allocationVersion, flows, servers,
                flashCrowd, quotaDemand, tally);
    }
}
