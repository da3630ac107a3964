package io.slagate.rm;

import io.slagate.config.Combining;
import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.config.utility.UtilityFunctions;
import io.slagate.rm.model.ResponseTimeModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the configuration in force fixes for every cycle, worked out once: the response-time model, each class's goals
 * and whether its utility is concave in the share, the classes of each pool, each server's pool, and how many control
 * cycles a statistics window spans. Immutable.
 */
final class ControlSetup {
    final SlagateConfig config;
    final ResponseTimeModel model;
    private final ClassGoals[] goals;
    private final boolean[] concave;
    /** Control cycles one statistics window spans: consecutive cycles' measurements share that many windows' answers. */
    final int windowCycles;
    private final Map<String, List<Integer>> classesOfPool;
    private final Map<String, String> poolOfServer = new HashMap<>();
    private final Map<String, List<ServerConfig>> serversOfPool = new HashMap<>();
    private final Map<String, Integer> classIndex = new HashMap<>();

    ControlSetup(SlagateConfig config) {
        this.config = config;
        this.model = ResponseTimeModel.named(config.controller().model());
        List<TrafficClassConfig> classes = config.classes();
        goals = new ClassGoals[classes.size()];
        concave = new boolean[classes.size()];
        Map<String, List<Integer>> byPool = new LinkedHashMap<>();
        for (int c = 0; c < classes.size(); c++) {
            TrafficClassConfig tc = classes.get(c);
            goals[c] = new ClassGoals(tc);
            // a percentile's curve in w is not known to be convex: such a class takes the exact search
            concave[c] = tc.percentileGoal() == null
                    && UtilityFunctions.provider(tc.utility().type()).concaveNonIncreasing(tc.utility().parameters());
            byPool.computeIfAbsent(tc.pool(), p -> new ArrayList<>()).add(c);
            classIndex.putIfAbsent(tc.name(), c);
        }
        byPool.replaceAll((p, cs) -> List.copyOf(cs));
        classesOfPool = Collections.unmodifiableMap(byPool);
        for (ServerConfig sc : config.servers()) {
            poolOfServer.put(sc.id(), sc.pool());
            serversOfPool.computeIfAbsent(sc.pool(), p -> new ArrayList<>()).add(sc);
        }
        serversOfPool.replaceAll((p, ss) -> List.copyOf(ss));
        windowCycles = (int) Math.max(1, Math.ceil(config.gateway().stats().window().toNanos()
                / (double) config.controller().cycle().toNanos()));
    }

    ClassGoals goals(int c) {
        return goals[c];
    }

    boolean concave(int c) {
        return concave[c];
    }

    TrafficClassConfig cls(int c) {
        return config.classes().get(c);
    }

    int classCount() {
        return goals.length;
    }

    /** The class's index by name, or −1. */
    int classIndex(String name) {
        Integer c = classIndex.get(name);
        return c == null ? -1 : c;
    }

    /** The pool of server {@code id}, null for a server not configured. */
    String poolOf(String serverId) {
        return poolOfServer.get(serverId);
    }

    /** Each pool with classes, in the classes' order, with its classes' indexes. */
    Map<String, List<Integer>> classesOfPool() {
        return classesOfPool;
    }

    /** The pools whose allocation includes class {@code name} (none for a class not configured). */
    List<String> poolsOfClass(String name) {
        int c = classIndex(name);
        return classesOfPool.entrySet().stream().filter(e -> e.getValue().contains(c)).map(Map.Entry::getKey).toList();
    }

    /** The servers serving {@code pool}, in configuration order. */
    List<ServerConfig> serversOf(String pool) {
        return serversOfPool.getOrDefault(pool, List.of());
    }

    double resolution() {
        return config.controller().resolution();
    }

    boolean byMin() {
        return config.controller().combining() == Combining.MIN;
    }

    /** The configured static weight of class {@code c} (used while a pool has no traffic). */
    double staticWeight(int c) {
        return config.allocation().weights().getOrDefault(cls(c).name(), 1.0);
    }

    /** Whether the pool's classes use importance levels or a discretionary class (else the paper's single objective). */
    boolean tiered(List<Integer> poolClasses) {
        Set<Integer> levels = new HashSet<>();
        for (int c : poolClasses) {
            if (cls(c).discretionary()) {
                return true;
            }
            levels.add(cls(c).importance());
        }
        return levels.size() > 1;
    }

    /** Combines two utilities as the configuration says: their minimum, or their sum. */
    double combine(double a, double b) {
        return byMin() ? Math.min(a, b) : a + b;
    }

    /** The neutral start of {@link #combine}. */
    double combineStart() {
        return byMin() ? Double.POSITIVE_INFINITY : 0;
    }
}
