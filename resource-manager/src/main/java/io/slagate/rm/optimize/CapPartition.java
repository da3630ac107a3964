package io.slagate.rm.optimize;

import java.util.Arrays;
import java.util.PriorityQueue;


/**
 * Splits a server's capacity N_s among gateways in proportion to their total shares w_g (eq. 5–6)
 * as integers that sum exactly to N_s: each gateway gets the floor of its quota, and the units
 * left go to the largest remainders (ties: lower gateway index). This is the integer point nearest
 * to the proportional split; no gateway is ever more than one unit away from its quota.
 */
public final class CapPartition {
    private CapPartition() {
    }

    /**
     * Rounds real values that sum to {@code total} (each ≥ {@code min}) to integers with the same
     * sum and the same lower bound: floors, then the units left to the largest remainders.
     */
    public static int[] round(double[] values, int total, int min) {
        int[] out = new int[values.length];
        int given = 0;
        for (int i = 0; i < values.length; i++) {
            out[i] = Math.max(min, (int) Math.floor(values[i] + 1e-9));
            given += out[i];
        }
        if (given == total) {
            return out;
        }
        // one unit at a time to the largest remainder (or from the smallest), a heap instead of a scan per unit: at
        // 100,000 flows the scan made a cycle take seconds. Ties go to the lower index, as the scan's order gave them.
        double[] rem = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            rem[i] = values[i] - out[i];
        }
        boolean up = given < total;
        PriorityQueue<Integer> next = new PriorityQueue<>(Math.max(1, values.length), (a, b) -> {
            int c = up ? Double.compare(rem[b], rem[a]) : Double.compare(rem[a], rem[b]);
            return c != 0 ? c : Integer.compare(a, b);
        });
        for (int i = 0; i < values.length; i++) {
            if (up || out[i] > min) {
                next.add(i);
            }
        }
        while (given != total) {
            Integer i = next.poll();
            if (i == null) {
                throw new IllegalArgumentException("cannot round to " + total + " with every value at least " + min);
            }
            out[i] += up ? 1 : -1;
            rem[i] += up ? -1 : 1;
            given += up ? 1 : -1;
            if (up || out[i] > min) {
                next.add(i);
            }
        }
        return out;
    }

    /**
     * Every server's N_s split among the gateways in proportion to their shares, server by server, each column summing
     * exactly to its N_s, with the rounding carried from one server to the next: a gateway that got less than its
     * quota on one server is first in line for the next one's remainder. So each gateway's total over the servers is
     * within one unit of its total quota even where every per-server quota is below one (hundreds of gateways, a few
     * slots a server); split one server at a time, the same gateways would win every remainder. O(S·G log G).
     *
     * @return {@code out[s][g]}: gateway g's cap on server s
     */
    public static int[][] splitServers(int[] capacity, double[] gatewayShares) {
        int g = gatewayShares.length;
        int[][] out = new int[capacity.length][g];
        if (g == 0) {
            return out;
        }
        double total = 0;
        for (double w : gatewayShares) {
            total += Math.max(0, w);
        }
        double[] carry = new double[g];
        double[] quota = new double[g];
        double[] priority = new double[g];
        double[] sorted = new double[g];
        for (int s = 0; s < capacity.length; s++) {
            if (capacity[s] <= 0) {
                continue;
            }
            int given = 0;
            for (int i = 0; i < g; i++) {
                quota[i] = total > 0 ? capacity[s] * Math.max(0, gatewayShares[i]) / total : (double) capacity[s] / g;
                out[s][i] = (int) Math.floor(quota[i] + 1e-9);
                given += out[s][i];
                // a gateway without a share never takes a remainder
                priority[i] = quota[i] > 0 || total <= 0 ? quota[i] - out[s][i] + carry[i] : Double.NEGATIVE_INFINITY;
            }
            int left = capacity[s] - given;
            if (left > 0) {
                // the remainders go to the `left` largest priorities (ties: the lower index): a primitive sort finds the
                // threshold, not a sort of boxed indices per server
                System.arraycopy(priority, 0, sorted, 0, g);
                Arrays.sort(sorted);
                double threshold = sorted[Math.max(0, g - left)];
                for (int i = 0; i < g && left > 0; i++) {
                    if (priority[i] > threshold) {
                        out[s][i]++;
                        left--;
                    }
                }
                for (int i = 0; i < g && left > 0; i++) {
                    if (priority[i] == threshold && priority[i] != Double.NEGATIVE_INFINITY) {
                        out[s][i]++;
                        left--;
                    }
                }
            }
            for (int i = 0; i < g && given > capacity[s]; i++) { // only from the floor's epsilon: never above N_s
                if (out[s][i] > 0 && quota[i] < out[s][i]) {
                    out[s][i]--;
                    given--;
                }
            }
            for (int i = 0; i < g; i++) {
                carry[i] += quota[i] - out[s][i];
            }
        }
        return out;
    }
}
