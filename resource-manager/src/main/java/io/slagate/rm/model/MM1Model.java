package io.slagate.rm.model;


/**
 * The paper's M/M/1 model (section IV-B). From the observed λ~, t~ at share w~, the service rate
 * seen by the flow is μ = 1/t~ + λ~/w~ (eq. 8), and at share w the predicted response time is
 * t(w) = 1 / (1/t~ + λ~ (1/w~ − 1/w)) = 1 / (μ − λ~/w) (eq. 9).
 *
 * <p>Edges, each defined rather than left to floating point:
 * <ul>
 *   <li>no traffic (λ~ = 0), or no measurement yet (t~ = 0 or w~ = 0): t(w) = t~ for every w — the
 *       flow's share does not change what it sees, so an optimizer gives it only its minimum;</li>
 *   <li>where eq. 9 exceeds UNSTABLE_SECONDS, or its denominator is not positive (w ≤ λ~/μ, an
 *       unstable queue), the prediction continues along the tangent of eq. 9 at the point where it
 *       reaches UNSTABLE_SECONDS: finite, above every stable prediction, still decreasing in w (the
 *       least unstable choice ranks best), and convex in w like eq. 9 itself, so a utility that is
 *       concave and non-increasing in t stays concave in w.</li>
 * </ul>
 */
public final class MM1Model implements ResponseTimeModel {
    /** Here a share scales the service rate: more of it makes a request faster without bound. */
    @Override
    public double floorSeconds(FlowObservation observed) {
        return 0;
    }

    @Override
    public String name() {
        return "mm1";
    }

    @Override
    public double predictSeconds(FlowObservation o, double w) {
        if (o.isEmpty()) {
            return o.responseSeconds() > 0 ? o.responseSeconds() : 0;
        }
        double lambda = o.rateAhead(); // eq. 9 at the rate expected next cycle; μ (eq. 8) from what was measured
        double mu = serviceRate(o);
        // w0: where eq. 9 reaches the cap C, i.e. μ − λ/w0 = 1/C.
        double w0 = lambda / (mu - 1 / UNSTABLE_SECONDS);
        if (w >= w0 && mu > 1 / UNSTABLE_SECONDS) {
            return 1 / (mu - lambda / w);                                    // eq. 9
        }
        double slope = -lambda * UNSTABLE_SECONDS * UNSTABLE_SECONDS / (w0 * w0); // t'(w0) = −λ t² / w²
        return UNSTABLE_SECONDS + slope * (w - w0);
    }

    /** Eq. 8. */
    public static double serviceRate(FlowObservation o) {
        return 1 / o.responseSeconds() + o.arrivalRate() / o.weight();
    }
}
