package io.slagate.rm.forecast;


/**
 * A least-squares line through the last {@code k} cycles' rates, extrapolated. Unlike Holt's trend it forgets
 * everything older than its window at once, so after a ramp ends it stops extrapolating within k cycles, and
 * noise older than the window does not linger in its slope. Its own one-cycle error is tracked like Holt's.
 */
public final class RegressionForecaster implements Forecaster {
    private final double[] ring;
    private int seen;
    private double forecast = Double.NaN;
    private final ForecastError error = new ForecastError();
    /** The fitted line at the last observation (x = 0) and its slope per cycle. */
    private double intercept = Double.NaN;
    private double slope;

    /** @param k how many recent cycles the line is fitted to (at least 2) */
    public RegressionForecaster(int k) {
        if (k < 2) {
            throw new IllegalArgumentException("a line needs at least 2 points: " + k);
        }
        this.ring = new double[k];
    }

    @Override
    public double observe(double rate) {
        if (!Double.isFinite(rate) || rate < 0) {
            return forecast;
        }
        error.check(forecast, rate);
        ring[seen % ring.length] = rate;
        seen++;
        int n = Math.min(seen, ring.length);
        if (n < 2) {
            return forecast;
        }
        // x = -(n-1) .. 0 for the oldest .. newest; closed-form least squares
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (int i = 0; i < n; i++) {
            double x = -i;
            double y = ring[Math.floorMod(seen - 1 - i, ring.length)];
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
        intercept = (sy - slope * sx) / n;
        forecast = Math.max(0, intercept + slope);
        return forecast;
    }

    @Override
    public double ahead(double steps) {
        return Double.isNaN(forecast) ? Double.NaN : Math.max(0, intercept + steps * slope);
    }

    @Override
    public double forecast() {
        return forecast;
    }

    @Override
    public double error() {
        return error.value();
    }
}
