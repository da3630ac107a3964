package io.slagate.bus.message;

import java.util.List;
import java.util.Map;

/**
 * What the resource manager saw and decided in one control cycle, for the console and the log:
 * per flow (g,c) the measured λ~, t~, w~, the predicted response time and utility at the new w; for
 * a class with a percentile goal, the predicted response time at that percentile (NaN otherwise); and the
 * N_s of each {@code concurrency: auto} server; per flow, the arrival rate it predicted for when a forecast
 * was in force (NaN otherwise); where {@code controller.tuning} is configured, each tuning partition's state (else
 * empty); and per pool, the capacity signal an autoscaler reads. {@code cycleCpuMillis}: the CPU time the manager's
 * control thread spent on the cycle (the solve, every gateway's part encoded and sent), NaN where not measured; reports
 * are decoded on the bus's threads as they arrive, not in it.
 */
public record DecisionMessage(int schema, long version, long timestampMillis, String managerId, boolean paused,
                              double clusterUtility, double solveMillis, List<FlowDecision> flows,
                              List<ServerDecision> servers, List<TuningStatus> tuning, List<PoolCapacity> capacity,
                              double cycleCpuMillis)
        implements BusMessage {
    /** The most tuning partitions a decision carries (each carries its trials). */
    public static final int MAX_PARTITIONS = 16;

    public DecisionMessage {
        flows = List.copyOf(flows);
        servers = servers == null ? List.of() : List.copyOf(servers);
        tuning = tuning == null ? List.of() : List.copyOf(tuning.subList(0, Math.min(MAX_PARTITIONS, tuning.size())));
        capacity = capacity == null ? List.of() : List.copyOf(capacity);
    }

    public DecisionMessage(int schema, long version, long timestampMillis, String managerId, boolean paused,
                           double clusterUtility, double solveMillis, List<FlowDecision> flows, List<ServerDecision> servers,
                           List<TuningStatus> tuning, List<PoolCapacity> capacity) {
        this(schema, version, timestampMillis, managerId, paused, clusterUtility, solveMillis, flows, servers, tuning, capacity, Double.NaN);
    }

    public DecisionMessage(int schema, long version, long timestampMillis, String managerId, boolean paused,
                           double clusterUtility, double solveMillis, List<FlowDecision> flows, List<ServerDecision> servers,
                           List<TuningStatus> tuning) {
        this(schema, version, timestampMillis, managerId, paused, clusterUtility, solveMillis, flows, servers, tuning, List.of());
    }

    public DecisionMessage(int schema, long version, long timestampMillis, String managerId, boolean paused,
                           double clusterUtility, double solveMillis, List<FlowDecision> flows, List<ServerDecision> servers) {
        this(schema, version, timestampMillis, managerId, paused, clusterUtility, solveMillis, flows, servers, List.of());
    }

    public DecisionMessage(int schema, long version, long timestampMillis, String managerId, boolean paused,
                           double clusterUtility, double solveMillis, List<FlowDecision> flows) {
        this(schema, version, timestampMillis, managerId, paused, clusterUtility, solveMillis, flows, List.of(), List.of());
    }

    /** This decision with the tuners' states, one per partition. */
    public DecisionMessage withTuning(List<TuningStatus> t) {
        return new DecisionMessage(schema, version, timestampMillis, managerId, paused, clusterUtility, solveMillis, flows, servers, t,
                capacity, cycleCpuMillis);
    }

    /** This decision with the CPU time its cycle took on the manager's control thread. */
    public DecisionMessage withCycleCpuMillis(double ms) {
        return new DecisionMessage(schema, version, timestampMillis, managerId, paused, clusterUtility, solveMillis, flows, servers, tuning,
                capacity, ms);
    }

    /** The status of the partition named {@code name}, or null. */
    public TuningStatus tuning(String name) {
        return tuning.stream().filter(t -> t.partition().equals(name)).findFirst().orElse(null);
    }

    /**
     * One partition's online tuner: the partition's name, its state, the knobs it tunes, the best configuration's values (the safe side's),
     * the safe side's utility before tuning, both sides' utilities at this cycle, and the latest trials (at most
     * {@value #MAX_TRIALS}, oldest first).
     */
    public record TuningStatus(String partition, String state, List<String> knobs, List<Double> best, double baselineUtility, double safeUtility,
                               double experimentalUtility, List<TuningTrial> trials) {
        public static final int MAX_TRIALS = 50;

        public TuningStatus {
            partition = partition == null ? "default" : partition.length() > 64 ? partition.substring(0, 64) : partition;
            knobs = knobs == null ? List.of() : List.copyOf(knobs);
            best = best == null ? List.of() : List.copyOf(best);
            trials = trials == null ? List.of() : List.copyOf(trials.subList(Math.max(0, trials.size() - MAX_TRIALS), trials.size()));
        }
    }

    /** One trial: its knob values, both sides' mean utilities over its period (NaN when not measured), how it ended. */
    public record TuningTrial(int number, List<Double> values, double experimental, double safe, String outcome) {
        public TuningTrial {
            values = values == null ? List.of() : List.copyOf(values);
            if (outcome != null && outcome.length() > 300) {
                outcome = outcome.substring(0, 300) + "…";
            }
        }
    }

    /**
     * One pool's capacity signal (the median over the stabilization span): the slots it has, the slots every class needs
     * to meet its target (NaN: no number of servers can), servers to add (negative: that could go; NaN: none would help),
     * and per class the slots its flows need.
     */
    public record PoolCapacity(String pool, int haveSlots, double neededSlots, double servers, Map<String, Double> neededByClass) {
        public PoolCapacity {
            neededByClass = neededByClass == null ? Map.of() : Map.copyOf(neededByClass);
        }
    }

    /** A {@code concurrency: auto} server: the N_s the manager holds, its knee estimate (NaN until measured) and why. */
    public record ServerDecision(String serverId, int concurrency, double knee, String reason) {
    }

    public record FlowDecision(String gatewayId, String className, double arrivalRate, double observedSeconds,
                               double previousWeight, double weight, double predictedSeconds, double utility,
                               boolean pinned, String model, double modelError, double modelGain,
                               double predictedPercentileSeconds, double forecastRate) {
        /** Without a forecast in force. */
        public FlowDecision(String gatewayId, String className, double arrivalRate, double observedSeconds,
                            double previousWeight, double weight, double predictedSeconds, double utility,
                            boolean pinned, String model, double modelError, double modelGain,
                            double predictedPercentileSeconds) {
            this(gatewayId, className, arrivalRate, observedSeconds, previousWeight, weight, predictedSeconds, utility, pinned, model,
                    modelError, modelGain, predictedPercentileSeconds, Double.NaN);
        }
    }
}
