package io.slagate.config;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Checks that span sections: pools named by one section and defined by another, tuning windows against the statistics. */
final class CrossChecks {
    private CrossChecks() {
    }

    /**
     * The window knob spans whole reporting intervals of the windows the gateways hold (the configured one: it can only
     * shorten it), and each trial's settle must outlast its longest value, or a period would measure the previous
     * setting's answers.
     */
    static void windowKnobs(ConfigNode top, StatsSettings stats, List<TuningSettings> tuning) {
        double interval = stats.reportingInterval().toNanos() / 1e9;
        double window = stats.window().toNanos() / 1e9;
        for (TuningSettings t : tuning) {
            String at = TuningSettings.DEFAULT.equals(t.partition()) ? "controller.tuning" : "controller.tuning.partitions." + t.partition();
            for (int i = 0; i < t.knobs().size(); i++) {
                TuningSettings.Knob k = t.knobs().get(i);
                if (!k.controller() || !k.name().equals("window")) {
                    continue;
                }
                if (k.min() < interval || k.max() > window) {
                    top.problem(at + ".knobs[" + i + "].max", k.max(), String.format(Locale.ROOT, "the bounds [%s, %s] leave what the "
                            + "gateways hold: from one reportingInterval (%s s) to the configured gateway.stats.window (%s s), which the "
                            + "knob can only shorten", k.min(), k.max(), interval, window));
                } else if (t.settle().toNanos() / 1e9 < k.max()) {
                    top.problem(at + ".settle", t.settle(), String.format(Locale.ROOT, "is shorter than the window knob's largest value"
                            + " (%s s): a trial's period would measure the previous setting's answers", k.max()));
                }
            }
        }
    }

    static void crossCheck(ConfigNode top, List<ServerConfig> servers, List<TrafficClassConfig> classes,
                                   GatewaySettings gateway, ControllerSettings controller) {
        windowKnobs(top, gateway.stats(), controller.tuning());
        Set<String> pools = new HashSet<>();
        servers.forEach(s -> pools.add(s.pool()));
        String known = String.join(", ", ConfigLoader.sorted(pools));
        for (int i = 0; i < servers.size(); i++) {
            for (String p : servers.get(i).pools()) {
                if (!pools.contains(p)) {
                    top.problem("servers[" + i + "].pools", p, "is not a pool (no server starts in it); pools: " + known);
                }
            }
        }
        for (String p : gateway.upstream().perPool().keySet()) {
            if (!pools.contains(p)) {
                top.problem("gateway.upstreamReuse." + p, gateway.upstream().perPool().get(p).text(),
                        "names no pool with servers; pools: " + known + " (or default)");
            }
        }
        tuningPartitions(top, classes, controller.tuning(), pools);
        for (Map.Entry<String, Integer> m : controller.reconfiguration().minServers().entrySet()) {
            long size = servers.stream().filter(s -> s.pool().equals(m.getKey())).count();
            if (!pools.contains(m.getKey())) {
                top.problem("controller.reconfiguration.minServers." + m.getKey(), m.getValue(), "names no pool; pools: " + known);
            } else if (m.getValue() > size) {
                top.problem("controller.reconfiguration.minServers." + m.getKey(), m.getValue(), "is above the pool's "
                        + size + " server(s) at start");
            }
        }
        for (String p : gateway.locality().pools().keySet()) {
            if (!servers.isEmpty() && !pools.contains(p)) {
                top.problem("gateway.loadBalancing." + p, gateway.locality().pools().get(p).configName(),
                        "names a pool with no server; pools with servers: " + known + " (or default)");
            }
        }
        for (int i = 0; i < classes.size(); i++) {
            TrafficClassConfig c = classes.get(i);
            if (c.pool() != null && !servers.isEmpty() && !pools.contains(c.pool())) {
                top.problem("classes[" + i + "].pool", c.pool(), "has no server; pools with servers: " + known);
            }
        }
    }

