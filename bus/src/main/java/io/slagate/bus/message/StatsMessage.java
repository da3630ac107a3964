package io.slagate.bus.message;

import java.util.List;

/**
 * A gateway's report of one reporting interval: statistics of every class over the sliding window,
 * the state of every server, and the version of the allocation it enforces. A report sent out of turn
 * because a class's arrivals surged names that class in {@code flashCrowd}: the resource
 * manager then runs a control cycle at once; otherwise it is null.
 */
public record StatsMessage(int schema, String gatewayId, long sequence, long timestampMillis, double windowSeconds,
                           long allocationVersion, List<FlowStatsMessage> flows, List<ServerStatusMessage> servers,
                           String flashCrowd)
        implements BusMessage {
    public StatsMessage {
        flows = List.copyOf(flows);
        servers = List.copyOf(servers);
        if (flashCrowd != null && flashCrowd.length() > 256) {
            flashCrowd = flashCrowd.substring(0, 256);
        }
    }

    public StatsMessage(int schema, String gatewayId, long sequence, long timestampMillis, double windowSeconds,
                        long allocationVersion, List<FlowStatsMessage> flows, List<ServerStatusMessage> servers) {
        this(schema, gatewayId, sequence, timestampMillis, windowSeconds, allocationVersion, flows, servers, null);
    }

    /** The same report, sent out of turn for a flash crowd of {@code className}. */
    public StatsMessage withFlashCrowd(String className) {
        return new StatsMessage(schema, gatewayId, sequence, timestampMillis, windowSeconds, allocationVersion, flows, servers,
                className);
    }
}
