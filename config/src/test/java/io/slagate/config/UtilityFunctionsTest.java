package io.slagate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import io.slagate.config.utility.UtilityFunction;
import io.slagate.config.utility.UtilityFunctions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UtilityFunctionsTest {
    @Test
    void pacifici_eq7_handComputed() {
        UtilityFunction u = UtilityFunctions.create("pacifici", 2.0, Map.of("phi", 3.0, "alpha", 0.5, "beta", 2.0));
        assertEquals(3.0 * Math.sqrt(1.5), u.utility(0.5), 1e-12);  // phi (tau - t)^alpha
        assertEquals(0.0, u.utility(2.0), 1e-12);
        assertEquals(-3.0 * 2.25, u.utility(3.5), 1e-12);          // -phi (t - tau)^beta
    }

    @Test
    void step_rewardPenaltyAndSlope() {
        UtilityFunction u = UtilityFunctions.create("step", 1.0, Map.of("reward", 5.0, "penalty", 7.0, "slope", 0.0));
        assertEquals(5.0, u.utility(0.9), 0);
        assertEquals(-7.0, u.utility(1.1), 0);
    }

    @Test
    void registry_listsBuiltIns_andRejectsUnknown() {
        assertEquals(List.of("pacifici", "step"), UtilityFunctions.types());
        assertThrows(IllegalArgumentException.class, () -> UtilityFunctions.create("cubic", 1, Map.of()));
    }
}
