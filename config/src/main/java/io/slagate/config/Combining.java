package io.slagate.config;


/** How class utilities combine into the cluster utility (eq. 2). */
public enum Combining {
    /** Eq. 2a: Σ_c Σ_g U_c(w_{g,c}). */
    SUM,
    /** Eq. 2b: min_c Σ_g U_c(w_{g,c}): the worst-off class decides. */
    MIN;

    static Combining parse(String s) {
        return switch (s) {
            case "sum" -> SUM;
            case "min" -> MIN;
            default -> null;
        };
    }
}
