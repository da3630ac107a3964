package io.slagate.rm.optimize;

import io.slagate.config.Combining;
import java.util.Arrays;

/**
 * One pool's allocation problem (eq. 2–4), in integer units of the weight resolution: give each flow
 * (g,c) k ≥ minUnits units with Σ k = totalUnits, maximizing Σ_c Σ_g U_c (sum) or
 * min_c Σ_g U_c (min), where {@code value[f]} gives U_c(t(k)) for flow f.
 *
 * @param classOf     the class (0..classCount-1) of each flow
 * @param concave     true when every value function is concave in k (then the greedy path is exact)
 */
public record AllocationProblem(int classCount, int[] classOf, FlowValue[] value, int totalUnits, int minUnits,
                                Combining combining, boolean concave) {
    /** A flow's utility at k units; pure, called many times per solve. */
    @FunctionalInterface
    public interface FlowValue {
        double at(int units);
    }

    public AllocationProblem {
        if (classOf.length != value.length) {
            throw new IllegalArgumentException("one class per flow: " + classOf.length + " vs " + value.length);
        }
        if ((long) minUnits * classOf.length > totalUnits) {
            throw new IllegalArgumentException("minimum " + minUnits + " × " + classOf.length + " flows exceeds " + totalUnits + " units");
        }
        for (int c : classOf) {
            if (c < 0 || c >= classCount) {
                throw new IllegalArgumentException("class out of range: " + Arrays.toString(classOf));
            }
        }
    }

    public int flowCount() {
        return classOf.length;
    }
}
