package io.slagate.rm;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pool's allocation problem for one cycle: its classes, its flows as observed, its N slots in units of the
 * resolution, and what is left of them once the pinned and kept flows have theirs. Immutable.
 *
 * @param slots          N: the pool's slots this cycle, Σ N_s
 * @param units          the units the free flows share (N / resolution less the fixed flows' units)
 * @param minUnits       each free flow's minimum units
 * @param free           the indexes into {@code flows} of the flows the optimizer places
 * @param slotsPerServer the pool's mean configured N_s (the capacity signal counts servers in it)
 */
record PoolProblem(String pool, List<Integer> classes, PoolFlows flows, int slots, double resolution, int units, int minUnits,
                   List<Integer> free, double slotsPerServer) {
    private static final Logger LOG = LoggerFactory.getLogger(PoolProblem.class);

    PoolProblem {
        classes = List.copyOf(classes);
        free = List.copyOf(free);
    }

    /**
     * The problem of {@code pool} with {@code slots} slots: a flow with a fixed weight takes its units first; when the
     * rest cannot give each free flow {@code minWeight}, a warning names the pool and the minimum becomes the equal split.
     */
    static PoolProblem of(String pool, List<Integer> classes, PoolFlows flows, int slots, ControlSetup setup) {
        double resolution = setup.resolution();
        int fixedUnits = 0;
        List<Integer> free = new ArrayList<>();
        for (int i = 0; i < flows.size(); i++) {
            Double fixed = flows.get(i).fixed();
            if (fixed != null) {
                fixedUnits += (int) Math.round(fixed / resolution);
            } else {
                free.add(i);
            }
        }
        int units = Math.max(0, (int) Math.floor(slots / resolution + 1e-9) - fixedUnits);
        double minWeight = setup.config.controller().minWeight();
        int minUnits = (int) Math.round(minWeight / resolution);
        if (!free.isEmpty() && flows.anyTraffic() && (long) minUnits * free.size() > units) {
            int equal = units / free.size();
            LOG.warn("pool {}: N = {} is smaller than {} flows × minimum weight {}; each flow's minimum becomes {}",
                    pool, slots, free.size(), minWeight, equal * resolution);
            minUnits = equal;
        }
        double perServer = setup.serversOf(pool).stream().mapToInt(s -> s.concurrency()).average().orElse(1);
        return new PoolProblem(pool, classes, flows, slots, resolution, units, minUnits, free, perServer);
    }

    /** The j-th free flow. */
    PoolFlows.Flow freeFlow(int j) {
        return flows.get(free.get(j));
    }

    /** The free flows' keys, in order (the damper's memory is keyed by them). */
    List<String> freeKeys() {
        List<String> keys = new ArrayList<>(free.size());
        free.forEach(i -> keys.add(flows.get(i).key()));
        return keys;
    }
}
