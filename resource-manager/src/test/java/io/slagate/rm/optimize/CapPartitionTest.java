package io.slagate.rm.optimize;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CapPartitionTest {
    /** One server's N_s split among the gateways. */
    private static int[] split(int capacity, double[] shares) {
        return CapPartition.splitServers(new int[] {capacity}, shares)[0];
    }

    @Test
    void split_proportional_exactSum() {
        assertArrayEquals(new int[] {6, 4}, split(10, new double[] {6, 4}));
        assertArrayEquals(new int[] {4, 3, 3}, split(10, new double[] {1, 1, 1}), "remainder to the lowest index on ties");
        assertArrayEquals(new int[] {7, 3}, split(10, new double[] {6.6, 3.4}), "largest remainder");
        assertArrayEquals(new int[] {0, 0}, split(0, new double[] {1, 1}));
        assertArrayEquals(new int[] {5, 5}, split(10, new double[] {0, 0}), "no shares: equal split");
    }

    @Test
    void split_random_sumsExactly_andEachWithinOneOfQuota() {
        Random rnd = new Random(11);
        for (int i = 0; i < 10_000; i++) {
            int g = 1 + rnd.nextInt(8);
            int cap = rnd.nextInt(200);
            double[] w = new double[g];
            double total = 0;
            for (int j = 0; j < g; j++) {
                w[j] = rnd.nextDouble() * 10 + 0.01;
                total += w[j];
            }
            int[] out = split(cap, w);
            int sum = 0;
            for (int j = 0; j < g; j++) {
                sum += out[j];
                double quota = cap * w[j] / total;
                assertTrue(Math.abs(out[j] - quota) < 1.0 + 1e-9, "nearest point: " + out[j] + " vs " + quota);
            }
            assertEquals(cap, sum);
        }
    }

    /**
     * Hundreds of gateways, a few slots a server: every column sums to its N_s, and each gateway's total over the servers
     * is within one unit of its total quota, where splitting server by server would give every remainder to the same
     * gateways (and the others nothing at all).
     */
    @Test
    void splitServers_manyGatewaysFewSlots_columnsExact_rowsWithinOneOfTheirQuota() {
        Random rnd = new Random(5);
        for (int trial = 0; trial < 50; trial++) {
            int g = 50 + rnd.nextInt(500);
            int s = 1 + rnd.nextInt(100);
            int[] capacity = new int[s];
            int total = 0;
            for (int j = 0; j < s; j++) {
                capacity[j] = rnd.nextInt(20);
                total += capacity[j];
            }
            double[] share = new double[g];
            double shares = 0;
            for (int i = 0; i < g; i++) {
                share[i] = 0.5 + rnd.nextDouble();
                shares += share[i];
            }
            int[][] out = CapPartition.splitServers(capacity, share);
            for (int j = 0; j < s; j++) {
                int sum = 0;
                for (int i = 0; i < g; i++) {
                    assertTrue(out[j][i] >= 0);
                    sum += out[j][i];
                }
                assertEquals(capacity[j], sum, "server " + j + ": Σ_g N_{g,s} = N_s");
            }
            for (int i = 0; i < g; i++) {
                int row = 0;
                for (int j = 0; j < s; j++) {
                    row += out[j][i];
                }
                double quota = total * share[i] / shares;
                assertTrue(Math.abs(row - quota) < 1.0 + 1e-9, "gateway " + i + ": " + row + " slots against a quota of " + quota);
            }
        }
    }

    /** The unit-by-unit scan the rounding is defined by: each unit to the largest remainder (first index on ties). */
    private static int[] roundByScan(double[] values, int total, int min) {
        int[] out = new int[values.length];
        int given = 0;
        for (int i = 0; i < values.length; i++) {
            out[i] = Math.max(min, (int) Math.floor(values[i] + 1e-9));
            given += out[i];
        }
        for (; given < total; given++) {
            int best = 0;
            for (int i = 1; i < values.length; i++) {
                if (values[i] - out[i] > values[best] - out[best]) {
                    best = i;
                }
            }
            out[best]++;
        }
        for (; given > total; given--) {
            int worst = -1;
            for (int i = 0; i < values.length; i++) {
                if (out[i] > min && (worst < 0 || values[i] - out[i] < values[worst] - out[worst])) {
                    worst = i;
                }
            }
            out[worst]--;
        }
        return out;
    }

    @Test
    void round_isTheUnitByUnitLargestRemainder_onRandomInputs_upAndDown() {
        Random r = new Random(11);
        for (int trial = 0; trial < 3_000; trial++) {
            int n = 1 + r.nextInt(40);
            int min = r.nextInt(3);
            double[] v = new double[n];
            double sum = 0;
            for (int i = 0; i < n; i++) {
                v[i] = r.nextInt(4) == 0 ? r.nextInt(5) : r.nextDouble() * 6; // whole values too: ties in the remainders
                sum += v[i];
            }
            int total = Math.max(n * min, (int) Math.round(sum) + r.nextInt(7) - 3);
            assertArrayEquals(roundByScan(v, total, min), CapPartition.round(v, total, min), "trial " + trial);
        }
    }

    @Test
    void round_ofAHundredThousandFlows_isOneSortNotAScanPerUnit() {
        double[] v = new double[100_000];
        java.util.Arrays.fill(v, 0.1); // 10,000 units, every floor 0: all of them given by remainder
        int[] out = CapPartition.round(v, 10_000, 0);
        assertEquals(10_000, java.util.Arrays.stream(out).sum());
        assertEquals(1, out[0]);
        assertEquals(0, out[10_000], "ties to the lower index");
    }
}