    /**
     * The tuning partitions against the pools and classes: each names pools with servers, no pool is in
     * two partitions (two tuners must not share servers), at most one is interleaved (the controller's
     * knobs are global), and its twins are classes of its safe and experimental pools.
     */
    private static void tuningPartitions(ConfigNode top, List<TrafficClassConfig> classes, List<TuningSettings> partitions,
                                         Set<String> pools) {
        Map<String, String> poolOwner = new HashMap<>(); // pool → the partition that tunes it
        String interleavedOwner = null;
        for (TuningSettings tuning : partitions) {
            String at = TuningSettings.DEFAULT.equals(tuning.partition()) ? "controller.tuning." : "controller.tuning.partitions."
                    + tuning.partition() + ".";
            if (tuning.interleaved() && interleavedOwner != null) {
                top.problem(at + "interleaved", true, "partition " + interleavedOwner + " is interleaved already: the controller's "
                        + "knobs are global, so one partition tunes them");
            } else if (tuning.interleaved()) {
                interleavedOwner = tuning.partition();
            }
            for (String p : new String[] {tuning.safePool(), tuning.experimentalPool()}) {
                String key = at + (p != null && p.equals(tuning.safePool()) ? "safe" : "experimental");
                if (p != null && !pools.contains(p)) {
                    top.problem(key, p, "is not a pool with servers; pools: " + String.join(", ", ConfigLoader.sorted(pools)));
                }
                String other = p == null ? null : poolOwner.putIfAbsent(p, tuning.partition());
                if (other != null && !other.equals(tuning.partition())) {
                    top.problem(key, p, "is already tuned by partition " + other + ": partitions are independent work lines,"
                            + " so no pool may be in two");
                }
            }
            if (tuning.safePool() != null && tuning.safePool().equals(tuning.experimentalPool())) {
                top.problem(at + "experimental", tuning.experimentalPool(), "must differ from the safe pool");
            }
            twins(top, classes, tuning, at);
        }
    }

    private static void twins(ConfigNode top, List<TrafficClassConfig> classes, TuningSettings tuning, String at) {
        for (Map.Entry<String, String> tw : tuning.twins().entrySet()) {
            TrafficClassConfig safe = classes.stream().filter(x -> x.name().equals(tw.getKey())).findFirst().orElse(null);
            TrafficClassConfig twin = classes.stream().filter(x -> x.name().equals(tw.getValue())).findFirst().orElse(null);
            if (safe == null || !safe.pool().equals(tuning.safePool())) {
                top.problem(at + "twins." + tw.getKey(), tw.getKey(), "must be a class of the safe pool " + tuning.safePool());
            }
            if (twin == null || !twin.pool().equals(tuning.experimentalPool())) {
                top.problem(at + "twins." + tw.getKey(), tw.getValue(), "must be a class of the experimental pool "
                        + tuning.experimentalPool());
            }
        }
    }

    /** Each class's {@code gradeObjectives} name grades that customers can have: in a subscription, a rule or the default. */
    static void objectiveGrades(ConfigNode top, List<TrafficClassConfig> classes, ClassificationConfig classification) {
        Set<String> grades = new HashSet<>();
        grades.add(classification.defaultGrade());
        classification.subscriptions().values().forEach(m -> grades.addAll(m.values()));
        classification.rules().forEach(r -> grades.add(r.grade()));
        classification.gradeQuotas().keySet().forEach(grades::add);
        grades.remove(null);
        for (int i = 0; i < classes.size(); i++) {
            SlaObjective o = classes.get(i).objective();
            if (o == null) {
                continue;
            }
            for (String g : o.grades().keySet()) {
                if (!grades.contains(g)) {
                    top.problem("classes[" + i + "].gradeObjectives." + g, SlaObjective.percentText(o.grades().get(g)),
                            "names a grade no subscription, rule or defaultGrade gives; grades: " + String.join(", ", ConfigLoader.sorted(grades)));
                }
            }
        }
    }
}
