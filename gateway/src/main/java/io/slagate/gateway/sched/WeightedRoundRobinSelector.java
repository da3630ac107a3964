package io.slagate.gateway.sched;


/**
 * Weighted round-robin over class queues with a dynamic boundary (section III-A): a cycle of
 * length w_g in which class c has an interval of length w_{g,c}, measured in concurrently executing
 * requests rather than in turns, so that "during contention class c executes at least w_{g,c}
 * requests" holds whatever the classes' service times are.
 *
 * <p>Each decision goes, in order:
 * <ol>
 *   <li>to a backlogged class executing fewer than its guaranteed ⌊C·w_c/w_g⌋ requests (C: the
 *       pool's capacity), the one furthest below in proportion to its weight;</li>
 *   <li>otherwise to the backlogged class whose executing count is furthest below its fractional
 *       target among the contending classes, plus the error it accumulated over past decisions.
 *       The accumulated error (sigma-delta rounding) is what lets fractional weights such as
 *       8.3 : 1.7 hold in the long run: the executing mix alternates between 8:2 and 9:1 in the
 *       proportion that averages to 8.3 : 1.7.</li>
 * </ol>
 * Work-conserving: a class with a waiting request is never passed over for an idle slot; an idle
 * class's share goes to the contending ones (the boundary moves), and its error is reset so that it
 * cannot bank credit while idle.
 */
final class WeightedRoundRobinSelector implements ClassSelector {
    private final double[] error;

    WeightedRoundRobinSelector(int queueCount) {
        this.error = new double[queueCount];
    }

    @Override
    public int select(int[] queues, boolean[] backlogged, int[] executing, Allocation allocation, int capacity) {
        double totalWeight = 0;
        double contendingWeight = 0;
        int contendingExecuting = 0;
        int below = -1;
        double belowScore = Double.MAX_VALUE;
        for (int q : queues) {
            totalWeight += allocation.weight(q);
        }
        for (int i = 0; i < queues.length; i++) {
            int q = queues[i];
            double w = allocation.weight(q);
            if (!backlogged[i]) {
                continue;
            }
            contendingWeight += w;
            contendingExecuting += executing[i];
            int guaranteed = (int) Math.floor(capacity * w / totalWeight + 1e-9);
            if (executing[i] < guaranteed) {
                double score = executing[i] / w;
                if (score < belowScore) {
                    belowScore = score;
                    below = i;
                }
            }
        }
        if (contendingWeight == 0) {
            return -1;
        }
        int chosen = below;
        int after = contendingExecuting + 1;
        if (chosen < 0) {
            double best = -Double.MAX_VALUE;
            for (int i = 0; i < queues.length; i++) {
                if (!backlogged[i]) {
                    continue;
                }
                double target = after * allocation.weight(queues[i]) / contendingWeight;
                double score = error[queues[i]] + target - executing[i];
                if (score > best) {
                    best = score;
                    chosen = i;
                }
            }
        }
        // Accumulate each contender's deviation from its target after this decision, bounded so that
        // a long stretch where the guarantee overrides the rounding cannot wind the error up.
        for (int i = 0; i < queues.length; i++) {
            int q = queues[i];
            if (!backlogged[i]) {
                error[q] = 0;
                continue;
            }
            double target = after * allocation.weight(q) / contendingWeight;
            int executingAfter = executing[i] + (i == chosen ? 1 : 0);
            error[q] = Math.max(-capacity, Math.min(capacity, error[q] + target - executingAfter));
        }
        return chosen;
    }
}
