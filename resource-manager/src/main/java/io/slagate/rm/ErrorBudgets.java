package io.slagate.rm;

import io.slagate.config.ErrorBudgetSettings;
import java.util.Arrays;

/**
 * Per class, the factor its utility is weighed by under {@code controller.errorBudget}: the inverse of the burn rate
 * it may still afford. A class that spent a share s of its budget with a share e of its period gone keeps within its
 * objective if, over the rest of the period, its bad requests run at no more than a = (1 − s·e) / (1 − e) times the
 * budget's rate (requests arriving at a steady rate). Its factor is 1/a within [1/bound, bound]: a contract close to
 * breach (a below 1) counts for more, one with budget to spare (a above 1) for less. One already past recovery (a ≤ 0:
 * no rate of the rest keeps it) weighs 1, as does a class without an objective or a known state: weight given to a
 * period that is lost would be taken from contracts that can still be kept. The manager's thread only.
 */
final class ErrorBudgets {
    /** The share of a period beyond which its rest is too short to steer by: the elapsed share is taken as this. */
    static final double LAST = 0.999;

    private double[] factor = new double[0];

    /** The factors for this cycle, from the source's states. */
    void update(ControlSetup setup, BudgetSource source) {
        if (factor.length != setup.classCount()) {
            factor = new double[setup.classCount()];
        }
        Arrays.fill(factor, 1);
        ErrorBudgetSettings s = setup.config.controller().errorBudget();
        if (!s.on()) {
            return;
        }
        for (int c = 0; c < factor.length; c++) {
            if (setup.cls(c).objective() == null) {
                continue;
            }
            BudgetSource.State st = source.state(setup.cls(c).name());
            if (st != null) {
                factor[c] = factor(st, s.bound());
            }
        }
    }

    static double factor(BudgetSource.State st, double bound) {
        if (!Double.isFinite(st.elapsed()) || !Double.isFinite(st.spent())) {
            return 1; // a state that says nothing weighs nothing
        }
        double e = Math.max(0, Math.min(LAST, st.elapsed()));
        double spent = Math.max(0, st.spent());
        double afford = (1 - spent * e) / (1 - e);
        if (!(afford > 0)) {
            return 1; // past recovery: no share of the servers saves this period, and it must not starve one that can be saved
        }
        return Math.max(1 / bound, Math.min(bound, 1 / afford));
    }

    /** Class c's factor this cycle (1 before the first update). */
    double of(int c) {
        return c < factor.length ? factor[c] : 1;
    }

    /**
     * Class c's utility u as the optimizer weighs it. Summed over classes (eq. 2a), u·m: a class that counts for more
     * gains and loses more per slot. Under the minimum over classes (eq. 2b) a larger factor must make the class look
     * worse off whatever the sign of u, or the optimizer would give it less: u·m below its goal, u/m above it.
     */
    double weigh(int c, double u, boolean min) {
        double m = of(c);
        return m == 1 ? u : min && u > 0 ? u / m : u * m;
    }

    /**
     * Whether class c's weighed utility is concave where its own is (the optimizer's shortcuts rely on it): always when
     * summed; under the minimum only for a factor of at least 1, whose kink at the goal bends down (m, then 1/m).
     */
    boolean keepsConcave(int c, boolean min) {
        return !min || of(c) >= 1;
    }

    /** For the cycle's log line: " error budgets premium ×1.25, basic ×0.50" where a factor is not 1, else nothing. */
    String describe(ControlSetup setup) {
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < factor.length; c++) {
            if (factor[c] != 1) {
                b.append(b.length() == 0 ? " error budgets " : ", ").append(setup.cls(c).name()).append(" ×")
                        .append(String.format(java.util.Locale.ROOT, "%.2f", factor[c]));
            }
        }
        return b.toString();
    }
}
