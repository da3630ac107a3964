package io.slagate.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The {@code controller:} section, but for online tuning ({@link TuningSection}). */
final class ControllerSection {
    private ControllerSection() {
    }

    static ControllerSettings controller(ConfigNode c) {
        Duration cycle = c.duration("cycle", Duration.ofSeconds(5), Duration.ofMillis(20), Duration.ofHours(1));
        Combining combining = c.choice("combining", Combining.SUM, Combining::parse, "sum", "min");
        String model = c.string("model", "auto");
        List<String> models = List.of("auto", "closed", "mmm", "mm1");
        if (model != null && !models.contains(model)) {
            c.problem("model", model, "is not a known response-time model; known: " + String.join(", ", models));
        }
        double resolution = c.number("resolution", 1.0, 0.001, 1000);
        double minWeight = c.number("minWeight", 1.0, 0.001, 1e6);
        int expiry = c.integer("gatewayExpiry", 3, 1, 1000);
        double damping = c.number("damping", 0.5, 0.01, 1.0);
        int maxGateways = c.integer("maxGateways", 1_024, 1, 100_000);
        double correctionBound = c.number("correctionBound", 4.0, 1.0, 100.0);
        if (!Double.isFinite(correctionBound)) {
            c.problem("correctionBound", correctionBound, "must be a finite number from 1 to 100");
            correctionBound = 4.0;
        }
        double minGain = c.number("minGain", 0.02, 0, 10);
        String forecast = c.string("forecast", "none");
        if (forecast != null && !List.of("none", "trend", "auto").contains(forecast)) {
            c.problem("forecast", forecast, "is not allowed; use one of: none (the last window's rates), trend (Holt's linear"
                    + " trend, one cycle ahead), auto (the trend where its recent error is small)");
            forecast = "none";
        }
        String solve = c.string("solve", "auto");
        if (solve != null && !List.of("auto", "flows", "classes").contains(solve)) {
            c.problem("solve", solve, "is not allowed; use one of: flows (every gateway's flow of every class), classes"
                    + " (each pool's classes, then their gateways), auto (classes for a pool of "
                    + ControllerSettings.AUTO_CLASSES_FLOWS + " flows or more whose utilities are concave)");
            solve = "auto";
        }
        Duration stabilization = c.duration("capacityStabilization", null, Duration.ZERO, Duration.ofHours(1)); // null: 3 windows
        List<TuningSettings> tuning = c.child("tuning").isMissing() ? List.of() : TuningSection.tuning(c.object("tuning"));
        checkTuningStart(c, tuning, cycle, damping, resolution, model);
        boolean budgetOn = c.bool("errorBudget", false);
        double budgetBound = c.number("errorBudgetBound", 4.0, 1.0, 100.0);
        return new ControllerSettings(cycle, combining, model, resolution, minWeight, expiry, damping, maxGateways, correctionBound,
                minGain, forecast == null ? "none" : forecast, stabilization, reconfiguration(c.object("reconfiguration")), tuning, solve,
                new ErrorBudgetSettings(budgetOn, budgetBound));
    }

    /**
     * An interleaved tuner's controller knobs start from the value in force: one outside a knob's bounds (or a model not
     * among its choices) would be moved at the first trial, whatever it measured.
     */
    private static void checkTuningStart(ConfigNode c, List<TuningSettings> tuning, Duration cycle, double damping, double resolution,
                                         String model) {
        for (TuningSettings t : tuning) {
            for (TuningSettings.Knob k : t.knobs()) {
                if (!k.controller() || !t.interleaved() || k.name().equals("window")) {
                    continue; // the window is the gateways' setting: checked against it in crossCheck
                }
                // the value in force is the tuner's first best: outside the knob's bounds, the first trial would move it,
                // whatever it measured
                double inForce = switch (k.name()) {
                    case "cycle" -> cycle.toNanos() / 1e9;
                    case "damping" -> damping;
                    case "resolution" -> resolution;
                    default -> k.choices().contains(model) ? 0 : Double.NaN;
                };
                if (Double.isNaN(inForce)) {
                    c.problem("model", model, "is not among the choices of the tuning knob model " + k.choices()
                            + ": tuning would replace it at its first trial");
                } else if (!k.name().equals("model") && (inForce < k.min() || inForce > k.max())) {
                    c.problem(k.name(), inForce, String.format(Locale.ROOT, "lies outside the tuning knob %s's bounds [%s, %s]"
                            + ": tuning would move it there at its first trial, whatever it measured", k.name(), k.min(), k.max()));
                }
            }
        }
    }

    static ReconfigurationSettings reconfiguration(ConfigNode r) {
        ReconfigurationSettings d = ReconfigurationSettings.DEFAULTS;
        Duration every = r.duration("every", d.every(), Duration.ofMillis(100), Duration.ofHours(24));
        double high = r.number("high", d.high(), 0.01, 10);
        double low = r.number("low", d.low(), 0, 10);
        if (low >= high) {
            r.problem("low", low, "must be below high (" + high + "): a pool that gives a server must not be saturated");
        }
        Duration dwell = r.duration("dwell", d.dwell(), Duration.ZERO, Duration.ofHours(24));
        Map<String, Integer> min = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigNode> e : r.entries("minServers").entrySet()) {
            int v = r.object("minServers").namesChosen().integer(e.getKey(), 1, 0, 10_000);
            min.put(e.getKey(), v);
        }
        return new ReconfigurationSettings(every, high, low, dwell, min);
    }
}
