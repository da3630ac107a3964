package io.slagate.rm;

import io.slagate.bus.message.DecisionMessage.FlowDecision;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A decision's flows as the console is sent them: each flow (g, c) while they are few; past
 * {@value #MAX_FLOWS}, one line per class over all its gateways (gateway {@code *}), so that the decision's size
 * grows with the classes, not with gateways × classes (the per-flow figures stay in the manager's metrics).
 */
final class DecisionDigest {
    /** The most flows a decision lists one by one. */
    static final int MAX_FLOWS = 256;

    private DecisionDigest() {
    }

    static List<FlowDecision> of(List<FlowDecision> flows) {
        if (flows.size() <= MAX_FLOWS) {
            return flows;
        }
        Map<String, List<FlowDecision>> byClass = new LinkedHashMap<>();
        for (FlowDecision f : flows) {
            byClass.computeIfAbsent(f.className(), k -> new ArrayList<>()).add(f);
        }
        List<FlowDecision> out = new ArrayList<>();
        for (Map.Entry<String, List<FlowDecision>> e : byClass.entrySet()) {
            out.add(sum(e.getKey(), e.getValue()));
        }
        return out;
    }

    /** Rates, weights and utilities summed; times averaged by rate (plainly when no flow has traffic). */
    static FlowDecision sum(String className, List<FlowDecision> fs) {
        double lambda = 0;
        double previous = 0;
        double weight = 0;
        double utility = 0;
        double observed = 0;
        double predicted = 0;
        double percentile = 0;
        double forecast = 0;
        boolean forecastAll = true;
        boolean pinned = false;
        for (FlowDecision f : fs) {
            lambda += f.arrivalRate();
            previous += f.previousWeight();
            weight += f.weight();
            utility += f.utility();
            pinned |= f.pinned();
            forecastAll &= Double.isFinite(f.forecastRate());
            forecast += f.forecastRate();
        }
        for (FlowDecision f : fs) {
            double share = lambda > 0 ? f.arrivalRate() / lambda : 1.0 / fs.size();
            observed += share * f.observedSeconds();
            predicted += share * f.predictedSeconds();
            percentile += share * f.predictedPercentileSeconds();
        }
        return new FlowDecision("*", className, lambda, observed, previous, weight, predicted, utility, pinned,
                fs.get(0).model(), Double.NaN, Double.NaN, percentile, forecastAll ? forecast : Double.NaN);
    }
}
