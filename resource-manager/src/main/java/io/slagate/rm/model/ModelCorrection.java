package io.slagate.rm.model;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Online correction of a response-time model by its own measured error, per flow. Each cycle the
 * manager predicted t(w) for the share it chose; once that share is in force, the measurement says
 * how wrong the prediction was. Two things follow:
 *
 * <ul>
 *   <li>the model error |t_predicted − t_measured| / t_measured, reported per flow and cycle, so an
 *       operator sees when the model is wrong;</li>
 *   <li>a smoothed gain on the predicted <em>change</em>: the level is the measurement's (t~ at w~), the
 *       shape the model's, and the gain scales how strongly the model says t moves with w. A model
 *       that over-reacts (as M/M/1 does for closed-loop clients) is damped; one that under-reacts is
 *       amplified; the gain stays within [1/bound, bound].</li>
 * </ul>
 *
 * Time enters only through the cycles that call it; nothing here reads a clock.
 */
public final class ModelCorrection {
    /** Smoothing of the gain (weight of the newest cycle). */
    static final double SMOOTHING = 0.3;

    /** What was predicted for a flow last cycle, and with which gain (the update compares with the model's own change). */
    private record Pending(double fromSeconds, double fromWeight, double toWeight, double predictedSeconds, double gain) {
    }

    /** An error above this (relative) is reported with what led to it: the model, not the plant, is then wrong. */
    static final double BLOWN = 10;
    private final double bound;
    private Consumer<String> listener;
    private final Map<String, Pending> pending = new HashMap<>();
    private final Map<String, Double> gain = new HashMap<>();
    private final Map<String, Double> error = new HashMap<>();

    /** @param bound the gain's limit (≥ 1, finite): it stays within [1/bound, bound] */
    public ModelCorrection(double bound) {
        if (!(bound >= 1) || !Double.isFinite(bound)) {
            throw new IllegalArgumentException("correction bound must be a finite number ≥ 1, not " + bound);
        }
        this.bound = bound;
    }

    /**
     * A new observation of {@code flow}: if it was measured under the share predicted for it last
     * cycle, updates the flow's error and gain. Observations without a finite response time are ignored.
     */
    public void observe(String flow, FlowObservation o, double resolution) {
        Pending p = pending.remove(flow);
        if (p == null || o.isEmpty() || !Double.isFinite(o.responseSeconds())) {
            return;
        }
        if (Math.abs(o.weight() - p.toWeight()) > Math.max(0.5 * resolution, 0.05 * p.toWeight())) {
            return; // the share predicted for is not the one measured under (not applied yet, or overridden)
        }
        double measured = o.responseSeconds();
        double e = Math.abs(p.predictedSeconds() - measured) / measured;
        error.put(flow, e);
        if (e > BLOWN && listener != null) {
            listener.accept(String.format(Locale.ROOT,
                    "model error %.0f%% for %s: predicted %.4f s at w=%.3f (from t~=%.4f s at w~=%.3f), measured %.4f s (λ~=%.3f, X~=%.3f, S~=%.4f)",
                    100 * e, flow, p.predictedSeconds(), p.toWeight(), p.fromSeconds(), p.fromWeight(), measured, o.arrivalRate(),
                    o.throughput(), o.serviceSeconds()));
        }
        double predictedChange = p.predictedSeconds() - p.fromSeconds();
        double actualChange = measured - p.fromSeconds();
        if (Math.abs(predictedChange) > 0.02 * p.fromSeconds() && Math.abs(p.toWeight() - p.fromWeight()) > 0) {
            // the prediction carried the gain of its cycle: the model's own change was predictedChange / gain
            double g = Math.max(1 / bound, Math.min(bound, p.gain() * actualChange / predictedChange));
            double old = gain.getOrDefault(flow, 1.0);
            gain.put(flow, Math.max(1 / bound, Math.min(bound, (1 - SMOOTHING) * old + SMOOTHING * g)));
        }
    }

    /** The corrected prediction: the measured level at w~ plus the model's change from w~ to w, scaled by the gain. */
    public double predict(String flow, ResponseTimeModel model, FlowObservation o, double w) {
        double raw = model.predictSeconds(o, w);
        if (o.isEmpty()) {
            return raw;
        }
        // the model's change from what was measured (w~ at the window's rate) to what is asked (w at the rate ahead)
        double at = model.predictSeconds(o.withoutForecast(), o.weight());
        double corrected = o.responseSeconds() + gain.getOrDefault(flow, 1.0) * (raw - at);
        return Double.isFinite(corrected) ? Math.max(corrected, 1e-9) : raw;
    }

    /**
     * The corrected quantile at probability p: the level measured at w~ (the gateway's percentile, or
     * the model's own where none was measured) plus the model's change from w~ to w, scaled by the
     * gain the mean's errors taught — one gain per flow, since both describe the same queue.
     */
    public double predictQuantile(String flow, ResponseTimeModel model, FlowObservation o, double w, double p) {
        double raw = model.predictQuantileSeconds(o, w, p);
        if (o.isEmpty()) {
            return raw;
        }
        double at = model.predictQuantileSeconds(o.withoutForecast(), o.weight(), p);
        double level = o.percentileSeconds() > 0 && Double.isFinite(o.percentileSeconds()) ? o.percentileSeconds() : at;
        double corrected = level + gain.getOrDefault(flow, 1.0) * (raw - at);
        return Double.isFinite(corrected) ? Math.max(corrected, 1e-9) : raw;
    }

    /** Where to say when a prediction missed by more than {@value #BLOWN} times the measurement (null: nowhere). */
    public void onBlownPrediction(Consumer<String> listener) {
        this.listener = listener;
    }

    /** Records what was predicted for the share chosen, to be compared with the next measurement. */
    public void predicted(String flow, FlowObservation o, double chosenWeight, double predictedSeconds) {
        if (!o.isEmpty() && Double.isFinite(predictedSeconds)) {
            pending.put(flow, new Pending(o.responseSeconds(), o.weight(), chosenWeight, predictedSeconds, gain(flow)));
        }
    }

    /** The last measured model error of the flow (relative), or NaN when there is none yet. */
    public double error(String flow) {
        return error.getOrDefault(flow, Double.NaN);
    }

    public double gain(String flow) {
        return gain.getOrDefault(flow, 1.0);
    }

    /** Forgets flows that no longer exist. */
    public void retain(Set<String> flows) {
        pending.keySet().retainAll(flows);
        gain.keySet().retainAll(flows);
        error.keySet().retainAll(flows);
    }
}
