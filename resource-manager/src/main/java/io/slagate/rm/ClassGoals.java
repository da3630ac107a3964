package io.slagate.rm;

import io.slagate.config.TrafficClassConfig;
import io.slagate.config.utility.UtilityFunction;
import io.slagate.config.utility.UtilityFunctions;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.model.ModelCorrection;
import io.slagate.rm.model.ResponseTimeModel;
import java.util.function.DoublePredicate;

/**
 * How a class's goals rate a flow at a share w. A mean target is the paper's eq. 7 on the
 * predicted mean; a percentile goal ({@code p95: 300ms}) is the same utility function, built on its
 * own threshold, of the predicted percentile (each model's response-time distribution, corrected as
 * the mean is). A class with both is rated by the worse of the two: it meets its SLA only when both hold.
 */
final class ClassGoals {
    private final UtilityFunction mean;
    private final UtilityFunction percentile;
    private final double p;
    private final double meanTarget;
    private final double percentileTarget;

    ClassGoals(TrafficClassConfig tc) {
        String type = tc.utility().type();
        mean = tc.target() == null || tc.discretionary() ? null : UtilityFunctions.create(type, tc.targetSeconds(), tc.utility().parameters());
        percentile = tc.percentileGoal() == null ? null
                : UtilityFunctions.create(type, tc.percentileGoal().targetSeconds(), tc.utility().parameters());
        p = tc.percentileGoal() == null ? Double.NaN : tc.percentileGoal().fraction();
        meanTarget = tc.targetSeconds();
        percentileTarget = tc.percentileGoal() == null ? Double.NaN : tc.percentileGoal().targetSeconds();
    }

    boolean hasPercentile() {
        return percentile != null;
    }

    /** U_c of the flow at share w: the utility of each goal at its corrected prediction, the lower one; 0 without a goal. */
    double utility(ModelCorrection.Curve curve, double w) {
        return mean == null ? utility(curve, w, Double.NaN) : utility(curve, w, curve.mean(w));
    }

    /** {@link #utility(ModelCorrection.Curve, double)} where the corrected mean at w is known. */
    double utility(ModelCorrection.Curve curve, double w, double meanAtW) {
        if (mean == null && percentile == null) {
            return 0; // the discretionary class: no goal, no utility (it is placed by ImportanceTiers)
        }
        double u = Double.POSITIVE_INFINITY;
        if (mean != null) {
            u = mean.utility(meanAtW);
        }
        if (percentile != null) {
            u = Math.min(u, percentile.utility(curve.quantile(w, p)));
        }
        return u;
    }

    /** The corrected prediction at the goal percentile (NaN for a class without one). */
    double predictedPercentile(ModelCorrection.Curve curve, double w) {
        return percentile == null ? Double.NaN : curve.quantile(w, p);
    }

    /** Whether both predictions (where the class has the goal) are within their thresholds at w. */
    boolean meets(ModelCorrection.Curve curve, double w) {
        if (mean != null) {
            double t = curve.mean(w);
            if (!(Double.isFinite(t) && t <= meanTarget)) {
                return false;
            }
        }
        if (percentile != null) {
            double t = curve.quantile(w, p);
            return Double.isFinite(t) && t <= percentileTarget;
        }
        return true;
    }

    /**
     * Whether the flow meets its goals at share w by the prediction capacity is sized on: the model's curve scaled to the
     * level measured at w~, t~ · model(w) / model(w~) (the measured percentile likewise), the scale within [1/bound,
     * bound]. Not the corrected prediction the allocation steers by, t~ + g·(model(w) − model(w~)): its gain g is learned
     * from the small moves around the allocation in force, and with g below 1 that prediction stays above
     * t~ − g·(t~ − model(∞)) at any share, so a target between that and the service time looked out of reach of any
     * number of servers while two servers met it. Far from w~ the curve's shape is the model's, and its level the
     * measured one's.
     */
    boolean meetsForCapacity(ResponseTimeModel model, FlowObservation o, double w, double bound) {
        return capacityTest(model, o, bound).test(w);
    }

