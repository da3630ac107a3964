package io.slagate.rm.forecast;


/** A forecaster's recent relative error |forecast − measured| / measured, exponentially smoothed. */
final class ForecastError {
    private static final double SMOOTHING = 0.3;
    private double value = Double.NaN;

    /** Scores the forecast made for this cycle against what was measured (skipped before the first forecast). */
    void check(double forecast, double measured) {
        if (Double.isNaN(forecast) || !(measured > 0)) {
            return;
        }
        double e = Math.abs(forecast - measured) / measured;
        value = Double.isNaN(value) ? e : (1 - SMOOTHING) * value + SMOOTHING * e;
    }

    double value() {
        return value;
    }
}
