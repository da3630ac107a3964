package io.slagate.config;

import java.util.Map;

/** The utility function of a class: a type found through the {@code UtilityFunctionProvider} SPI and its parameters. */
public record UtilityConfig(String type, Map<String, Double> parameters) {
    public UtilityConfig {
        parameters = Map.copyOf(parameters);
    }

    public static UtilityConfig pacifici() {
        return new UtilityConfig("pacifici", Map.of("phi", 1.0, "alpha", 1.0, "beta", 1.0));
    }
}
