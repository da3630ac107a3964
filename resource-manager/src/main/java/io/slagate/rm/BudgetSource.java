package io.slagate.rm;

/**
 * Where each class's error budget stands in its period, for allocation that protects the contracts closest to breach
 * ({@code controller.errorBudget}): the SLA store in a running system, the twin's own counts in virtual time.
 */
@FunctionalInterface
public interface BudgetSource {
    /** Nothing known: every class weighs as configured. */
    BudgetSource NONE = className -> null;

    /**
     * @param elapsed the share of the class's period gone, in [0, 1]
     * @param spent   the share of the period's error budget spent so far: bad / ((1 − objective) · requests), 0 with no
     *                requests; above 1 the objective is missed so far
     */
    record State(double elapsed, double spent) {
    }

    /** The class's state, or null when unknown. */
    State state(String className);
}
