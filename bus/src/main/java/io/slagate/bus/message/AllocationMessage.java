package io.slagate.bus.message;

import java.util.List;
import java.util.Map;

/**
 * The resource manager's decision for one control cycle: per gateway, the shares and caps it must
 * enforce. Versions increase; a gateway ignores a version not newer than the one it holds.
 *
 * @param managerId          the resource manager that decided (with a standby, only the active one publishes)
 * @param serverPools        the pool each movable server serves under this allocation (the reconfiguration), by id
 * @param queueTimeoutMillis the queue timeout of each class the manager's tuner set (the queueTimeout knob), by
 *                           class name; a class not named keeps its configured timeout
 * @param statsWindowMillis  the gateways' statistics window the manager's tuner set (the window knob); 0: the
 *                           configured one
 * @param capacity           per pool, the capacity signal (what each gateway shows on {@code /stats}); one line a pool
 */
public record AllocationMessage(int schema, long version, long timestampMillis, String managerId,
                                Map<String, GatewayAllocation> gateways, Map<String, String> serverPools,
                                Map<String, Long> queueTimeoutMillis, long statsWindowMillis,
                                List<DecisionMessage.PoolCapacity> capacity) implements BusMessage {
    public AllocationMessage {
        gateways = Map.copyOf(gateways);
        serverPools = serverPools == null ? Map.of() : Map.copyOf(serverPools);
        queueTimeoutMillis = queueTimeoutMillis == null ? Map.of() : Map.copyOf(queueTimeoutMillis);
        capacity = capacity == null ? List.of() : List.copyOf(capacity);
    }

    public AllocationMessage(int schema, long version, long timestampMillis, String managerId, Map<String, GatewayAllocation> gateways,
                             Map<String, String> serverPools, Map<String, Long> queueTimeoutMillis, long statsWindowMillis) {
        this(schema, version, timestampMillis, managerId, gateways, serverPools, queueTimeoutMillis, statsWindowMillis, List.of());
    }

    public AllocationMessage(int schema, long version, long timestampMillis, String managerId, Map<String, GatewayAllocation> gateways,
                             Map<String, String> serverPools, Map<String, Long> queueTimeoutMillis) {
        this(schema, version, timestampMillis, managerId, gateways, serverPools, queueTimeoutMillis, 0);
    }

    public AllocationMessage(int schema, long version, long timestampMillis, String managerId, Map<String, GatewayAllocation> gateways,
                             Map<String, String> serverPools) {
        this(schema, version, timestampMillis, managerId, gateways, serverPools, Map.of(), 0);
    }

    public AllocationMessage(int schema, long version, long timestampMillis, String managerId, Map<String, GatewayAllocation> gateways) {
        this(schema, version, timestampMillis, managerId, gateways, Map.of(), Map.of(), 0);
    }

    /** What gateway {@code gatewayId} is sent: this allocation with its own part only (none when it has none). */
    public AllocationMessage forGateway(String gatewayId) {
        GatewayAllocation own = gateways.get(gatewayId);
        return new AllocationMessage(schema, version, timestampMillis, managerId, own == null ? Map.of() : Map.of(gatewayId, own),
                serverPools, queueTimeoutMillis, statsWindowMillis, capacity);
    }

    /** This allocation without the gateways' parts: what the console and standby managers are sent. */
    public AllocationMessage summary() {
        return new AllocationMessage(schema, version, timestampMillis, managerId, Map.of(), serverPools, queueTimeoutMillis,
                statsWindowMillis, capacity);
    }
}
