package io.slagate.config.utility;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A contract with a flat reward for meeting the target and a flat penalty for missing it, plus an
 * optional slope that breaks ties between allocations on the same side of the target (without it a
 * step utility gives the optimizer no gradient). Not concave: the optimizer solves it exactly by DP.
 */
public final class StepUtility implements UtilityFunctionProvider {
    @Override
    public String type() {
        return "step";
    }

    @Override
    public Map<String, Double> parameters() {
        Map<String, Double> p = new LinkedHashMap<>();
        p.put("reward", 1.0);
        p.put("penalty", 1.0);
        p.put("slope", 0.0);
        return p;
    }

    @Override
    public List<String> validate(double targetSeconds, Map<String, Double> parameters) {
        List<String> problems = new ArrayList<>();
        double reward = parameters.getOrDefault("reward", 1.0);
        double penalty = parameters.getOrDefault("penalty", 1.0);
        double slope = parameters.getOrDefault("slope", 0.0);
        if (!(reward >= 0)) {
            problems.add("reward = " + reward + " must be ≥ 0");
        }
        if (!(penalty >= 0)) {
            problems.add("penalty = " + penalty + " must be ≥ 0");
        }
        if (!(slope >= 0)) {
            problems.add("slope = " + slope + " must be ≥ 0");
        }
        return problems;
    }

    @Override
    public UtilityFunction create(double targetSeconds, Map<String, Double> parameters) {
        double reward = parameters.getOrDefault("reward", 1.0);
        double penalty = parameters.getOrDefault("penalty", 1.0);
        double slope = parameters.getOrDefault("slope", 0.0);
        double tau = targetSeconds;
        return t -> (t <= tau ? reward : -penalty) + slope * (tau - t);
    }
}
