package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Allocation that protects the contract closest to breach: the factors' arithmetic, and what they do to a decision. */
class ErrorBudgetsTest {
    private static final long NOW = 1_000_000_000_000L;

    @Test
    void factor_isTheInverseOfTheBurnRateStillAffordable_withinTheBound() {
        assertEquals(1, ErrorBudgets.factor(new BudgetSource.State(0, 0), 4), 1e-12, "the period's start: as configured");
        assertEquals(0.5, ErrorBudgets.factor(new BudgetSource.State(0.5, 0), 4), 1e-12, "nothing spent at half time: twice the rate");
        assertEquals(1 / 1.2, ErrorBudgets.factor(new BudgetSource.State(0.5, 0.8), 4), 1e-12, "(1 − 0.8·0.5) / 0.5 = 1.2");
        assertEquals(2, ErrorBudgets.factor(new BudgetSource.State(0.5, 1.5), 4), 1e-12, "(1 − 0.75) / 0.5 = 0.5");
        assertEquals(1, ErrorBudgets.factor(new BudgetSource.State(0.5, 3), 4), 1e-12, "past recovery: weighs as configured");
        assertEquals(1, ErrorBudgets.factor(new BudgetSource.State(Double.NaN, 0.5), 4), 1e-12, "a state that says nothing");
        assertEquals(1, ErrorBudgets.factor(new BudgetSource.State(0.5, Double.NaN), 4), 1e-12);
        assertEquals(0.25, ErrorBudgets.factor(new BudgetSource.State(0.9, 0), 4), 1e-12, "ten times the rate, bounded to 1/4");
        assertEquals(1, ErrorBudgets.factor(new BudgetSource.State(1, 1.01), 4), 1e-12, "the period's end, just missed: lost");
        assertEquals(4, ErrorBudgets.factor(new BudgetSource.State(0.5, 1.9), 4), 1e-12, "(1 − 0.95) / 0.5 = 0.1: bounded to 4");
    }

    @Test
    void weighing_makesALargerFactorCountForMoreUnderEitherCombining() {
        ErrorBudgets b = new ErrorBudgets();
        SlagateConfig config = config("sum", true);
        b.update(new ControlSetup(config), name -> name.equals("gold") ? new BudgetSource.State(0.5, 1.5) : new BudgetSource.State(0.5, 0));
        assertEquals(2, b.of(0), 1e-12);
        assertEquals(0.5, b.of(1), 1e-12);
        assertEquals(-2, b.weigh(0, -1, false), 1e-12, "summed: scaled");
        assertEquals(1, b.weigh(0, 0.5, false), 1e-12);
        assertEquals(-2, b.weigh(0, -1, true), 1e-12, "the minimum: below the goal, worse");
        assertEquals(0.25, b.weigh(0, 0.5, true), 1e-12, "the minimum: above the goal, less well off");
        assertTrue(b.keepsConcave(0, true) && !b.keepsConcave(1, true) && b.keepsConcave(1, false));
        assertEquals(" error budgets gold ×2.00, silver ×0.50", b.describe(new ControlSetup(config)));
    }

    private static SlagateConfig config(String combining, boolean errorBudget) {
        return ConfigLoader.parse("""
                gateway: { stats: { reportingInterval: 5s, window: 30s } }
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 10 } ]
                classes:
                  - { name: gold, target: 2s, objective: 99%% }
                  - { name: silver, target: 2s, objective: 99%% }
                allocation: { weights: { gold: 5, silver: 5 } }
                controller: { combining: %s, model: mm1, correctionBound: 1, damping: 1, minGain: 0, errorBudget: %s }
                """.formatted(combining, errorBudget), "budget-test");
    }

    /** Two classes alike in every figure: λ 2/s each, served in 1 s, answered in 1.5 s at 5 slots each. */
    private static StatsMessage alike() {
        List<FlowStatsMessage> flows = new ArrayList<>();
        for (String c : List.of("gold", "silver")) {
            flows.add(new FlowStatsMessage(c, 2, 2, 0, 1.5, 0.5, 1.0, 0, 0, 5));
        }
        return new StatsMessage(BusMessage.SCHEMA, "gw1", 1, 0, 5, 1, flows, List.of(new ServerStatusMessage("s1", 10, 0, true)));
    }

    private static double goldWeight(String combining, boolean on, BudgetSource source) {
        ResourceManager rm = new ResourceManager("rm", config(combining, on), new Overrides(), 0);
        rm.budgetSource(source);
        rm.onStats(alike(), NOW);
        AllocationMessage a = rm.step(NOW).allocation();
        return a.gateways().get("gw1").weights().get("gold");
    }

    @Test
    void twoClassesAlike_theOneClosestToBreachGetsMore_onlyWithErrorBudgetOn() {
        // gold past its budget at half time (factor 2), silver with all of its own left (factor 1/2)
        BudgetSource goldBurning = name -> name.equals("gold") ? new BudgetSource.State(0.5, 1.5) : new BudgetSource.State(0.5, 0);
        for (String combining : List.of("sum", "min")) {
            assertEquals(5, goldWeight(combining, false, goldBurning), 1e-9, combining + ": off, the classes alike split evenly");
            assertEquals(5, goldWeight(combining, true, BudgetSource.NONE), 1e-9, combining + ": on, nothing known: evenly");
            double w = goldWeight(combining, true, goldBurning);
            assertTrue(w > 5, combining + ": gold, closer to breach, gets more: " + w);
        }
        BudgetSource alikeBudgets = name -> new BudgetSource.State(0.5, 0.8);
        assertEquals(5, goldWeight("sum", true, alikeBudgets), 1e-9, "both as close: evenly");
    }
}
