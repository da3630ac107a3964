package io.slagate.rm.model;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Online correction of a response-time model by its own measured error, per flow. Each cycle the
 * manager decides from a measurement (t~ at w~ and λ~); the next measurement says how far the model's
 * change from there to the next measurement's own share and rate was from what happened. Two things follow:
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

    /** What a flow was measured at when the manager last decided for it, and the gain its prediction then carried. */
    private record Pending(FlowObservation from, double gain) {
    }

    /** A flow whose arrivals outran its throughput by more than this share of them was measured in overload. */
    static final double OVERLOAD = 0.05;

    private static boolean overloaded(FlowObservation o) {
        return o.throughput() < (1 - OVERLOAD) * o.arrivalRate();
    }

    /** An error above this (relative) is reported with what led to it: the model, not the plant, is then wrong. */
    static final double BLOWN = 10;
    private final double bound;
    private Consumer<String> listener;
    private final Map<String, Pending> pending = new HashMap<>();
    private final Map<String, Double> gain = new HashMap<>();
    private final Map<String, Double> error = new HashMap<>();
    /** Corrected predictions that came out non-positive or non-finite: kept across reconfigurations by {@link #countFrom}. */
    private final AtomicLong outOfRange = new AtomicLong();

    /** @param bound the gain's limit (≥ 1, finite): it stays within [1/bound, bound] */
    public ModelCorrection(double bound) {
        if (!(bound >= 1) || !Double.isFinite(bound)) {
            throw new IllegalArgumentException("correction bound must be a finite number ≥ 1, not " + bound);
        }
        this.bound = bound;
    }

    /**
     * A new observation of {@code flow}: judges the model by the change it predicts from the observation the last
     * decision was made at to the share and arrival rate measured now, and updates the flow's error and, where the
     * share moved, its gain. The inputs are the measurement's own. Not the share chosen: a window spans several
     * cycles, so what it measured ran partly under the shares before. Not the rate forecast, which the forecaster
     * answers for; nor the decision's rate: held there while a ramp raises it, every rise would count as the model's
     * under-reaction and drive the gain to its bound, and the corrected predictions at more slots to 0. A model that
     * misjudges how the rate follows the share (M/M/1 for closed-loop clients) still misjudges the change at the
     * measured rate, and the gain learns that. Observations without a finite response time are ignored, and so is a
     * pair of which either was measured in overload (throughput more than {@value #OVERLOAD} of the arrivals short).
     */
    public void observe(String flow, FlowObservation o, ResponseTimeModel model) {
        Pending p = pending.remove(flow);
        if (p == null || o.isEmpty() || !Double.isFinite(o.responseSeconds())) {
            return;
        }
        FlowObservation from = p.from();
        if (overloaded(from) || overloaded(o)) {
            return; // its t~ is its queue's bound and timeout, which no open model describes: nothing to judge
        }
        double change = model.predictSeconds(from.withForecast(o.arrivalRate()), o.weight()) - model.predictSeconds(from, from.weight());
        if (!Double.isFinite(change)) {
            return; // the model has no finite answer at the inputs measured (beyond its capacity): nothing to learn
        }
        double measured = o.responseSeconds();
        double predicted = from.responseSeconds() + p.gain() * change;
        double e = Math.abs(predicted - measured) / measured;
        error.put(flow, e);
        if (e > BLOWN && listener != null) {
            listener.accept(String.format(Locale.ROOT,
                    "model error %.0f%% for %s: predicted %.4f s at w~=%.3f (from t~=%.4f s at w~=%.3f, λ~=%.3f), "
                            + "measured %.4f s (λ~=%.3f, X~=%.3f, S~=%.4f)",
                    100 * e, flow, predicted, o.weight(), from.responseSeconds(), from.weight(), from.arrivalRate(),
                    measured, o.arrivalRate(), o.throughput(), o.serviceSeconds()));
        }
        boolean shareMoved = Math.abs(o.weight() - from.weight()) > 1e-9 * from.weight();
        if (shareMoved && Math.abs(change) > 0.02 * from.responseSeconds()) {
            double g = Math.max(1 / bound, Math.min(bound, (measured - from.responseSeconds()) / change));
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
        return inRange(corrected, raw);
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
        return inRange(corrected, raw);
    }

    /**
     * A corrected prediction that is not a positive number is counted, then answered as before: the floor of 1 ns for a
     * negative one (the correction's affine form carried the model's change past the measured level), the model's own
     * for a non-finite one. Either is a prediction no one should act on, so an operator sees how often it happens.
     */
    private double inRange(double corrected, double raw) {
        if (corrected > 0 && Double.isFinite(corrected)) {
            return corrected;
        }
        outOfRange.incrementAndGet();
        return Double.isFinite(corrected) ? 1e-9 : raw;
    }

    /** Corrected predictions so far that came out non-positive or non-finite (counted, then floored or replaced). */
    public long outOfRange() {
        return outOfRange.get();
    }

    /** Continues the count of {@code previous} (a manager reconfigured with a new correction). */
    public void countFrom(ModelCorrection previous) {
        if (previous != this) {
            outOfRange.addAndGet(previous.outOfRange.get());
        }
    }

    /** Where to say when a prediction missed by more than {@value #BLOWN} times the measurement (null: nowhere). */
    public void onBlownPrediction(Consumer<String> listener) {
        this.listener = listener;
    }

    /** Records the observation a decision for {@code flow} was made at, to judge the model by the next measurement. */
    public void decidedAt(String flow, FlowObservation o) {
        if (!o.isEmpty() && Double.isFinite(o.responseSeconds())) {
            pending.put(flow, new Pending(o.withoutForecast(), gain(flow)));
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
