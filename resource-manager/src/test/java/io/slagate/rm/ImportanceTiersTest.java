package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tiers on flows whose needs are given (a flow meets its goals from {@code need} units on). */
class ImportanceTiersTest {
    private static ImportanceTiers.Flow goal(int importance, int need) {
        return new ImportanceTiers.Flow(importance, false, true, 1, u -> u >= need);
    }

    private static ImportanceTiers.Flow discretionary(double rate) {
        return new ImportanceTiers.Flow(0, true, rate > 0, rate, u -> true);
    }

    @Test
    void higherLevelMetFirst_theLevelThatCannotBeMetSharesTheRest_belowGetsTheMinimum() {
        // 10 units, minimum 1 each: A (2) needs 6 and gets it; B (1) needs 5 of the 3 left: B is free over them; D keeps 1
        ImportanceTiers.Plan p = ImportanceTiers.plan(List.of(goal(2, 6), goal(1, 5), discretionary(4)), 10, 1);
        assertArrayEquals(new int[] {6, -1, 1}, p.fixed());
        assertEquals(1, p.floor()[1]);
        assertTrue(p.note().contains("importance 1 cannot meet every goal"), p.note());
    }

    @Test
    void everyGoalMet_discretionaryGetsWhatTheOthersLeave_byArrivalRate() {
        // needs 3 and 2 of 10; the 5 left go to two discretionary flows at rates 3 : 1 (each keeps its minimum 1)
        ImportanceTiers.Plan p = ImportanceTiers.plan(List.of(goal(2, 3), goal(1, 2), discretionary(3), discretionary(1)), 12, 1);
        // 12 − 4 minimums = 8; A +2, B +1: 5 left, 3.75 : 1.25 → 4 : 1
        assertArrayEquals(new int[] {3, 2, 5, 2}, p.fixed());
        assertEquals(12, Arrays.stream(p.fixed()).sum());
    }

    @Test
    void everyGoalMet_withoutDiscretionary_goalFlowsAreFreeAboveTheirNeeds() {
        ImportanceTiers.Plan p = ImportanceTiers.plan(List.of(goal(2, 3), goal(1, 2), discretionary(0)), 10, 1);
        assertArrayEquals(new int[] {-1, -1, 1}, p.fixed(), "the idle discretionary flow keeps its minimum");
        assertArrayEquals(new int[] {3, 2, 0}, p.floor());
    }

    @Test
    void aTopLevelNoShareCanSatisfy_takesEverythingButTheMinimums() {
        ImportanceTiers.Plan p = ImportanceTiers.plan(List.of(goal(5, 1000), goal(1, 2), discretionary(2)), 10, 1);
        assertArrayEquals(new int[] {-1, 1, 1}, p.fixed());
        assertEquals(1, p.floor()[0]);
    }

    @Test
    void idleGoalFlows_needNothing_andTheSearchFindsTheSmallestShare() {
        ImportanceTiers.Plan p = ImportanceTiers.plan(List.of(new ImportanceTiers.Flow(3, false, false, 0, u -> false), discretionary(1)),
                10, 1);
        assertArrayEquals(new int[] {1, 9}, p.fixed(), "an idle goal flow keeps the minimum; the rest is spare");
        assertEquals(7, ImportanceTiers.smallestUnits(u -> u >= 7, 10));
        assertEquals(Integer.MAX_VALUE, ImportanceTiers.smallestUnits(u -> u >= 11, 10));
        assertEquals(1, ImportanceTiers.smallestUnits(u -> true, 10), "a share of 0 serves nothing");
    }
}
