package io.slagate.bus.message;

import java.util.List;

/**
 * A gateway's report of one reporting interval: statistics of every class over the sliding window,
 * the state of every server, and the version of the allocation it enforces.
 */
public record StatsMessage(int schema, String gatewayId, long sequence, long timestampMillis, double windowSeconds,
                           long allocationVersion, List<FlowStatsMessage> flows, List<ServerStatusMessage> servers)
        implements BusMessage {
    public StatsMessage {
        flows = List.copyOf(flows);
        servers = List.copyOf(servers);
    }
}
