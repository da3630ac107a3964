package io.slagate.rm.model;

/**
 * What was measured for one flow (g,c) over the last window: the arrival rate λ~ (requests/s), the
 * mean response time t~ (s) and the share w~ (in server slots) it had meanwhile.
 */
public record FlowObservation(double arrivalRate, double responseSeconds, double weight) {
    public static final FlowObservation NONE = new FlowObservation(0, 0, 0);

    /** True when there is nothing to predict from: no traffic, or no completed request measured. */
    public boolean isEmpty() {
        return !(arrivalRate > 0) || !(responseSeconds > 0) || !(weight > 0);
    }
}
