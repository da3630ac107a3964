package io.slagate.rm;

import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.config.SlagateConfig;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a resource manager shows of itself, one immutable value taken on its own thread after each cycle and each
 * message it handled: the console, the experiments and the tests read this, never the manager's working state, so
 * none of them races the loop.
 *
 * @param cycles         control cycles run since start
 * @param active         whether this manager is the active one, which alone publishes allocations ({@link Standing})
 * @param config         the configuration decided with now (the console's, a tuner's change, pool moves applied)
 * @param lastDecision   the last decision published, or null before the first
 * @param lastAllocation the last allocation published, or null before the first
 * @param counts         what the manager counted
 * @param pools          the moves between pools
 * @param figures        per flow, server and pool, the figures of the last cycle
 */
public record ControlStatus(long cycles, boolean active, SlagateConfig config, DecisionMessage lastDecision,
                            AllocationMessage lastAllocation, Counts counts, Pools pools, Figures figures) {

    /** The pool each server serves now, by id (the configuration's, pool moves applied). */
    public Map<String, String> serverPools() {
        return PoolMoves.serverPools(config);
    }

    /**
     * @param changeCycles          cycles run at once for a detected change of a flow's load or response time
     * @param flashCrowdCycles      cycles run at once for a flash crowd
     * @param predictionsOutOfRange corrected response-time predictions that were not a positive number (then floored)
     * @param refusedMessages       bus messages not believed: unjoined or impersonated gateways, a full roster, implausible versions
     */
    public record Counts(long changeCycles, long flashCrowdCycles, long predictionsOutOfRange, long refusedMessages) {
    }

    /**
     * @param pins        the servers the operator pinned to their pool
     * @param moves       servers moved between pools since start
     * @param refusedMoves moves reverted because the server refused its new pool
     * @param moveLog     the last moves, oldest first
     */
    public record Pools(Set<String> pins, long moves, long refusedMoves, List<String> moveLog) {
        public Pools {
            pins = Set.copyOf(pins);
            moveLog = List.copyOf(moveLog);
        }
    }

    /**
     * @param forecastErrors per flow, the forecaster in use and each one's recent one-cycle error
     * @param sideUtilities  the first tuning partition's safe and experimental side's utilities (NaN without tuning or traffic)
     * @param concurrency    per server with {@code concurrency: auto}, the N_s found
     * @param deficitServers per pool, the servers of its mean size to add for every class to meet its goals (−1: more
     *                       would not help)
     */
    public record Figures(Map<String, String> forecastErrors, double[] sideUtilities, Map<String, Integer> concurrency,
                          Map<String, Double> deficitServers) {
        public Figures {
            forecastErrors = Map.copyOf(forecastErrors);
            sideUtilities = sideUtilities.clone();
            concurrency = Map.copyOf(concurrency);
            deficitServers = Map.copyOf(deficitServers);
        }

        @Override
        public double[] sideUtilities() {
            return sideUtilities.clone();
        }

        /** The automatic N_s of a server, or −1 for a server without {@code concurrency: auto} (or before its first cycle). */
        public int concurrencyOf(String server) {
            return concurrency.getOrDefault(server, -1);
        }

        /** A pool's capacity deficit in servers; NaN before a cycle sized it. */
        public double deficitServersOf(String pool) {
            return deficitServers.getOrDefault(pool, Double.NaN);
        }
    }
}
