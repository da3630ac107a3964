package io.slagate.gateway.agent;

import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.stats.FlowStats;
import io.slagate.gateway.stats.GatewayMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One reporting interval's statistics message, as a gateway sends it to the managers: per class its windowed
 * flow and the weight in force, per server that is not idle its cap in force, load and measured service. The
 * gateway's agent publishes it on the bus; the twin hands it to its manager in virtual time.
 */
public final class StatsReport {
    private StatsReport() {
    }

    /**
     * @param stats        the classes' windowed statistics, in the configuration's class order
     * @param quotaDemand  per customer the demand its quota saw over the interval (may be empty)
     */
    public static StatsMessage of(String gatewayId, long sequence, long timestampMillis, SlagateConfig config, QueueManager q,
                                  GatewayMetrics metrics, List<FlowStats> stats, Map<String, Double> quotaDemand) {
        Allocation a = q.caps().allocation();
        List<FlowStatsMessage> flows = new ArrayList<>(stats.size());
        double window = 0;
        for (int c = 0; c < stats.size(); c++) {
            FlowStats f = stats.get(c);
            window = f.windowSeconds();
            flows.add(new FlowStatsMessage(f.className(), f.arrivalRate(), f.throughput(), f.rejectionRate(),
                    f.meanResponseSeconds(), f.meanQueueingSeconds(), f.meanServiceSeconds(), f.queueLength(),
                    f.outstanding(), a.weight(c), f.attainment(), f.percentileSeconds(), f.failureRate(), interval(f.last())));
        }
        List<ServerStatusMessage> servers = new ArrayList<>(q.serverCount());
        for (int s = 0; s < q.serverCount(); s++) {
            double[] measured = metrics.servers().window(s);
            // the cap in force here: below the allocation's while a local limit holds the server
            ServerStatusMessage st = new ServerStatusMessage(config.servers().get(s).id(), q.caps().effectiveCap(s), q.server(s).outstanding(),
                    q.server(s).inRotation(), measured[0], measured[1], q.caps().effectiveCap(s) < a.cap(s), q.pools().localityGroupOf(s),
                    config.servers().get(s).movable() ? q.pools().servingPool(s) : null, q.pools().refusedPool(s));
            if (!st.idle()) {
                servers.add(st); // an idle server goes without saying (ServerStatusMessage.idle)
            }
        }
        return new StatsMessage(BusMessage.SCHEMA, gatewayId, sequence, timestampMillis, window, a.version(), flows, servers, null,
                quotaDemand);
    }

    private static FlowStatsMessage.Interval interval(FlowStats.Interval i) {
        return i == null ? null : new FlowStatsMessage.Interval(i.seconds(), i.arrivals(), i.completions(), i.rejections(),
                i.meanResponseSeconds(), i.meanQueueingSeconds(), i.meanServiceSeconds());
    }
}
