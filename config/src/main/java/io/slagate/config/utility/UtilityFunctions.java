package io.slagate.config.utility;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The registry of utility function types: the built-ins and whatever {@link ServiceLoader} finds. */
public final class UtilityFunctions {
    private static final Map<String, UtilityFunctionProvider> PROVIDERS = load();

    private UtilityFunctions() {
    }

    private static Map<String, UtilityFunctionProvider> load() {
        Map<String, UtilityFunctionProvider> map = new TreeMap<>();
        for (UtilityFunctionProvider p : ServiceLoader.load(UtilityFunctionProvider.class)) {
            map.putIfAbsent(p.type(), p);
        }
        map.putIfAbsent("pacifici", new PacificiUtility());
        map.putIfAbsent("step", new StepUtility());
        return Map.copyOf(map);
    }

    public static List<String> types() {
        return new ArrayList<>(new TreeMap<>(PROVIDERS).keySet());
    }

    /** The provider of {@code type}, or null when none is known. */
    public static UtilityFunctionProvider provider(String type) {
        return PROVIDERS.get(type);
    }

    /**
     * A utility function of the given type. A provider that throws is a broken plug-in: its failure
     * is reported with the type's name rather than surfacing as an unrelated error later.
     */
    public static UtilityFunction create(String type, double targetSeconds, Map<String, Double> parameters) {
        UtilityFunctionProvider p = PROVIDERS.get(type);
        if (p == null) {
            throw new IllegalArgumentException("unknown utility type \"" + type + "\"; known: " + types());
        }
        UtilityFunction f = p.create(targetSeconds, parameters);
        return t -> {
            double u = f.utility(t);
            return Double.isNaN(u) ? Double.NEGATIVE_INFINITY : u;
        };
    }
}
