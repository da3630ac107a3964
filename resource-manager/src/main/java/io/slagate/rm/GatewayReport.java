package io.slagate.rm;

import io.slagate.bus.message.StatsMessage;

/**
 * A gateway's last report as the manager heard it: its statistics (null while it has joined and not reported yet)
 * and when they arrived on the manager's clock.
 */
record GatewayReport(StatsMessage stats, long heardNanos) {
    boolean reported() {
        return stats != null;
    }
}
