package io.slagate.gateway.locality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import java.util.List;
import org.junit.jupiter.api.Test;

class GroupPlacementTest {
    private static final double N = Double.NaN;

    @Test
    void aGroupKeepsTheServerMostOfItsLoadWasOn() {
        // group {0,1} was on server 7 (type 0, heavier) and 5 (type 1); group {2} was on 7 too, but 7 goes to the heavier group
        List<List<Integer>> groups = List.of(List.of(0, 1), List.of(2));
        int[] placed = GroupPlacement.place(groups, new double[] {3, 1, 2}, new int[] {5, 6, 7}, new int[] {8, 8, 8},
                new int[] {7, 5, 7}, new double[][] {{N, N, N}, {N, N, N}, {N, N, N}});
        assertArrayEquals(new int[] {7, 5}, placed);
    }

    @Test
    void aNewGroupGoesWhereItsTypesRanFastest() {
        // type 0 ran at 10 ms on server 1 and 2 ms on server 2: its data is cached there
        int[] placed = GroupPlacement.place(List.of(List.of(0)), new double[] {1}, new int[] {1, 2}, new int[] {8, 8},
                new int[] {-1}, new double[][] {{10e6, 2e6}});
        assertArrayEquals(new int[] {2}, placed);
        // within noise (5%) it is no reason: the server with more slots
        placed = GroupPlacement.place(List.of(List.of(0)), new double[] {1}, new int[] {1, 2}, new int[] {8, 16},
                new int[] {-1}, new double[][] {{2.02e6, 2e6}});
        assertArrayEquals(new int[] {2}, placed);
        placed = GroupPlacement.place(List.of(List.of(0)), new double[] {1}, new int[] {1, 2}, new int[] {16, 8},
                new int[] {-1}, new double[][] {{2.02e6, 2e6}});
        assertArrayEquals(new int[] {1}, placed);
    }

    @Test
    void moreGroupsThanServers_theRestAreUnplaced() {
        int[] placed = GroupPlacement.place(List.of(List.of(0), List.of(1)), new double[] {2, 1}, new int[] {4}, new int[] {8},
                new int[] {-1, -1}, new double[][] {{N}, {N}});
        assertArrayEquals(new int[] {4, -1}, placed);
    }

    @Test
    void aPreviousServerThatLeft_isNotACandidate() {
        // the group was on server 9, which is out of rotation (not among the candidates): it goes to another
        int[] placed = GroupPlacement.place(List.of(List.of(0)), new double[] {1}, new int[] {1, 2}, new int[] {8, 8},
                new int[] {9}, new double[][] {{N, N}});
        assertArrayEquals(new int[] {1}, placed);
    }
}
