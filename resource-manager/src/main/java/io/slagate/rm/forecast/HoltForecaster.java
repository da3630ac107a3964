package io.slagate.rm.forecast;


/**
 * Holt's linear trend (double exponential smoothing): a level and a trend per cycle, each smoothed, and the
 * forecast level + trend. On a ramp it is a cycle ahead of the last window, where the last window is always
 * a cycle behind; on a flat series it is the smoothed level. Its own error is tracked so that a caller can
 * trust it only while it is small.
 */
public final class HoltForecaster implements Forecaster {
    private final double alpha;
    private final double beta;
    private double level = Double.NaN;
    private double trend;
    private double forecast = Double.NaN;
    private final ForecastError error = new ForecastError();
    private int seen;

    /** @param alpha the level's smoothing, {@code beta} the trend's, both in (0, 1] */
    public HoltForecaster(double alpha, double beta) {
        if (!(alpha > 0 && alpha <= 1 && beta > 0 && beta <= 1)) {
            throw new IllegalArgumentException("smoothing factors must be in (0, 1]: " + alpha + ", " + beta);
        }
        this.alpha = alpha;
        this.beta = beta;
    }

    @Override
    public double observe(double rate) {
        if (!Double.isFinite(rate) || rate < 0) {
            return forecast; // a broken measurement teaches nothing
        }
        error.check(forecast, rate);
        seen++;
        if (seen == 1) {
            level = rate;
            trend = 0;
            return forecast; // one point: no trend yet
        }
        double previous = level;
        level = alpha * rate + (1 - alpha) * (level + trend);
        trend = beta * (level - previous) + (1 - beta) * trend;
        forecast = Math.max(0, level + trend);
        return forecast;
    }

    @Override
    public double ahead(double steps) {
        return Double.isNaN(forecast) ? Double.NaN : Math.max(0, level + steps * trend);
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
