package io.slagate.gateway;

import io.slagate.config.SlagateConfig;
import io.slagate.gateway.control.FlashCrowdWatch;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.quota.Quotas;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.stats.GatewayMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code /stats} shows of the configuration in force: the counters' balance, the allocation
 * (weights, caps, the queue timeouts and statistics window the manager set), each class's windowed
 * statistics, the flash-crowd alarms, the resource manager's capacity line per pool and the locality groups.
 */
final class StatsView {
    private StatsView() {
    }

    static Map<String, Object> of(SlagateConfig config, QueueManager queues, GatewayMetrics metrics, FlashCrowdWatch flashCrowd,
                                  List<Map<String, Object>> capacity, Quotas quotas) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("gateway", config.gateway().id());
        m.put("inFlight", metrics.inFlight());
        m.put("arrived", metrics.totals().arrived());
        m.put("completed", metrics.totals().completed());
        m.put("faulted", metrics.totals().faulted());
        Allocation a = queues.caps().allocation();
        Map<String, Object> alloc = new LinkedHashMap<>();
        alloc.put("version", a.version());
        Map<String, Double> w = new LinkedHashMap<>();
        for (int c = 0; c < a.classCount(); c++) {
            w.put(config.classes().get(c).name(), a.weight(c));
        }
        Map<String, Object> n = new LinkedHashMap<>();
        for (int s = 0; s < a.serverCount(); s++) {
            Map<String, Object> srv = new LinkedHashMap<>();
            srv.put("cap", a.cap(s));
            srv.put("outstanding", queues.server(s).outstanding());
            srv.put("inRotation", queues.server(s).inRotation());
            n.put(config.servers().get(s).id(), srv);
        }
        alloc.put("weights", w);
        alloc.put("servers", n);
        Map<String, Object> timeouts = new LinkedHashMap<>(); // the classes whose queue timeout the manager's tuner set
        for (int c = 0; c < config.classes().size(); c++) {
            double inForce = queues.timeouts().nanos(c) / 1e9;
            double configured = config.classes().get(c).queueTimeout().toNanos() / 1e9;
            if (inForce != configured) {
                timeouts.put(config.classes().get(c).name(), Map.of("seconds", inForce, "configured", configured));
            }
        }
        alloc.put("queueTimeouts", timeouts);
        alloc.put("statsWindow", Map.of("seconds", metrics.windowIntervals() * metrics.intervalSeconds(),
                "configured", metrics.configuredWindowIntervals() * metrics.intervalSeconds()));
        m.put("allocation", alloc);
        m.put("classes", metrics.flowStats(queues));
        if (config.gateway().flashCrowd() != null) {
            m.put("flashCrowd", flashCrowd.view(config, queues));
        }
        if (!capacity.isEmpty()) {
            m.put("capacity", capacity);
        }
        List<Map<String, Object>> locality = queues.pools().localityStats();
        if (!locality.isEmpty()) {
            m.put("locality", locality);
        }
        if (quotas.any()) {
            m.put("quotas", quotas.view());
        }
        return m;
    }
}
