package io.slagate.rm;

import io.slagate.bus.message.StatsMessage;
import java.util.Map;

/**
 * A gateway's last report as the manager heard it: its statistics (null while it has joined and not reported yet)
 * and when they arrived on the manager's clock; {@code spans}: per class whose figures are the intervals since a
 * change rather than the window ({@link ChangePoints}), the seconds they span.
 */
record GatewayReport(StatsMessage stats, long heardNanos, Map<String, Double> spans) {
    GatewayReport {
        spans = Map.copyOf(spans);
    }

    GatewayReport(StatsMessage stats, long heardNanos) {
        this(stats, heardNanos, Map.of());
    }

    /** The seconds class {@code className}'s figures span: the report's window, or the intervals since its change. */
    double windowSeconds(String className) {
        return spans.getOrDefault(className, stats.windowSeconds());
    }

    boolean reported() {
        return stats != null;
    }
}
