package io.slagate.rm.forecast;


/**
 * A flow's arrival rate one control cycle ahead, fed once per cycle with the window's
 * measured rate. Time enters only through the calls.
 */
public interface Forecaster {
    /** Takes this cycle's measured rate; returns the rate forecast for the next cycle. */
    double observe(double rate);

    /**
     * The rate {@code steps} cycles after the last observation (a fraction allowed): where the observed rates are
     * windowed, the window's centre lags the present, and the rate during the next cycle is several steps ahead of
     * it. NaN before two observations.
     */
    double ahead(double steps);

    /** The last forecast (NaN before two observations). */
    double forecast();

    /**
     * The recent relative error of its one-cycle-ahead forecasts, |forecast − measured| / measured,
     * smoothed (NaN until one forecast was checked).
     */
    double error();
}
