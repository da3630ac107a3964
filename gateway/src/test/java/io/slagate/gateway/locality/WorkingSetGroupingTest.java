package io.slagate.gateway.locality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WorkingSetGroupingTest {
    /** A working set over 16 blocks: weight 1 on each listed block. */
    private static double[] blocks(int... b) {
        double[] v = new double[16];
        for (int i : b) {
            v[i] = 1;
        }
        return v;
    }

    private static Set<Set<Integer>> asSets(List<List<Integer>> groups) {
        Set<Set<Integer>> out = new HashSet<>();
        groups.forEach(g -> out.add(new HashSet<>(g)));
        return out;
    }

    @Test
    void disjointFamilies_areTheGroups_whateverTheOrderOfTypes() {
        // three families of types over disjoint blocks, interleaved in index order; the optimum is known: one family per server
        double[][] sets = {blocks(0, 1), blocks(4, 5), blocks(8, 9), blocks(0, 2), blocks(4, 6), blocks(8, 10), blocks(1, 2)};
        double[] load = {1, 1, 1, 1, 1, 1, 1};
        List<List<Integer>> groups = WorkingSetGrouping.group(sets, load, 3, 0.5);
        assertEquals(Set.of(Set.of(0, 3, 6), Set.of(1, 4), Set.of(2, 5)), asSets(groups));
        assertEquals(List.of(0, 3, 6), groups.get(0), "heaviest group first, its types in order");
    }

    @Test
    void theLoadBound_splitsAFamilyTooHeavyForOneServer() {
        // four types sharing everything, but together twice a server's fair share: two groups of two, not one of four
        double[][] sets = {blocks(0, 1), blocks(0, 1), blocks(0, 1), blocks(0, 1)};
        double[] load = {1, 1, 1, 1};
        List<List<Integer>> groups = WorkingSetGrouping.group(sets, load, 2, 0.25);
        assertEquals(2, groups.size());
        groups.forEach(g -> assertEquals(2, g.size()));
    }

    @Test
    void correlatedPairsWin_overUncorrelatedOnes_underTheBound() {
        // 0 and 1 overlap in half their blocks, 2 and 3 too; 0 and 2 share nothing
        double[][] sets = {blocks(0, 1), blocks(1, 2), blocks(8, 9), blocks(9, 10)};
        List<List<Integer>> groups = WorkingSetGrouping.group(sets, new double[] {1, 1, 1, 1}, 2, 0.25);
        assertEquals(Set.of(Set.of(0, 1), Set.of(2, 3)), asSets(groups));
    }

    @Test
    void degenerateCases() {
        // one type: one group, whatever the servers
        assertEquals(List.of(List.of(0)), WorkingSetGrouping.group(new double[][] {blocks(1)}, new double[] {5}, 4, 0.25));
        // one server: everything in one group
        double[][] sets = {blocks(0), blocks(5), blocks(9)};
        assertEquals(List.of(List.of(0, 1, 2)), WorkingSetGrouping.group(sets, new double[] {1, 2, 3}, 1, 0.25));
        // all types equal, as many servers as types: nothing to gain from merging, each its own server
        double[][] same = {blocks(3), blocks(3), blocks(3)};
        assertEquals(3, WorkingSetGrouping.group(same, new double[] {1, 1, 1}, 3, 0.25).size());
        // no load at all: no group
        assertTrue(WorkingSetGrouping.group(sets, new double[] {0, 0, 0}, 2, 0.25).isEmpty());
        // unknown working sets (no declaration): packed by load only, the two lightest together
        double[][] unknown = {new double[16], new double[16], new double[16]};
        assertEquals(Set.of(Set.of(0), Set.of(1, 2)), asSets(WorkingSetGrouping.group(unknown, new double[] {4, 1, 1}, 2, 0.25)));
    }

    @Test
    void aTypeHeavierThanTheBound_staysAlone() {
        double[][] sets = {blocks(0), blocks(0), blocks(7)};
        List<List<Integer>> groups = WorkingSetGrouping.group(sets, new double[] {10, 1, 1}, 2, 0.25);
        assertEquals(List.of(List.of(0), List.of(1, 2)), groups, "0 is over the bound (7.5) alone; 1 joins 2, not 0");
    }
}
