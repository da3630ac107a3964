package io.slagate.rm;

import io.slagate.config.ControllerSettings;
import io.slagate.rm.forecast.BestOfForecaster;
import io.slagate.rm.model.FlowObservation;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each flow's arrival-rate forecaster, fed once a cycle, and the rate it puts in force where {@code controller.forecast}
 * says so. Kept across reconfigurations. Fed on the control loop's thread; {@link #errors()} from any thread.
 */
final class Forecasts {
    private static final Logger LOG = LoggerFactory.getLogger(Forecasts.class);
    /** Below this recent relative error a forecast is trusted under {@code forecast: auto}. */
    static final double TRUSTED = 0.2;
    /** Most cycles ahead a forecast reaches: beyond, a trend's noise would count for more than the trend. */
    static final double MAX_STEPS = 10;

    private final Map<String, BestOfForecaster> byFlow = new ConcurrentHashMap<>();
    private final String mode;
    private final double cycleSeconds;

    Forecasts(ControllerSettings controller) {
        this.mode = controller.forecast();
        this.cycleSeconds = controller.cycle().toNanos() / 1e9;
    }

    void keep(Forecasts other) {
        byFlow.putAll(other.byFlow);
    }

    /**
     * The observation with the highest arrival rate the flow will have during the next cycle, where a forecast is in
     * force: always under {@code trend}, under {@code auto} while the forecaster's recent one-cycle error is below
     * {@value #TRUSTED}. Each flow's forecaster sees each cycle's measured rate once. A windowed rate is the mean over
     * the window, centred half a window back, so the next cycle starts (window / 2) / Γ cycles ahead of it and ends one
     * cycle later (at most {@link #MAX_STEPS}); the allocation decided now holds until then, so a rising rate is
     * provisioned for at the cycle's end and a falling one at its start.
     */
    FlowObservation ahead(String flow, FlowObservation o, double windowSeconds) {
        if ("none".equals(mode) || o.isEmpty()) {
            return o;
        }
        BestOfForecaster f = byFlow.computeIfAbsent(flow, k -> BestOfForecaster.standard());
        String before = f.chosen();
        f.observe(o.arrivalRate());
        if (!before.equals(f.chosen())) {
            LOG.info("flow {}: forecasting by {} now (recent one-cycle errors {})", flow, f.chosen(), f.errors());
        }
        double start = Double.isFinite(windowSeconds) && windowSeconds > 0 && cycleSeconds > 0
                ? Math.min(MAX_STEPS - 1, windowSeconds / (2 * cycleSeconds)) : 0.5;
        double rate = Math.max(f.ahead(start), f.ahead(start + 1));
        boolean trusted = "trend".equals(mode) || f.error() < TRUSTED;
        return Double.isFinite(rate) && trusted ? o.withForecast(rate) : o;
    }

    /** Forgets one flow's forecaster (its gateway left or fell silent). */
    void forget(String flow) {
        byFlow.remove(flow);
    }

    /** Per flow, each forecaster's recent one-cycle relative error and the one in use. */
    Map<String, String> errors() {
        Map<String, String> m = new TreeMap<>();
        byFlow.forEach((flow, f) -> m.put(flow, f.chosen() + " " + f.errors()));
        return m;
    }
}
