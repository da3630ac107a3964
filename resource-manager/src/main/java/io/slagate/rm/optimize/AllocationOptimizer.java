package io.slagate.rm.optimize;

import io.slagate.config.Combining;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Maximizes the cluster utility (eq. 2) under w ≥ min and Σ w = N (eq. 3–4).
 *
 * <p>{@link #dynamicProgramming} is exact for any utility, concave or not, and either combining
 * function: per class, a DP over its gateways' flows gives h_c(n), the best Σ_g U_c with n units;
 * then a DP over classes combines the h_c by sum or by min. O(K·U²) for K flows and U units.
 * With min, ties in the minimum are broken toward a larger sum (best effort; the minimum is exact).
 *
 * <p>{@link #greedy} gives units one at a time to the flow whose utility gains most: exact for sum
 * combining when every value function is concave (the marginal gains only fall, so the greedy and
 * the optimum take the same best U − K·min marginals), O(U log K). {@link #solve} uses it only then.
 */
public final class AllocationOptimizer {
    private AllocationOptimizer() {
    }

    public static Solution solve(AllocationProblem p) {
        if (p.concave() && p.combining() == Combining.SUM) {
            return greedy(p);
        }
        return dynamicProgramming(p);
    }

    public static Solution greedy(AllocationProblem p) {
        int k = p.flowCount();
        int[] units = new int[k];
        double[] current = new double[k]; // U of each flow at its units, and at one unit more: each value asked once
        double[] next = new double[k];
        PriorityQueue<double[]> gains = new PriorityQueue<>((a, b) -> {
            int c = Double.compare(b[0], a[0]);
            return c != 0 ? c : Double.compare(a[1], b[1]); // ties: lower flow index first
        });
        int left = p.totalUnits();
        for (int f = 0; f < k; f++) {
            units[f] = p.minUnits();
            left -= units[f];
            current[f] = p.value()[f].at(units[f]);
            next[f] = p.value()[f].at(units[f] + 1);
            gains.add(new double[] {next[f] - current[f], f});
        }
        while (left > 0) {
            double[] best = gains.poll();
            int f = (int) best[1];
            units[f]++;
            left--;
            current[f] = next[f];
            next[f] = p.value()[f].at(units[f] + 1);
            gains.add(new double[] {next[f] - current[f], f});
        }
        return new Solution(units, objectiveOf(p, current), "greedy");
    }

    public static Solution dynamicProgramming(AllocationProblem p) {
        int total = p.totalUnits();
        List<List<Integer>> flowsOfClass = new ArrayList<>();
        for (int c = 0; c < p.classCount(); c++) {
            flowsOfClass.add(new ArrayList<>());
        }
        for (int f = 0; f < p.flowCount(); f++) {
            flowsOfClass.get(p.classOf()[f]).add(f);
        }
        // Inner: per class, h[n] = best Σ_g U_c with n units over its flows; choice[j][n] = units of flow j.
        double[][] h = new double[p.classCount()][];
        int[][][] innerChoice = new int[p.classCount()][][];
        for (int c = 0; c < p.classCount(); c++) {
            List<Integer> flows = flowsOfClass.get(c);
            innerChoice[c] = new int[flows.size()][];
            h[c] = flows.isEmpty() ? zeroOnly(total) : classTable(p, flows, innerChoice[c]);
        }
        int[][] outerChoice = combineClasses(p, h);
        // Reconstruct.
        int[] units = new int[p.flowCount()];
        int n = total;
        for (int c = p.classCount() - 1; c >= 0; c--) {
            int kc = outerChoice[c][n];
            n -= kc;
            List<Integer> flows = flowsOfClass.get(c);
            int r = kc;
            for (int j = flows.size() - 1; j >= 0; j--) {
                int kf = innerChoice[c][j][r];
                units[flows.get(j)] = kf;
                r -= kf;
            }
        }
        return new Solution(units, objective(p, units), "dp");
    }

    /** One class's best Σ_g U_c for every n units over its flows; {@code choice[j][n]}: the units of its j-th flow. */
    private static double[] classTable(AllocationProblem p, List<Integer> flows, int[][] choice) {
        int total = p.totalUnits();
        int min = p.minUnits();
        double[] best = new double[total + 1];
        Arrays.fill(best, Double.NEGATIVE_INFINITY);
        best[0] = 0;
        for (int j = 0; j < flows.size(); j++) {
            double[] v = table(p.value()[flows.get(j)], min, total - min * (p.flowCount() - 1));
            double[] next = new double[total + 1];
            Arrays.fill(next, Double.NEGATIVE_INFINITY);
            int[] ch = new int[total + 1];
            for (int n = min * (j + 1); n <= total; n++) {
                double bestHere = Double.NEGATIVE_INFINITY;
                int bestK = -1;
                int kMax = n - min * j;
                for (int kk = min; kk <= kMax && kk < v.length; kk++) {
                    double prev = best[n - kk];
                    if (prev == Double.NEGATIVE_INFINITY) {
                        continue;
                    }
                    double s = prev + v[kk];
                    if (s > bestHere) {
                        bestHere = s;
                        bestK = kk;
                    }
                }
                next[n] = bestHere;
                ch[n] = bestK;
            }
            best = next;
            choice[j] = ch;
        }
        return best;
    }

    /**
     * Outer: the classes' tables combined by sum or min (with a sum tie-break for min); {@code [c][n]}: the units of
     * class c when classes 0..c hold n.
     */
    private static int[][] combineClasses(AllocationProblem p, double[][] h) {
        int total = p.totalUnits();
        boolean byMin = p.combining() == Combining.MIN;
        double[] fMain = new double[total + 1];
        double[] fSum = new double[total + 1];
        Arrays.fill(fMain, Double.NEGATIVE_INFINITY);
        fMain[0] = byMin ? Double.POSITIVE_INFINITY : 0;
        fSum[0] = 0;
        int[][] outerChoice = new int[p.classCount()][];
        for (int c = 0; c < p.classCount(); c++) {
            double[] hc = h[c];
            double[] nMain = new double[total + 1];
            double[] nSum = new double[total + 1];
            Arrays.fill(nMain, Double.NEGATIVE_INFINITY);
            Arrays.fill(nSum, Double.NEGATIVE_INFINITY);
            int[] ch = new int[total + 1];
            Arrays.fill(ch, -1);
            for (int n = 0; n <= total; n++) {
                for (int kk = 0; kk <= n; kk++) {
                    double hv = hc[kk];
                    double prevMain = fMain[n - kk];
                    if (hv == Double.NEGATIVE_INFINITY || prevMain == Double.NEGATIVE_INFINITY) {
                        continue;
                    }
                    double main = byMin ? Math.min(prevMain, hv) : prevMain + hv;
                    double sum = fSum[n - kk] + hv;
                    if (main > nMain[n] || (main == nMain[n] && sum > nSum[n])) {
                        nMain[n] = main;
                        nSum[n] = sum;
                        ch[n] = kk;
                    }
                }
            }
            fMain = nMain;
            fSum = nSum;
            outerChoice[c] = ch;
        }
        if (fMain[total] == Double.NEGATIVE_INFINITY) {
            throw new IllegalStateException("no feasible allocation of " + total + " units");
        }
        return outerChoice;
    }

    private static double[] zeroOnly(int total) {
        double[] z = new double[total + 1];
        Arrays.fill(z, Double.NEGATIVE_INFINITY);
        z[0] = 0;
        return z;
    }

    private static double[] table(AllocationProblem.FlowValue f, int min, int max) {
        double[] v = new double[Math.max(min, max) + 1];
        for (int k = min; k <= max; k++) {
            v[k] = f.at(k);
        }
        return v;
    }

    /** Ω of eq. 2 for an allocation. */
    public static double objective(AllocationProblem p, int[] units) {
        double[] values = new double[units.length];
        for (int f = 0; f < units.length; f++) {
            values[f] = p.value()[f].at(units[f]);
        }
        return objectiveOf(p, values);
    }

    /** Ω of eq. 2 from each flow's utility at its units. */
    private static double objectiveOf(AllocationProblem p, double[] values) {
        double[] perClass = new double[p.classCount()];
        for (int f = 0; f < values.length; f++) {
            perClass[p.classOf()[f]] += values[f];
        }
        if (p.combining() == Combining.SUM) {
            double s = 0;
            for (double v : perClass) {
                s += v;
            }
            return s;
        }
        double m = Double.POSITIVE_INFINITY;
        for (double v : perClass) {
            m = Math.min(m, v);
        }
        return m;
    }
}
