package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The capacity deficit on predictions whose answer is solved by hand. */
class CapacityDeficitTest {
    @Test
    void slotsNeeded_perFlow_summed_andTheGapInServers() {
        // t(w) = 0.1 + 2/w: within 0.5 s from w = 5; t(w) = 1/w: within 0.25 s from w = 4
        CapacityDeficit.Result r = CapacityDeficit.of("default", 6, 4, 1, List.of(
                new CapacityDeficit.Flow("premium", 0.5, w -> 0.1 + 2 / w),
                new CapacityDeficit.Flow("basic", 0.25, w -> 1 / w)));
        assertTrue(r.reachable());
        assertEquals(9, r.neededSlots(), 1e-9);
        assertEquals(3, r.deficitSlots(), 1e-9);
        assertEquals(1, r.extraServers(), "3 slots are one server of 4");
        assertEquals(5, r.neededByClass().get("premium"), 1e-9);
        assertEquals(4, r.neededByClass().get("basic"), 1e-9);
        // finer resolution, premium's target 0.55 s: 0.1 + 2/w ≤ 0.55 from w = 4.44, so 4.5 (and basic 4.0)
        assertEquals(8.5, CapacityDeficit.of("default", 6, 4, 0.1, List.of(
                new CapacityDeficit.Flow("premium", 0.55, w -> 0.1 + 2 / w),
                new CapacityDeficit.Flow("basic", 0.25, w -> 1 / w))).neededSlots(), 1e-9);
    }

    @Test
    void enoughSlots_noDeficit() {
        CapacityDeficit.Result r = CapacityDeficit.of("p", 20, 10, 1, List.of(new CapacityDeficit.Flow("c", 0.5, w -> 0.1 + 2 / w)));
        assertEquals(0, r.deficitSlots());
        assertEquals(0, r.extraServers());
    }

    @Test
    void aTargetNoShareReaches_isUnreachable_notInfinitelyManyServers() {
        // the service time alone (0.5 s) is over the 0.4 s target
        CapacityDeficit.Result r = CapacityDeficit.of("p", 10, 10, 1, List.of(
                new CapacityDeficit.Flow("slow", 0.4, w -> 0.5 + 1 / w),
                new CapacityDeficit.Flow("fine", 1, w -> 1 / w)));
        assertFalse(r.reachable());
        assertEquals(-1, r.extraServers());
        assertTrue(Double.isNaN(r.neededByClass().get("slow")));
        assertEquals(1, r.neededByClass().get("fine"), 1e-9);
    }
}
