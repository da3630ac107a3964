package io.slagate.config;

import java.time.Duration;
import java.util.List;

/**
 * The global resource manager (sections III-B and IV).
 *
 * @param cycle         the control horizon Γ between two allocations
 * @param combining     eq. 2a (sum) or 2b (min)
 * @param model         the response-time model, by name: {@code auto} (per flow), {@code closed}, {@code mmm},
 *                      {@code mm1} (the paper's eq. 8–9)
 * @param resolution    granularity of the weights w_{g,c} (1: integers as in the paper; 0.1: tenths)
 * @param minWeight     the lower bound of every w_{g,c} (eq. 3 uses 1)
 * @param gatewayExpiry reporting intervals without statistics after which a gateway's share is given to the others
 * @param damping       γ in (0, 1]: each cycle moves the weights this fraction of the way from the
 *                      last allocation to the optimum (1: straight to it, as in the paper). Below 1
 *                      the loop tolerates a model that is wrong about the plant instead of oscillating:
 *                      γ halves each time the optimum reverses the last move and grows back
 *                      when moves are confirmed (never above this value).
 * @param minGain       the allocation in force is kept unless the optimum's predicted objective beats it by more
 *                      than this fraction of the pool's tightest target (utilities are in seconds): no move on
 *                      measurement noise, no swing while every target is met
 * @param correctionBound the online model correction's gain stays within [1/bound, bound] (1: no gain)
 * @param maxGateways   the most gateways the manager splits the servers among; joins beyond are refused
 *                      (with a warning), so a flood of invented gateways cannot starve the real ones
 * @param forecast      {@code none} (the last window's arrival rates), {@code trend} (each flow's rate one cycle
 *                      ahead by Holt's linear trend) or {@code auto} (the trend where its recent error is small)
 * @param capacityStabilization the capacity signal is the median of its readings over this span (an autoscaler acts on
 *                      it: one noisy window must not move it); zero: each cycle's reading as it is; null: three
 *                      statistics windows ({@link #capacityStabilization(Duration)})
 * @param tuning        the online tuner's partitions, each its own tuner over its own pools; empty: no tuning
 * @param errorBudget   whether (and how far) each class's utility is weighed by what is left of its error budget
 * @param solve         {@code flows}: the allocation problem over every flow (g, c), its work growing with gateways ×
 *                      classes; {@code classes}: over each pool's classes, each class's table over its gateways built
 *                      by marginal gains where its utility is concave (exact), else the class seen as one flow and its
 *                      share split by demand; {@code auto}: {@code classes} for a pool of {@value #AUTO_CLASSES_FLOWS}
 *                      flows or more whose utilities are all concave, {@code flows} otherwise
 */
public record ControllerSettings(Duration cycle, Combining combining, String model, double resolution,
                                 double minWeight, int gatewayExpiry, double damping, int maxGateways,
                                 double correctionBound, double minGain, String forecast, Duration capacityStabilization,
                                 ReconfigurationSettings reconfiguration, List<TuningSettings> tuning, String solve,
                                 ErrorBudgetSettings errorBudget) {
    /** Under {@code solve: auto}, a pool with this many flows (g, c) or more is solved over its classes. */
    public static final int AUTO_CLASSES_FLOWS = 64;

    /** The capacity signal's stabilization when none is configured, in statistics windows. */
    public static final int CAPACITY_STABILIZATION_WINDOWS = 3;

    public ControllerSettings {
        tuning = tuning == null ? List.of() : List.copyOf(tuning);
        solve = solve == null ? "auto" : solve;
        errorBudget = errorBudget == null ? ErrorBudgetSettings.OFF : errorBudget;
    }


    /** Whether a pool of {@code flows} flows (g, c) is solved over its classes ({@code concave}: every class's utility is). */
    public boolean solveByClass(int flows, boolean concave) {
        return "classes".equals(solve) || "auto".equals(solve) && concave && flows >= AUTO_CLASSES_FLOWS;
    }




    /** These settings with a new control cycle Γ (the tuner's {@code cycle} knob). */
    public ControllerSettings withCycle(Duration next) {
        return new ControllerSettings(next, combining, model, resolution, minWeight, gatewayExpiry, damping, maxGateways,
                correctionBound, minGain, forecast, capacityStabilization, reconfiguration, tuning, solve, errorBudget);
    }

    /** These settings with a new damping (the tuner's {@code damping} knob). */
    public ControllerSettings withDamping(double next) {
        return new ControllerSettings(cycle, combining, model, resolution, minWeight, gatewayExpiry, next, maxGateways,
                correctionBound, minGain, forecast, capacityStabilization, reconfiguration, tuning, solve, errorBudget);
    }

    /** These settings with a new weight resolution (the tuner's {@code resolution} knob). */
    public ControllerSettings withResolution(double next) {
        return new ControllerSettings(cycle, combining, model, next, minWeight, gatewayExpiry, damping, maxGateways,
                correctionBound, minGain, forecast, capacityStabilization, reconfiguration, tuning, solve, errorBudget);
    }

    /** These settings with another response-time model (the tuner's {@code model} knob). */
    public ControllerSettings withModel(String next) {
        return new ControllerSettings(cycle, combining, next, resolution, minWeight, gatewayExpiry, damping, maxGateways,
                correctionBound, minGain, forecast, capacityStabilization, reconfiguration, tuning, solve, errorBudget);
    }

    /**
     * The stabilization span in force: as configured, or {@value #CAPACITY_STABILIZATION_WINDOWS} statistics windows. A
     * window's figures stay in the reports for as many cycles as it spans, so a span shorter than a few windows lets one
     * noisy window be most of it.
     */
    public Duration capacityStabilization(Duration statsWindow) {
        return capacityStabilization != null ? capacityStabilization : statsWindow.multipliedBy(CAPACITY_STABILIZATION_WINDOWS);
    }
}
