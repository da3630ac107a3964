package io.slagate.rm.model;

import java.util.List;

/**
 * Predicts a flow's response time if it were given w server slots, from what was observed at the
 * share it had. The M/M/1 approximation of the paper ({@link MM1Model}) is one; the closed population
 * model ({@link ClosedPopulationModel}), open M/M/m ({@link ErlangCModel}) and the per-flow choice
 * between them ({@link AutoModel}) are the others.
 */
public interface ResponseTimeModel {
    /**
     * @return the predicted mean response time in seconds; finite and non-decreasing as w shrinks,
     *         with unstable allocations mapped above {@link #UNSTABLE_SECONDS}, so that an
     *         optimizer still sees which unstable choice is least bad
     */
    double predictSeconds(FlowObservation observed, double w);

    /**
     * The predicted response time at probability {@code p} in (0, 1) (e.g. 0.95), at share w. The
     * default takes the response time as exponential with the predicted mean — exact for M/M/1 under
     * FCFS (the sojourn time is Exp(μ − λ)): t_p = t(w) · (−ln(1 − p)).
     */
    default double predictQuantileSeconds(FlowObservation observed, double w, double p) {
        double mean = predictSeconds(observed, w);
        return mean >= UNSTABLE_SECONDS ? mean : Math.min(exponentialQuantile(mean, p), UNSTABLE_SECONDS);
    }

    /** The quantile at probability p of an exponential response time of this mean: mean · (−ln(1 − p)). */
    static double exponentialQuantile(double mean, double p) {
        return mean * -Math.log1p(-p);
    }

    /**
     * The response time no share can beat for this flow: 0 where a share scales the service rate (the paper's M/M/1),
     * the measured service time where a share is a number of slots each serving at the measured rate.
     */
    default double floorSeconds(FlowObservation observed) {
        return observed.hasServiceTime() ? observed.serviceSeconds() : 0;
    }

    /** The name {@code controller.model} selects it by. */
    String name();

    /** The model actually used for this flow (differs from {@link #name} only for a model that picks per flow). */
    default String nameFor(FlowObservation observed) {
        return name();
    }

    /** The names {@code controller.model} accepts. */
    List<String> NAMES = List.of("auto", "closed", "mmm", "mm1");

    /** Predictions at or above this mean "the queue grows without bound" (utilization ≥ 1). */
    double UNSTABLE_SECONDS = 3600;

    static ResponseTimeModel named(String name) {
        return switch (name) {
            case "mm1" -> new MM1Model();
            case "mmm" -> new ErlangCModel();
            case "closed" -> new ClosedPopulationModel();
            case "auto" -> new AutoModel();
            default -> throw new IllegalArgumentException("unknown response-time model " + name + "; known: " + String.join(", ", NAMES));
        };
    }
}
