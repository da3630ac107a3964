package io.slagate.rm.forecast;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs several forecasters side by side on the same series and answers with the one whose recent one-cycle
 * error is smallest (pick the forecaster by its measured error). Each keeps learning whether or not it
 * is the one in use, so the choice can change when the series does.
 */
public final class BestOfForecaster implements Forecaster {
    /** Another forecaster takes over only when its recent error is this share below the current one's. */
    static final double SWITCH_MARGIN = 0.2;
    private final List<Forecaster> candidates;
    private final List<String> names;
    private int best;

    public BestOfForecaster(List<String> names, List<Forecaster> candidates) {
        if (candidates.isEmpty() || names.size() != candidates.size()) {
            throw new IllegalArgumentException("one name per candidate, at least one candidate");
        }
        this.candidates = List.copyOf(candidates);
        this.names = List.copyOf(names);
    }

    /** Holt's trend and a 5-cycle regression, the pair slagate's {@code forecast: trend|auto} chooses between. */
    public static BestOfForecaster standard() {
        return new BestOfForecaster(List.of("holt", "regression"), List.of(new HoltForecaster(0.5, 0.3), new RegressionForecaster(5)));
    }

    @Override
    public double observe(double rate) {
        for (Forecaster f : candidates) {
            f.observe(rate);
        }
        int pick = best;
        for (int i = 0; i < candidates.size(); i++) {
            double e = candidates.get(i).error();
            double b = candidates.get(pick).error();
            // a switch needs a clear margin, so that two forecasters about as good do not take turns every cycle
            if (!Double.isNaN(e) && (Double.isNaN(b) || e < b * (1 - SWITCH_MARGIN))) {
                pick = i;
            }
        }
        best = pick;
        return forecast();
    }

    @Override
    public double ahead(double steps) {
        return candidates.get(best).ahead(steps);
    }

    @Override
    public double forecast() {
        return candidates.get(best).forecast();
    }

    @Override
    public double error() {
        return candidates.get(best).error();
    }

    /** The name of the forecaster in use. */
    public String chosen() {
        return names.get(best);
    }

    /** Each candidate's recent one-cycle error, by name (NaN until it was checked). */
    public Map<String, Double> errors() {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < candidates.size(); i++) {
            m.put(names.get(i), candidates.get(i).error());
        }
        return m;
    }
}
