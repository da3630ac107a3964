package io.slagate.config;

/** How the dispatcher picks a server among those with a free slot (N_{g,s} not reached). */
public enum LoadBalancing {
    LEAST_OUTSTANDING,
    ROUND_ROBIN;

    static LoadBalancing parse(String s) {
        return switch (s) {
            case "least-outstanding" -> LEAST_OUTSTANDING;
            case "round-robin" -> ROUND_ROBIN;
            default -> null;
        };
    }
}
