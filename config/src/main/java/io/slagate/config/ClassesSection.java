package io.slagate.config;

import io.slagate.config.utility.UtilityFunctionProvider;
import io.slagate.config.utility.UtilityFunctions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The {@code classes:} section: each class's goal (mean, percentile or deadline), utility and queue. */
final class ClassesSection {
    private ClassesSection() {
    }

    static List<TrafficClassConfig> classes(ConfigNode top) {
        List<TrafficClassConfig> out = new ArrayList<>();
        List<ConfigNode> list = top.list("classes");
        if (list.isEmpty() && !top.problemAlreadyAt("classes")) {
            top.missing("classes", "at least one traffic class is required: - {name: basic, target: 3s}");
        }
        Set<String> names = new HashSet<>();
        String[] discretionaryName = {null}; // at most one class is discretionary
        for (ConfigNode c : list) {
            out.add(trafficClass(c, names, discretionaryName));
        }
        return out;
    }

    /** One class: its name (unique), its goal (a mean, a percentile, both, or none if discretionary), its utility and its queue. */
    private static TrafficClassConfig trafficClass(ConfigNode c, Set<String> names, String[] discretionaryName) {
        String name = c.requiredString("name");
        if (name != null && !ConfigLoader.NAME.matcher(name).matches()) {
            c.problem("name", name, "must be 1-64 letters, digits, '.', '_' or '-'");
        } else if (name != null && !names.add(name)) {
            c.problem("name", name, "is used by another class; class names must be unique");
        }
        PercentileGoal percentile = percentileGoal(c);
        boolean discretionary = c.bool("discretionary", false);
        int importance = c.integer("importance", 0, -1000, 1000);
        if (discretionary) {
            if (!discretionaryAllowed(c, percentile, importance, discretionaryName[0])) {
                percentile = null;
            }
            discretionaryName[0] = name;
        } else if (c.child("target").isMissing() && percentile == null) {
            c.missing("target", "a goal is required: a mean target (target: 2s), a percentile goal (p95: 300ms) or both"
                    + " (or discretionary: true for a class without one)");
        }
        Duration target = discretionary || (c.child("target").isMissing() && percentile != null) ? null
                : c.duration("target", null, Duration.ofMillis(1), ConfigLoader.MAX_TIMEOUT);
        if (target == null && !discretionary && percentile == null) {
            target = Duration.ofSeconds(1); // missing or refused, and said so: a placeholder so that the rest is still checked
        }
        List<Duration> thresholds = new ArrayList<>(); // the same function rates each goal against its threshold (none: none)
        if (target != null) {
            thresholds.add(target);
        }
        if (percentile != null) {
            thresholds.add(percentile.target());
        }
        UtilityConfig utility = utility(c.object("utility"), thresholds);
        int bound = c.integer("queueBound", 1000, 0, 1_000_000);
        Duration timeout = c.duration("queueTimeout", Duration.ofSeconds(30), ConfigLoader.MIN_QUEUE_TIMEOUT, ConfigLoader.MAX_TIMEOUT);
        String pool = c.string("pool", "default");
        if (pool != null && !ConfigLoader.NAME.matcher(pool).matches()) {
            c.problem("pool", pool, "must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        String fairness = c.string("fairness", "customers");
        if (fairness != null && !fairness.equals("customers") && !fairness.equals("none")) {
            c.problem("fairness", fairness, "is not allowed; use one of: customers (a lane per customer, served in turn), none (one FIFO)");
        }
        int customerBound = c.integer("customerQueueBound", bound, 1, 1_000_000);
        if (customerBound > bound && !c.child("customerQueueBound").isMissing()) {
            c.problem("customerQueueBound", customerBound, "must not exceed queueBound (" + bound + ")");
        }
        Duration deadline = c.child("deadline").isMissing() ? null
                : c.duration("deadline", null, Duration.ofMillis(1), ConfigLoader.MAX_TIMEOUT);
        SlaObjective objective = ObjectiveSection.objective(c, discretionary);
        return new TrafficClassConfig(name, target, utility, bound, timeout, pool, !"none".equals(fairness),
                Math.min(customerBound, Math.max(bound, 1)), deadline, percentile, discretionary ? 0 : importance, discretionary,
                objective);
    }

    /**
     * The discretionary class has no goal and comes after every importance level; at most one class is
     * discretionary. Returns false when it was given a goal (reported; the goal is dropped).
     */
    private static boolean discretionaryAllowed(ConfigNode c, PercentileGoal percentile, int importance, String otherDiscretionary) {
        boolean noGoal = true;
        if (!c.child("target").isMissing() || percentile != null) {
            c.problem(percentile != null ? percentile.key() : "target", "a goal",
                    "is not allowed on the discretionary class: it has no goal and gets what the classes with goals leave");
            noGoal = false;
        }
        if (!c.child("importance").isMissing()) {
            c.problem("importance", importance, "is not allowed on the discretionary class: it always comes after every level");
        }
        if (otherDiscretionary != null) {
            c.problem("discretionary", true, "is set on " + otherDiscretionary + " already; at most one class is discretionary");
        }
        return noGoal;
    }

    /** The class's percentile goal, or null; at most one per class, its percentile in (0, 100). */
    static PercentileGoal percentileGoal(ConfigNode c) {
        PercentileGoal goal = null;
        for (String key : c.keysMatching(ConfigLoader.PERCENTILE_KEY, "pNN (a percentile goal, e.g. p95: 300ms)")) {
            double p = Double.parseDouble(key.substring(1));
            if (!(p > 0 && p < 100)) {
                c.problem(key, key, "is not a percentile in (0, 100); write e.g. p95: 300ms or p99.9: 2s");
                continue;
            }
            if (goal != null) {
                c.problem(key, key, "is a second percentile goal; a class has at most one (here " + goal.key() + ")");
                continue;
            }
            Duration d = c.duration(key, null, Duration.ofMillis(1), ConfigLoader.MAX_TIMEOUT);
            if (d != null) {
                goal = new PercentileGoal(p, d);
            }
        }
        return goal;
    }

    static UtilityConfig utility(ConfigNode u, List<Duration> targets) {
        if (u.isMissing()) {
            return UtilityConfig.pacifici();
        }
        String type = u.string("type", "pacifici");
        UtilityFunctionProvider p = UtilityFunctions.provider(type);
        if (p == null) {
            u.problem("type", type, "is not a known utility function; known: " + String.join(", ", UtilityFunctions.types()));
            return UtilityConfig.pacifici();
        }
        List<String> keys = new ArrayList<>(p.parameterNames());
        keys.add("type");
        Map<String, Double> params = new LinkedHashMap<>(p.parameters());
        for (String name : p.parameterNames()) {
            params.put(name, u.number(name, p.parameters().get(name), -1e12, 1e12));
        }
        Set<String> seen = new HashSet<>();
        for (Duration target : targets) {
            for (String problem : p.validate(target.toNanos() / 1e9, params)) {
                if (seen.add(problem)) {
                    u.problemHere(problem);
                }
            }
        }
        return new UtilityConfig(type, params);
    }
}
