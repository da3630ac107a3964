package io.slagate.rm.model;

/**
 * Predicts a flow's response time if it were given w server slots, from what was observed at the
 * share it had. The M/M/1 approximation of the paper ({@link MM1Model}) is one; a closed queueing
 * network or M/M/m model (the paper's future work) would be another.
 */
public interface ResponseTimeModel {
    /**
     * @return the predicted mean response time in seconds; finite and non-decreasing as w shrinks,
     *         with unstable allocations mapped above {@link #UNSTABLE_SECONDS}, so that an
     *         optimizer still sees which unstable choice is least bad
     */
    double predictSeconds(FlowObservation observed, double w);

    /** Predictions at or above this mean "the queue grows without bound" (utilization ≥ 1). */
    double UNSTABLE_SECONDS = 3600;

    static ResponseTimeModel named(String name) {
        if ("mm1".equals(name)) {
            return new MM1Model();
        }
        throw new IllegalArgumentException("unknown response-time model " + name + "; known: mm1");
    }
}