    /**
     * {@link #meetsForCapacity} as a test of the share, its scales computed once: the capacity search asks it at a score
     * of shares per flow, and the model at w~ is the same for all of them.
     */
    DoublePredicate capacityTest(ResponseTimeModel model, FlowObservation o, double bound) {
        if (o.isEmpty()) {
            return w -> modelMeets(model, o, w);
        }
        double meanScale = mean == null ? 1 : scale(o.responseSeconds(), model.predictSeconds(o.withoutForecast(), o.weight()), bound);
        double percentileScale = percentile == null ? 1 : percentileScale(model, o, bound);
        return w -> {
            if (mean != null) {
                double t = model.predictSeconds(o, w) * meanScale;
                if (!(Double.isFinite(t) && t <= meanTarget)) {
                    return false;
                }
            }
            if (percentile != null) {
                double t = model.predictQuantileSeconds(o, w, p) * percentileScale;
                return Double.isFinite(t) && t <= percentileTarget;
            }
            return true;
        };
    }

    /** The measured percentile (the model's own where none was measured) against the model's, at w~, within the bound. */
    private double percentileScale(ResponseTimeModel model, FlowObservation o, double bound) {
        double at = model.predictQuantileSeconds(o.withoutForecast(), o.weight(), p);
        double level = o.percentileSeconds() > 0 && Double.isFinite(o.percentileSeconds()) ? o.percentileSeconds() : at;
        return scale(level, at, bound);
    }

    /**
     * Whether the flow, as measured over the window, meets its goals (the mean; the percentile, which must have been
     * measured) and no rise of its arrivals is forecast: the share it has holds its load. The measurement itself, not the model at
     * w~, which past its stability edge is an overload figure however well the flow is served on slots it borrows.
     */
    boolean measuredMeets(FlowObservation o) {
        if (mean != null && !(o.responseSeconds() <= meanTarget)) {
            return false;
        }
        if (percentile != null && !(o.percentileSeconds() > 0 && o.percentileSeconds() <= percentileTarget)) {
            return false;
        }
        return !(o.rateAhead() > o.arrivalRate());
    }

    /** Whether the model alone, without the measured level, says share w meets the goals (the last word on "unreachable"). */
    boolean modelMeets(ResponseTimeModel model, FlowObservation o, double w) {
        if (mean != null) {
            double t = model.predictSeconds(o, w);
            if (!(Double.isFinite(t) && t <= meanTarget)) {
                return false;
            }
        }
        if (percentile != null) {
            double t = model.predictQuantileSeconds(o, w, p);
            return Double.isFinite(t) && t <= percentileTarget;
        }
        return true;
    }

    /** measured / modelled, within [1/bound, bound]; 1 when either is not a positive number. */
    private static double scale(double measured, double modelled, double bound) {
        if (!(measured > 0) || !(modelled > 0) || !Double.isFinite(measured) || !Double.isFinite(modelled)) {
            return 1;
        }
        return Math.max(1 / bound, Math.min(bound, measured / modelled));
    }

    /** The utility of what was measured (the worse goal's, as {@link #utility}); NaN without a measurement, 0 without a goal. */
    double measuredUtility(double meanSeconds, double percentileSeconds) {
        if (mean == null && percentile == null) {
            return 0;
        }
        double u = Double.POSITIVE_INFINITY;
        if (mean != null) {
            u = Double.isFinite(meanSeconds) ? mean.utility(meanSeconds) : Double.NaN;
        }
        if (percentile != null) {
            u = Double.isFinite(percentileSeconds) ? Math.min(u, percentile.utility(percentileSeconds)) : Double.NaN;
        }
        return u;
    }

    /**
     * What one failed request (shed, refused, or failed by a server: no answer) counts as in the measured utility: an
     * answer that missed its goals by as much as it could have waited, at {@code queueTimeoutSeconds}, and never before
     * twice the tightest target, so that a configuration cannot buy utility by failing requests instead of answering
     * them late. 0 for a class without goals.
     */
    double failedUtility(double queueTimeoutSeconds) {
        if (mean == null && percentile == null) {
            return 0;
        }
        double t = Math.max(queueTimeoutSeconds, 2 * tightestSeconds());
        return measuredUtility(t, t);
    }

    /** Whether measured figures miss a goal: the mean beyond the mean target, or the goal percentile beyond its threshold. */
    boolean missedBy(double meanSeconds, double percentileSeconds) {
        return mean != null && meanSeconds > meanTarget || percentile != null && percentileSeconds > percentileTarget;
    }

    /** The tightest threshold, seconds (the dead band is a fraction of it). */
    double tightestSeconds() {
        return Math.min(mean == null ? Double.POSITIVE_INFINITY : meanTarget,
                percentile == null ? Double.POSITIVE_INFINITY : percentileTarget);
    }
}
