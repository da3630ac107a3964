package io.slagate.rm.model;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

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

    /**
     * What a flow was measured at when the manager last decided for it, the gain its prediction then carried, and the
     * model's mean there (NaN: not known; valid for {@code model} only).
     */
    private record Pending(FlowObservation from, double gain, ResponseTimeModel model, double atFrom) {
    }

    /** An error above this (relative) is reported with what led to it: the model, not the plant, is then wrong. */
    static final double BLOWN = 10;
    private final double bound;
    private Consumer<Supplier<String>> listener;
    /** Per flow: the decision pending judgement (null: none), the gain learned, the last error (NaN: none yet). */
    private static final class State {
        Pending pending;
        double gain = 1;
        double error = Double.NaN;
    }

    /** One entry per flow, so that a cycle over many flows finds each flow's state with one lookup. */
    private final Map<String, State> states = new HashMap<>();
    /** Predictions that ended at the floor or not finite: kept across reconfigurations by {@link #countFrom}. */
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
     * pair of which either was measured in overload ({@link FlowObservation#overloaded}) or whose newer one answered a
     * backlog ({@link FlowObservation#draining}).
     */
    public void observe(String flow, FlowObservation o, ResponseTimeModel model) {
        State state = states.get(flow);
        Pending p = state == null ? null : state.pending;
        if (p != null) {
            state.pending = null;
        }
        if (p == null || o.isEmpty() || !Double.isFinite(o.responseSeconds())) {
            return;
        }
        FlowObservation from = p.from();
        if (from.overloaded() || o.overloaded()) {
            return; // its t~ is its queue's bound and timeout, which no open model describes: nothing to judge
        }
        if (o.draining()) {
            return; // its answers are a backlog of requests queued before, as slow as that queue was: not the share's doing
        }
        double alone = model.predictSeconds(from.withForecast(o.arrivalRate()), o.weight());
        double atFrom = p.model() == model && !Double.isNaN(p.atFrom()) ? p.atFrom() : model.predictSeconds(from, from.weight());
        double change = alone - atFrom;
        if (!Double.isFinite(change)) {
            return; // the model has no finite answer at the inputs measured (beyond its capacity): nothing to learn
        }
        double measured = o.responseSeconds();
        boolean anchored = !pastEdgeWhereServed(from, from.responseSeconds(), atFrom);
        // what the manager predicted, as predict() answers (uncounted: this judges a prediction, it makes none)
        double predicted = corrected(from.responseSeconds(), alone, atFrom, p.gain(), from, o.weight(), model.floorSeconds(from));
        double e = Math.abs(predicted - measured) / measured;
        state.error = e;
        if (e > BLOWN && listener != null) {
            // the text is built only if the listener says it (a warning at most every 10 s)
            listener.accept(() -> String.format(Locale.ROOT,
                    "model error %.0f%% for %s: predicted %.4f s at w~=%.3f (from t~=%.4f s at w~=%.3f, λ~=%.3f), "
                            + "measured %.4f s (λ~=%.3f, X~=%.3f, S~=%.4f)",
                    100 * e, flow, predicted, o.weight(), from.responseSeconds(), from.weight(), from.arrivalRate(),
                    measured, o.arrivalRate(), o.throughput(), o.serviceSeconds()));
        }
        boolean shareMoved = Math.abs(o.weight() - from.weight()) > 1e-9 * from.weight();
        if (anchored && shareMoved && Math.abs(change) > 0.02 * from.responseSeconds()) {
            double g = Math.max(1 / bound, Math.min(bound, (measured - from.responseSeconds()) / change));
            state.gain = Math.max(1 / bound, Math.min(bound, (1 - SMOOTHING) * state.gain + SMOOTHING * g));
        }
    }

    /** The corrected prediction: the measured level at w~ plus the model's change from w~ to w, scaled by the gain. */
    public double predict(String flow, ResponseTimeModel model, FlowObservation o, double w) {
        return curve(flow, model, o).mean(w);
    }

    /**
     * The corrected quantile at probability p: the level measured at w~ (the gateway's percentile, or
     * the model's own where none was measured) plus the model's change from w~ to w, scaled by the
     * gain the mean's errors taught — one gain per flow, since both describe the same queue.
     */
    public double predictQuantile(String flow, ResponseTimeModel model, FlowObservation o, double w, double p) {
        return curve(flow, model, o).quantile(w, p);
    }

    /**
     * The flow's corrected predictions as a function of the share, for one cycle: what does not depend on the share (the
     * gain, the model at the measured share, the floor) read once, so that the optimizer, the decision and its
     * description ask it at many shares for one model evaluation each.
     */
    public Curve curve(String flow, ResponseTimeModel model, FlowObservation o) {
        return new Curve(flow, model, o, states.get(flow), outOfRange);
    }

    /** One flow's {@link #predict} and {@link #predictQuantile} at one measurement; not thread-safe. */
    public static final class Curve {
        private final String flow;
        /** The flow's state when the curve was made (null: none yet). */
        private final State state;
        private final ResponseTimeModel model;
        private final FlowObservation o;
        private final double gain;
        /** The model's mean at the measured share and rate (NaN for an empty observation, which is never corrected). */
        private final double at;
        private final double floor;
        private double quantileP = Double.NaN;
        private double quantileAt;
        private double quantileLevel;
        /** The correction's count of predictions out of range. */
        private final AtomicLong outOfRange;

        private Curve(String flow, ResponseTimeModel model, FlowObservation o, State state, AtomicLong outOfRange) {
            this.flow = flow;
            this.outOfRange = outOfRange;
            this.state = state;
            this.model = model;
            this.o = o;
            this.gain = state == null ? 1 : state.gain;
            this.at = o.isEmpty() ? Double.NaN : model.predictSeconds(o.withoutForecast(), o.weight());
            this.floor = o.isEmpty() ? Double.NaN : model.floorSeconds(o);
        }

        public FlowObservation observation() {
            return o;
        }

        /** The gain the predictions carry. */
        public double gain() {
            return gain;
        }

        /** The flow's last measured model error (relative), or NaN when there is none yet. */
        public double error() {
            return state == null ? Double.NaN : state.error;
        }

        /** The model's mean at the measured share, as the next {@link #observe} of the flow judges the decision from. */
        double atMeasured() {
            return at;
        }

        /** The corrected mean response time at share w. */
        public double mean(double w) {
            double raw = model.predictSeconds(o, w);
            if (o.isEmpty()) {
                return raw;
            }
            return counted(corrected(o.responseSeconds(), raw, at, gain, o, w, floor), outOfRange);
        }

        /** The corrected quantile at probability p and share w. */
        public double quantile(double w, double p) {
            double raw = model.predictQuantileSeconds(o, w, p);
            if (o.isEmpty()) {
                return raw;
            }
            if (Double.compare(p, quantileP) != 0) { // a class has one goal percentile: computed once per flow
                quantileAt = model.predictQuantileSeconds(o.withoutForecast(), o.weight(), p);
                if (o.percentileSeconds() > 0 && Double.isFinite(o.percentileSeconds())) {
                    quantileLevel = o.percentileSeconds();
                } else if (pastEdgeWhereServed(o, o.responseSeconds(), at)) {
                    quantileLevel = ResponseTimeModel.exponentialQuantile(o.responseSeconds(), p); // the model's own is its pole
                } else {
                    quantileLevel = quantileAt;
                }
                quantileP = p;
            }
            return counted(corrected(quantileLevel, raw, quantileAt, gain, o, w, floor), outOfRange);
        }
    }

    /**
     * Whether the model is past its stability edge at the measured share while the flow was measured served (its
     * throughput kept up with its arrivals), or so close to it that it answers more than
     * {@value ClosedPopulationModel#POPULATION_CAP} times the measured level there: the model is then wrong about this
     * flow (closed-loop clients, which an open model takes for an unbounded queue, or a share that changed within the
     * window), and its shape there is its own pole, not the flow's.
     */
    private static boolean pastEdgeWhereServed(FlowObservation o, double level, double modelAtMeasured) {
        return !o.overloaded() && !(modelAtMeasured < Math.min(ResponseTimeModel.UNSTABLE_SECONDS,
                ClosedPopulationModel.POPULATION_CAP * level));
    }

    /**
     * The bounded figure for a flow measured served at {@code level}: the work that kept b slots busy (b = X~·S~, at most
     * the share w~; w~ where no service time was measured) done on w slots, b/w as long where w < b and no faster where
     * w ≥ b. It is the operational asymptote of a population that stays in the system when squeezed (what closed-loop
     * clients do, and what no open model past its edge describes): finite, positive, never slower with more share, and
     * the measurement itself at the measured share.
     */
    static double saturated(double level, FlowObservation o, double w) {
        double busy = o.hasServiceTime() && o.throughput() > 0 ? Math.min(o.weight(), o.throughput() * o.serviceSeconds()) : o.weight();
        return level * Math.max(1, busy / w);
    }

    /**
     * The measured level moved by the model's change from the measured share to the asked one w, scaled by the gain g.
     * For a flow measured in overload the model alone, but never more than the {@linkplain #saturated bounded figure}
     * from its level (its queue's bound and timeout): past the model's edge the prediction is what the queue held at the
     * measured share, longer in proportion where w is smaller than the slots it kept busy; a share past the model's
     * edge therefore looks no better than the share measured (a flood does not win slots it cannot use), and one below
     * the edge as good as the model says. For a flow measured served:
     *
     * <ul>
     *   <li>past the model's edge at the measured share (or near it: {@link #pastEdgeWhereServed}), the
     *       {@linkplain #saturated bounded figure} for less share, and for more the measured level shortened in
     *       proportion, t~·w~/w, down to the floor. A flow served while its arrivals' work fills its share keeps the share
     *       full: a closed population, of which the one with no think time (every client always waiting or served) gains
     *       the least from more slots, exactly that proportion (one with think time gains more). Held flat above w~, as
     *       an open flood past its edge would be, such a flow would never look better for more share and would keep
     *       whatever share it had;</li>
     *   <li>otherwise the larger of the additive correction and the proportional one, level·(raw / at)^g, which keeps the
     *       model's change as a ratio: both agree with the measurement at the measured share and never rise with more
     *       share, and the proportional one stays positive where the additive one would cross zero; capped at
     *       {@value ClosedPopulationModel#POPULATION_CAP} times the bounded figure, the most the closed model's own
     *       population cap lets a flow's clients queue, so a model near its edge (or the forecast rate carrying it past)
     *       does not answer thousands of seconds for a flow measured served in milliseconds; and never below the
     *       model's {@linkplain ResponseTimeModel#floorSeconds floor} (where a share is slots, no share makes a request
     *       faster than its server: near the model's edge the proportional form falls towards zero with a slot more).</li>
     * </ul>
     */
    private static double corrected(double level, double raw, double at, double g, FlowObservation o, double w,
                                    double floor) {
        if (!(w > 0)) {
            return raw;
        }
        double bounded = saturated(level, o, w);
        if (o.overloaded()) {
            // its level is its queue's bound and timeout, which no open model describes: the model alone, and where it
            // answers more than that (past its edge) the level moved by the busy slots' work on w slots
            return Math.min(raw, bounded);
        }
        double additive = level + g * (raw - at);
        if (pastEdgeWhereServed(o, level, at)) {
            return w > o.weight() ? Math.max(Math.min(floor, level), level * o.weight() / w) : bounded;
        }
        double proportional = at > 0 && raw >= 0 ? level * Math.pow(raw / at, g) : Double.NaN;
        double best = Math.max(Double.isFinite(additive) ? additive : Double.NEGATIVE_INFINITY,
                Double.isFinite(proportional) ? proportional : Double.NEGATIVE_INFINITY);
        double capped = best > 0 ? Math.min(best, ClosedPopulationModel.POPULATION_CAP * bounded)
                : ClosedPopulationModel.POPULATION_CAP * bounded;
        return Math.max(Math.min(floor, level), capped);
    }

    /**
     * A prediction that is not a positive finite number is the floor of 1 ns, counted. {@link #corrected} answers none
     * by construction (the property tests hold it to that); the count is what an operator watches should a model ever
     * break it, since such a flow would look served to the optimizer.
     */
    private static double counted(double corrected, AtomicLong outOfRange) {
        if (corrected > 0 && Double.isFinite(corrected)) {
            return corrected;
        }
        outOfRange.incrementAndGet();
        return 1e-9;
    }

    /** Predictions so far that ended at the 1 ns floor or not finite (a flow measured in overload, corrected below zero). */
    public long outOfRange() {
        return outOfRange.get();
    }

    /** Continues the count of {@code previous} (a manager reconfigured with a new correction). */
    public void countFrom(ModelCorrection previous) {
        if (previous != this) {
            outOfRange.addAndGet(previous.outOfRange.get());
        }
    }

    /**
     * Where to say when a prediction missed by more than {@value #BLOWN} times the measurement (null: nowhere); the
     * listener gets how to build the text, so that a cycle of many such flows formats only what is said.
     */
    public void onBlownPrediction(Consumer<Supplier<String>> listener) {
        this.listener = listener;
    }

    /** Records the observation a decision for {@code flow} was made at, to judge the model by the next measurement. */
    public void decidedAt(String flow, FlowObservation o) {
        if (!o.isEmpty() && Double.isFinite(o.responseSeconds())) {
            State state = states.computeIfAbsent(flow, k -> new State());
            state.pending = new Pending(o.withoutForecast(), state.gain, null, Double.NaN);
        }
    }

    /** {@link #decidedAt(String, FlowObservation)} at the curve's measurement, keeping the model's mean there. */
    public void decidedAt(Curve curve) {
        FlowObservation o = curve.observation();
        if (!o.isEmpty() && Double.isFinite(o.responseSeconds())) {
            State state = curve.state != null ? curve.state : states.computeIfAbsent(curve.flow, k -> new State());
            state.pending = new Pending(o.withoutForecast(), curve.gain(), curve.model, curve.atMeasured());
        }
    }

    /** The last measured model error of the flow (relative), or NaN when there is none yet. */
    public double error(String flow) {
        State state = states.get(flow);
        return state == null ? Double.NaN : state.error;
    }

    public double gain(String flow) {
        State state = states.get(flow);
        return state == null ? 1 : state.gain;
    }

    /**
     * The flow's load or plant changed: the gain it learned described the plant before, and the decision pending
     * judgement was made at the load before, whose difference from the next measurement is the change, not the model's
     * error. Both are dropped; the gain is learned again from the new load's own moves.
     */
    public void restart(String flow) {
        State state = states.get(flow);
        if (state != null) {
            state.pending = null;
            state.gain = 1;
        }
    }

    /** Forgets flows that no longer exist. */
    public void retain(Set<String> flows) {
        states.keySet().retainAll(flows);
    }

    /** Forgets one flow (its gateway left or fell silent). */
    public void forget(String flow) {
        states.remove(flow);
    }

    /** The flows with a gain, an error or a decision pending kept (a copy). */
    public Set<String> flowsKept() {
        return Set.copyOf(states.keySet());
    }
}
