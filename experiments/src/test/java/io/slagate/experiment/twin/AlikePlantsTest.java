package io.slagate.experiment.twin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Why settling within three cycles of experiment B's change to Φ_D asks for a bet rather than control: until the second
 * report after the change (the third cycle, where the first report shows the change) the manager has the same reports as
 * in a plant whose Basic is an open stream from one interval after the change, and decides the same splits, while Φ_D's
 * one best split (8 : 2) floods that plant's Basic.
 */
class AlikePlantsTest {
    private static final int SEEDS = 20;

    @Test
    void byTheThirdCycle_theManagerDecidesAlikeInBothPlants_whoseBestSplitsDiffer() {
        AlikePlants a = AlikePlants.compare(SEEDS, 1, 2);
        System.out.print(a.report());
        assertEquals(SEEDS, a.alike(), "the same splits until the second report after the change, in every seed: " + a.line());
        assertTrue(a.onFirstInterval() >= SEEDS - 1, "cycle " + AlikePlants.CYCLES + " on the first interval alone: " + a.line());
        int eightTwo = 7; // the candidates run 1:9 .. 9:1
        assertTrue(a.band()[eightTwo], "8:2 is Φ_D's best: " + a.line());
        assertTrue(a.disjoint(), a.line());
        assertTrue(a.open().staticPhase()[eightTwo][4] < 0, "8:2 held floods the open plant's Basic: " + a.line());
    }
}
