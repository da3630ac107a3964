package io.slagate.config.utility;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The plug-in point for utility functions, found with {@link java.util.ServiceLoader}: a provider
 * names a {@code type} that the configuration selects ({@code utility: {type: NAME, ...}}).
 */
public interface UtilityFunctionProvider {
    /** The name used as {@code type:} in the configuration. */
    String type();

    /** The parameter names this type accepts, each with its default (null: required). */
    Map<String, Double> parameters();

    /**
     * Problems with these parameters, each a short phrase naming the parameter and what is allowed;
     * empty when {@link #create} will succeed.
     */
    List<String> validate(double targetSeconds, Map<String, Double> parameters);

    /** A utility function for a class with target tau; parameters have been validated. */
    UtilityFunction create(double targetSeconds, Map<String, Double> parameters);

    /**
     * Whether U(t) is concave and non-increasing in t for these parameters. Then U(t(w)) is concave
     * in w for a convex, decreasing model t(w) such as M/M/1, and the optimizer may use its exact
     * greedy path instead of dynamic programming. Answer false when unsure: the DP is always exact.
     */
    default boolean concaveNonIncreasing(Map<String, Double> parameters) {
        return false;
    }

    default Set<String> parameterNames() {
        return parameters().keySet();
    }
}
