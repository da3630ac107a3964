package io.slagate.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/** The {@code controller.tuning:} section: partitions, knobs and the search's settings. */
final class TuningSection {
    private TuningSection() {
    }

    /** Tuning knobs slagate sets itself on a side: N_s of its servers, the queue timeout of its classes (seconds). */
    static final List<String> GATEWAY_KNOBS = List.of("concurrency", "queueTimeout");

    /**
     * {@code controller.tuning}: checked here; its pools and classes against the rest in crossCheck. Either one work line
     * (its pools, twins and knobs beside the search settings) or {@code partitions}: a name → work line each, every one
     * with its own tuner under the shared search settings (Active Harmony's parameter partitioning).
     */
    static List<TuningSettings> tuning(ConfigNode t) {
        ConfigNode parts = t.object("partitions");
        String strategy = t.string("strategy", "simplex");
        if (strategy != null && !List.of("simplex", "hill", "restarts").contains(strategy)) {
            t.problem("strategy", strategy, "is not allowed; use one of: simplex, hill, restarts");
            strategy = "simplex";
        }
        Duration period = t.duration("period", Duration.ofSeconds(30), Duration.ofMillis(100), Duration.ofHours(24));
        Duration settle = t.duration("settle", Duration.ofSeconds(10), Duration.ZERO, Duration.ofHours(1));
        double minGain = t.number("minGain", 0.02, 0, 100);
        double abortDrop = t.number("abortDrop", 0.1, 0, 100);
        int stall = t.integer("stallTrials", 10, 1, 10_000);
        double drift = t.number("drift", 0.10, 0, 100);
        List<TuningSettings> out = new ArrayList<>();
        if (parts.isMissing()) {
            out.add(workLine(t, TuningSettings.DEFAULT, strategy, period, settle, minGain, abortDrop, stall, drift));
            return out;
        }
        if (parts.keys().isEmpty()) {
            t.missing("partitions", "at least one partition: {name: {safe: POOL, experimental: POOL, twins: {...}, knobs: [...]}}");
        }
        Set<String> workLineKeys = new TreeSet<>();
        for (Map.Entry<String, ConfigNode> e : parts.entries().entrySet()) {
            if (!e.getKey().matches("[A-Za-z0-9_-]{1,64}")) {
                parts.problem(e.getKey(), e.getKey(), "is not a partition name: letters, digits, '-' and '_', at most 64");
                continue;
            }
            if (!e.getValue().isObject()) {
                parts.problem(e.getKey(), e.getValue().text(), "must be a mapping: {safe, experimental, share, twins, knobs}");
                continue;
            }
            out.add(workLine(e.getValue(), e.getKey(), strategy, period, settle, minGain, abortDrop, stall, drift));
            workLineKeys.addAll(e.getValue().lookedUp());
        }
        t.misplaced(workLineKeys, "belongs in each partition when partitions are given (each work line has its own)");
        return out;
    }

    /** One work line of the tuner: its two pools, the share of each class on the experimental one, twins, knobs, best. */
    static TuningSettings workLine(ConfigNode t, String name, String strategy, Duration period, Duration settle,
                                           double minGain, double abortDrop, int stall, double drift) {
        // the operator's consent to trials on all traffic, with no safe side (the controller's own knobs are global)
        boolean interleaved = t.bool("interleaved", false);
        String safe = null;
        String experimental = null;
        double share = 0;
        Map<String, String> twins = new LinkedHashMap<>();
        if (interleaved) {
            for (String k : new String[] {"safe", "experimental", "share", "twins"}) {
                if (!t.child(k).isMissing()) {
                    t.problem(k, t.child(k).text(), "an interleaved partition has no sides: each trial runs on all traffic, between "
                            + "two periods of the best configuration");
                }
            }
        } else {
            safe = t.requiredString("safe");
            experimental = t.requiredString("experimental");
            share = t.number("share", 0.2, 0.01, 0.99);
            for (Map.Entry<String, ConfigNode> e : t.entries("twins").entrySet()) {
                String twin = e.getValue().asString();
                if (twin != null) {
                    twins.put(e.getKey(), twin);
                }
            }
            if (twins.isEmpty() && !t.problemAlreadyAt("twins")) {
                t.missing("twins", "tuning needs a safe side: name each class of the safe pool and its twin on the experimental pool,"
                        + " e.g. {premium: premium-trial} (or, for the controller's own knobs, interleaved: true)");
            }
        }
        List<TuningSettings.Knob> knobs = new ArrayList<>();
        List<ConfigNode> list = t.list("knobs");
        if (list.isEmpty() && !t.problemAlreadyAt("knobs")) {
            t.missing("knobs", "at least one knob: - {name: concurrency, min: 1, max: 50} or - {name: workers, path: /admin/knobs, min: 1, max: 64}");
        }
        for (ConfigNode k : list) {
            knobs.add(knob(k, interleaved));
        }
        Map<String, Double> best = best(t, knobs);
        return new TuningSettings(strategy, period, settle, minGain, abortDrop, stall, drift, safe, experimental, share, twins, knobs,
                best, name, interleaved);
    }

