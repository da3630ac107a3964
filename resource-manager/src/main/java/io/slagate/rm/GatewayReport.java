package io.slagate.rm;

import io.slagate.bus.message.StatsMessage;
import java.util.Map;
import java.util.Set;

/**
 * A gateway's last report as the manager heard it: its statistics (null while it has joined and not reported yet)
 * and when they arrived on the manager's clock; {@code spans}: per class whose figures are the intervals since a
 * change rather than the window ({@link ChangePoints}), the seconds they span; {@code fell}: those of them whose
 * arrivals fell at the change.
 */
record GatewayReport(StatsMessage stats, long heardNanos, Map<String, Double> spans, Set<String> fell) {
    GatewayReport {
        spans = Map.copyOf(spans);
        fell = Set.copyOf(fell);
    }

    GatewayReport(StatsMessage stats, long heardNanos) {
        this(stats, heardNanos, Map.of(), Set.of());
    }

    /** The seconds class {@code className}'s figures span: the report's window, or the intervals since its change. */
    double windowSeconds(String className) {
        return spans.getOrDefault(className, stats.windowSeconds());
    }

    boolean reported() {
        return stats != null;
    }
}
