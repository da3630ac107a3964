package io.slagate.config;


/** How the dispatcher picks a server among those with a free slot (N_{g,s} not reached). */
public enum LoadBalancing {
    LEAST_OUTSTANDING,
    ROUND_ROBIN,
    /** Request types grouped by working-set correlation, each group on its server, under bounded loads. */
    LOCALITY,
    /** Locality-aware request distribution (Pai et al.): a target to the least-loaded server, moved when that server is overloaded. */
    LARD,
    /** LARD with replication (Pai et al.'s LARD/R): a target's set of servers grows under overload and sheds when quiet. */
    LARD_R;

    /** Whether the choice depends on the request's type (then the gateway keeps the request type of each request). */
    public boolean byRequestType() {
        return this == LOCALITY || this == LARD || this == LARD_R;
    }

    static LoadBalancing parse(String s) {
        return switch (s) {
            case "least-outstanding", "least-loaded" -> LEAST_OUTSTANDING;
            case "round-robin" -> ROUND_ROBIN;
            case "locality" -> LOCALITY;
            case "lard" -> LARD;
            case "lard-r" -> LARD_R;
            default -> null;
        };
    }

    public String configName() {
        return switch (this) {
            case LEAST_OUTSTANDING -> "least-outstanding";
            case ROUND_ROBIN -> "round-robin";
            case LOCALITY -> "locality";
            case LARD -> "lard";
            case LARD_R -> "lard-r";
        };
    }
}
