package io.slagate.rm.model;


/**
 * What was measured for one flow (g,c) over the last window: the arrival rate λ~ (requests/s), the
 * mean response time t~ (s, queueing at the gateway included) and the share w~ (in server slots) it
 * had meanwhile; and, where the gateway reports them, the throughput X~ (completions/s) and the mean
 * service time S~ (s, from admission to the server's answer); and, for a class with a percentile goal,
 * the response time measured at that percentile (s; NaN otherwise); and the arrival rate forecast for the
 * next cycle (NaN: none in force).
 */
public record FlowObservation(double arrivalRate, double responseSeconds, double weight, double throughput,
                              double serviceSeconds, double percentileSeconds, double forecastRate) {
    public static final FlowObservation NONE = new FlowObservation(0, 0, 0);

    public FlowObservation(double arrivalRate, double responseSeconds, double weight, double throughput, double serviceSeconds) {
        this(arrivalRate, responseSeconds, weight, throughput, serviceSeconds, Double.NaN);
    }

    public FlowObservation(double arrivalRate, double responseSeconds, double weight, double throughput, double serviceSeconds,
                           double percentileSeconds) {
        this(arrivalRate, responseSeconds, weight, throughput, serviceSeconds, percentileSeconds, Double.NaN);
    }

    /**
     * The arrival rate to predict for: the forecast one cycle ahead where one is in force, else
     * the window's. The open models (M/M/1's eq. 9, Erlang C) take it; what was measured at w~ (eq. 8's μ,
     * the correction's level) stays the window's.
     */
    public double rateAhead() {
        return forecastRate >= 0 && Double.isFinite(forecastRate) ? forecastRate : arrivalRate;
    }

    /** The same observation predicting for the window's own rate. */
    public FlowObservation withoutForecast() {
        return Double.isNaN(forecastRate) ? this
                : new FlowObservation(arrivalRate, responseSeconds, weight, throughput, serviceSeconds, percentileSeconds, Double.NaN);
    }

    /** The same observation predicting for {@code rate} next cycle. */
    public FlowObservation withForecast(double rate) {
        return new FlowObservation(arrivalRate, responseSeconds, weight, throughput, serviceSeconds, percentileSeconds, rate);
    }

    /** Without throughput and service time (the paper's inputs only): the M/M/1 model needs no more. */
    public FlowObservation(double arrivalRate, double responseSeconds, double weight) {
        this(arrivalRate, responseSeconds, weight, arrivalRate, Double.NaN);
    }

    /** True when there is nothing to predict from: no traffic, or no completed request measured. */
    public boolean isEmpty() {
        return !(arrivalRate > 0) || !(responseSeconds > 0) || !(weight > 0);
    }

    /**
     * Whether requests arrived and none was answered within the window (the first requests of a flow still queued, or
     * every one refused): its response time is unknown, not zero, and a model fed zero would give it nothing.
     */
    public boolean unanswered() {
        return arrivalRate > 0 && !(responseSeconds > 0);
    }

    /** A flow whose arrivals outran its throughput by more than this share of them was measured in overload. */
    public static final double OVERLOAD = 0.05;

    /** Whether its arrivals outran its throughput by more than {@value #OVERLOAD} of them: a queue growing meanwhile. */
    public boolean overloaded() {
        return throughput < (1 - OVERLOAD) * arrivalRate;
    }

    /** Whether its answers outran its arrivals by more than {@value #OVERLOAD} of them: a queue draining meanwhile. */
    public boolean draining() {
        return throughput > (1 + OVERLOAD) * arrivalRate;
    }

    /** Whether the service time was measured (models other than M/M/1 need it). */
    public boolean hasServiceTime() {
        return serviceSeconds > 0 && Double.isFinite(serviceSeconds) && serviceSeconds <= responseSeconds * 1.0001;
    }
}