    /** One knob of a work line: a backend's (through its admin path), slagate's own on a side, or the controller's. */
    private static TuningSettings.Knob knob(ConfigNode k, boolean interleaved) {
        String knob = k.requiredString("name");
        String path = k.string("path", null);
        boolean controllerKnob = path == null && TuningSettings.CONTROLLER_KNOBS.contains(knob);
        boolean gatewayKnob = path == null && GATEWAY_KNOBS.contains(knob);
        if (knob != null && !gatewayKnob && !controllerKnob && path == null) {
            k.missing("path", "a backend knob is set through its admin endpoint: path: /admin/knobs");
        }
        if (path != null && !path.startsWith("/")) {
            k.problem("path", path, "must start with '/'");
        }
        if (controllerKnob && !interleaved) {
            k.problem("name", knob, "is the controller's own knob, global to every pool: its trials cannot be confined to the "
                    + "experimental side; tune it in a partition with interleaved: true (no safe side: each trial runs on all "
                    + "traffic, between two periods of the best configuration)");
        }
        if (interleaved && knob != null && !controllerKnob) {
            k.problem("name", knob, "an interleaved partition tunes the controller's own knobs only ("
                    + String.join(", ", TuningSettings.CONTROLLER_KNOBS) + "); a server's knobs are tuned with a safe side");
        }
        Duration timeout = k.duration("timeout", Duration.ofSeconds(2), Duration.ofMillis(10), Duration.ofMinutes(1));
        if (controllerKnob && knob.equals("model")) {
            return modelKnob(k, timeout);
        }
        if (!k.child("choices").isMissing()) {
            k.problem("choices", k.child("choices").text(), "only the model knob picks among names");
        }
        double min = k.number("min", Double.NaN, -1e12, 1e12);
        double max = k.number("max", Double.NaN, -1e12, 1e12);
        bounds(k, knob, min, max, gatewayKnob, controllerKnob);
        boolean integer = k.bool("integer", !controllerKnob && !"queueTimeout".equals(knob));
        return new TuningSettings.Knob(knob, path, min, max, integer, timeout, List.of());
    }

    /** A knob's bounds: present, in order, and within what the setting it turns accepts. */
    private static void bounds(ConfigNode k, String knob, double min, double max, boolean gatewayKnob, boolean controllerKnob) {
        if (!(min < max)) {
            k.problem("max", max, "the bounds [" + min + ", " + max + "] are empty or missing: min and max are required, min below max");
        } else if (gatewayKnob && knob.equals("queueTimeout")
                && (min < ConfigLoader.MIN_QUEUE_TIMEOUT.toNanos() / 1e9 || max > ConfigLoader.MAX_TIMEOUT.toNanos() / 1e9)) {
            k.problem("max", max, "the bounds [" + min + ", " + max + "] leave a class's queueTimeout range [" + ConfigLoader.MIN_QUEUE_TIMEOUT.toNanos() / 1e9
                    + ", " + ConfigLoader.MAX_TIMEOUT.toNanos() / 1e9 + "] (seconds)");
        } else if (controllerKnob) {
            // within what controller.KEY itself accepts
            double[] range = switch (knob) {
                case "cycle", "window" -> new double[] {0.02, 3600};
                case "damping" -> new double[] {0.01, 1};
                default -> new double[] {0.001, 1000};
            };
            if (min < range[0] || max > range[1]) {
                k.problem("max", max, String.format(Locale.ROOT, "the bounds [%s, %s] leave controller.%s's range [%s, %s]%s",
                        min, max, knob, range[0], range[1], knob.equals("cycle") || knob.equals("window") ? " (seconds)" : ""));
            }
        }
    }

    /** The best configuration found, as the console wrote it back: every knob named, each within its bounds. */
    private static Map<String, Double> best(ConfigNode t, List<TuningSettings.Knob> knobs) {
        Map<String, Double> best = new LinkedHashMap<>();
        ConfigNode bestNode = t.object("best");
        if (!bestNode.isMissing()) {
            for (TuningSettings.Knob k : knobs) {
                if (k.name() == null) {
                    continue;
                }
                double v = bestNode.namesChosen().number(k.name(), Double.NaN, k.min(), k.max());
                if (Double.isNaN(v)) {
                    if (!bestNode.problemAlreadyAt(k.name())) {
                        bestNode.missing(k.name(), "the best configuration names every knob (it is applied whole)");
                    }
                } else {
                    best.put(k.name(), v);
                }
            }
        }
        return best;
    }

    /** The controller's model, picked among {@code choices} (known models, at least two); its value is the index. */
    static TuningSettings.Knob modelKnob(ConfigNode k, Duration timeout) {
        for (String key : new String[] {"min", "max", "integer"}) {
            if (!k.child(key).isMissing()) {
                k.problem(key, k.child(key).text(), "the model knob picks among its choices: no bounds");
            }
        }
        List<String> known = List.of("auto", "closed", "mmm", "mm1");
        List<String> choices = new ArrayList<>();
        for (ConfigNode c : k.list("choices")) {
            String m = c.asString();
            if (m != null && !known.contains(m)) {
                k.problem("choices", m, "is not a known response-time model; known: " + String.join(", ", known));
            } else if (m != null && !choices.contains(m)) {
                choices.add(m);
            }
        }
        if (choices.size() < 2 && !k.problemAlreadyAt("choices")) {
            k.missing("choices", "at least two models to pick among, e.g. choices: [auto, mm1]");
        }
        return new TuningSettings.Knob("model", null, 0, Math.max(1, choices.size() - 1), true, timeout, choices);
    }
}
