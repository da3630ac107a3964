package io.slagate.config;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The {@code allocation:} section: the static weights and caps in force before any manager decides. */
final class AllocationSection {
    private AllocationSection() {
    }

    static StaticAllocation allocation(ConfigNode a, List<TrafficClassConfig> classes, List<ServerConfig> servers) {
        Set<String> classNames = new HashSet<>();
        classes.forEach(tc -> classNames.add(tc.name()));
        Map<String, Double> weights = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigNode> w : a.entries("weights").entrySet()) {
            if (!classNames.contains(w.getKey())) {
                a.child("weights").problem(w.getKey(), w.getKey(), "is not a configured class; classes: " + String.join(", ", ConfigLoader.sorted(classNames)));
                continue;
            }
            weights.put(w.getKey(), w.getValue().asNumber(1.0, 0.001, 1e9));
        }
        Map<String, ServerConfig> byId = new LinkedHashMap<>();
        servers.forEach(s -> byId.put(s.id(), s));
        Map<String, Integer> caps = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigNode> e : a.entries("caps").entrySet()) {
            ServerConfig s = byId.get(e.getKey());
            if (s == null) {
                a.child("caps").problem(e.getKey(), e.getKey(), "is not a configured server; servers: " + String.join(", ", ConfigLoader.sorted(byId.keySet())));
                continue;
            }
            double v = e.getValue().asNumber(s.concurrency(), 0, s.concurrency());
            if (v != Math.rint(v)) {
                a.child("caps").problem(e.getKey(), v, "must be a whole number (N_{g,s} counts requests)");
            }
            caps.put(e.getKey(), (int) v);
        }
        return new StaticAllocation(weights, caps);
    }
}
