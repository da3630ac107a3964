package io.slagate.config.utility;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Eq. 7 of the paper: U(t) = phi (tau - t)^alpha when t ≤ tau, and -phi (t - tau)^beta otherwise.
 * With alpha = beta = 1 it is linear in the distance to the target; alpha &lt; 1 rewards getting
 * under the target more than beating it by far; beta &gt; 1 punishes large misses harder.
 */
public final class PacificiUtility implements UtilityFunctionProvider {
    @Override
    public String type() {
        return "pacifici";
    }

    @Override
    public Map<String, Double> parameters() {
        Map<String, Double> p = new LinkedHashMap<>();
        p.put("phi", 1.0);
        p.put("alpha", 1.0);
        p.put("beta", 1.0);
        return p;
    }

    @Override
    public List<String> validate(double targetSeconds, Map<String, Double> parameters) {
        List<String> problems = new ArrayList<>();
        double phi = parameters.getOrDefault("phi", 1.0);
        double alpha = parameters.getOrDefault("alpha", 1.0);
        double beta = parameters.getOrDefault("beta", 1.0);
        if (!(phi > 0)) {
            problems.add("phi = " + phi + " must be > 0 (it weighs the class's importance)");
        }
        if (!(alpha > 0 && alpha <= 10)) {
            problems.add("alpha = " + alpha + " must be in (0, 10]");
        }
        if (!(beta > 0 && beta <= 10)) {
            problems.add("beta = " + beta + " must be in (0, 10]");
        }
        return problems;
    }

    /**
     * Concave in t only when alpha = beta = 1: alpha &lt; 1 or beta &gt; 1 bends the curve at the
     * target the convex way (the slope jumps up at t = tau), beta &lt; 1 makes the miss side convex.
     */
    @Override
    public boolean concaveNonIncreasing(Map<String, Double> parameters) {
        return parameters.getOrDefault("alpha", 1.0) == 1.0 && parameters.getOrDefault("beta", 1.0) == 1.0;
    }

    @Override
    public UtilityFunction create(double targetSeconds, Map<String, Double> parameters) {
        double phi = parameters.getOrDefault("phi", 1.0);
        double alpha = parameters.getOrDefault("alpha", 1.0);
        double beta = parameters.getOrDefault("beta", 1.0);
        double tau = targetSeconds;
        return t -> t <= tau ? phi * Math.pow(tau - t, alpha) : -phi * Math.pow(t - tau, beta);
    }
}
