package io.slagate.rm.optimize;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.Combining;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.model.MM1Model;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AllocationOptimizerTest {
    /** Best Ω by enumerating every allocation: the reference the DP must match. */
    private static double bruteForce(AllocationProblem p) {
        return enumerate(p, new int[p.flowCount()], 0, p.totalUnits());
    }

    private static double enumerate(AllocationProblem p, int[] units, int f, int left) {
        if (f == p.flowCount() - 1) {
            if (left < p.minUnits()) {
                return Double.NEGATIVE_INFINITY;
            }
            units[f] = left;
            return AllocationOptimizer.objective(p, units);
        }
        double best = Double.NEGATIVE_INFINITY;
        for (int k = p.minUnits(); k <= left - p.minUnits() * (p.flowCount() - f - 1); k++) {
            units[f] = k;
            best = Math.max(best, enumerate(p, units, f + 1, left - k));
        }
        return best;
    }

    private static AllocationProblem randomProblem(Random rnd, boolean concave, Combining combining) {
        int classes = 1 + rnd.nextInt(3);
        int flows = classes + rnd.nextInt(3);
        int[] classOf = new int[flows];
        for (int f = 0; f < flows; f++) {
            classOf[f] = f < classes ? f : rnd.nextInt(classes);
        }
        int min = rnd.nextInt(2);
        int total = min * flows + rnd.nextInt(9);
        AllocationProblem.FlowValue[] v = new AllocationProblem.FlowValue[flows];
        for (int f = 0; f < flows; f++) {
            if (concave) {
                // M/M/1 prediction under a linear (alpha = beta = 1) eq.-7 utility: concave in w
                FlowObservation o = new FlowObservation(0.5 + rnd.nextDouble() * 5, 0.1 + rnd.nextDouble(), 1 + rnd.nextInt(5));
                double tau = 0.2 + rnd.nextDouble();
                double phi = 0.5 + rnd.nextDouble();
                MM1Model m = new MM1Model();
                v[f] = k -> {
                    double t = m.predictSeconds(o, Math.max(k, 0.01));
                    return t <= tau ? phi * (tau - t) : -phi * (t - tau);
                };
            } else {
                double[] table = new double[total + 2];
                for (int k = 0; k < table.length; k++) {
                    table[k] = rnd.nextInt(20) - 10 + (rnd.nextBoolean() ? 0.5 : 0); // arbitrary, non-concave, ties
                }
                v[f] = k -> table[k];
            }
        }
        return new AllocationProblem(classes, classOf, v, total, min, combining, concave);
    }

    @Test
    void dp_matchesBruteForce_onRandomInstances_anyUtility_bothCombinings() {
        Random rnd = new Random(42);
        for (int i = 0; i < 3000; i++) {
            Combining comb = rnd.nextBoolean() ? Combining.SUM : Combining.MIN;
            AllocationProblem p = randomProblem(rnd, rnd.nextBoolean(), comb);
            Solution s = AllocationOptimizer.dynamicProgramming(p);
            int sum = 0;
            for (int u : s.units()) {
                assertTrue(u >= p.minUnits(), "w ≥ minimum (eq. 3)");
                sum += u;
            }
            assertEquals(p.totalUnits(), sum, "Σ w = N (eq. 3)");
            assertEquals(bruteForce(p), s.objective(), 1e-9, "instance " + i + " " + comb);
        }
    }

    @Test
    void greedy_equalsDp_whenConcaveAndSum() {
        Random rnd = new Random(7);
        for (int i = 0; i < 3000; i++) {
            AllocationProblem p = randomProblem(rnd, true, Combining.SUM);
            double dp = AllocationOptimizer.dynamicProgramming(p).objective();
            double greedy = AllocationOptimizer.greedy(p).objective();
            assertEquals(dp, greedy, 1e-9 * Math.max(1, Math.abs(dp)), "instance " + i);
            assertEquals("greedy", AllocationOptimizer.solve(p).method());
        }
    }

    @Test
    void solve_nonConcave_usesDp() {
        AllocationProblem p = randomProblem(new Random(3), false, Combining.SUM);
        assertEquals("dp", AllocationOptimizer.solve(p).method());
    }

    @Test
    void dp_min_liftsTheWorstClass() {
        // two classes; class 0 gains 1 per unit, class 1 gains 3 per unit; min combining equalizes
        AllocationProblem p = new AllocationProblem(2, new int[] {0, 1},
                new AllocationProblem.FlowValue[] {k -> k, k -> 3 * k}, 8, 1, Combining.MIN, false);
        Solution s = AllocationOptimizer.dynamicProgramming(p);
        assertArrayEquals(new int[] {6, 2}, s.units());
        assertEquals(6, s.objective(), 0);
    }
}
