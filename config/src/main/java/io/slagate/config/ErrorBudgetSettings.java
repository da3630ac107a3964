package io.slagate.config;

/**
 * Allocation that protects the contracts closest to breach ({@code controller.errorBudget}): each class's utility
 * weighed by how little of its error budget it may still spend per request over the rest of its period, within
 * [1/{@code bound}, {@code bound}]. Off by default: the paper's controller.
 *
 * @param on    whether the controller weighs classes by their error budgets
 * @param bound the largest factor a class's utility is weighed by (and 1/bound the smallest), ≥ 1
 */
public record ErrorBudgetSettings(boolean on, double bound) {
    public static final ErrorBudgetSettings OFF = new ErrorBudgetSettings(false, 4);
}
