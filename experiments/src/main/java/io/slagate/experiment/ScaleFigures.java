package io.slagate.experiment;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** The scale experiment's arithmetic, apart so that it is tested on inputs whose answer is known. */
final class ScaleFigures {
    private ScaleFigures() {
    }

    /** The nearest-rank q-quantile (0 < q ≤ 1) of {@code values}; NaN when there are none. +∞ values count as the largest. */
    static double quantile(double[] values, double q) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    /**
     * Per allocation version, the time until {@code share} of the {@code gateways} had applied it: the latency of the
     * ⌈share·G⌉-th gateway to apply it; +∞ for a version fewer than that many gateways applied (lost for them).
     */
    static double[] fanOut(Map<Long, List<Long>> latenciesByVersion, int gateways, double share) {
        int needed = (int) Math.ceil(share * gateways);
        double[] out = new double[latenciesByVersion.size()];
        int i = 0;
        for (List<Long> latencies : latenciesByVersion.values()) {
            if (latencies.size() < needed) {
                out[i++] = Double.POSITIVE_INFINITY;
                continue;
            }
            long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
            out[i++] = sorted[needed - 1];
        }
        return out;
    }

    /**
     * How a cost grows from {@code fewGateways} to {@code manyGateways}, against linear growth: the cost ratio over the
     * gateway ratio (1: linear; below: sub-linear; above: faster than linear).
     */
    static double againstLinear(double costFew, int fewGateways, double costMany, int manyGateways) {
        return (costMany / costFew) / ((double) manyGateways / fewGateways);
    }
}
