package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.model.ModelCorrection;
import io.slagate.rm.optimize.Damper;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The manager's cycle as values: an input fixed when taken, flows observed from it, a pool's decision from its problem. */
class CycleValuesTest {
    private static final long SECOND = 1_000_000_000L;

    private static final SlagateConfig CONFIG = ConfigLoader.parse("""
            gateway: { stats: { reportingInterval: 5s, window: 5s } }
            servers:
              - { id: s1, url: "http://127.0.0.1:1", concurrency: 10 }
            classes:
              - { name: premium, target: 2s }
              - { name: basic, target: 3s }
            allocation: { weights: { premium: 7, basic: 3 } }
            controller: { model: mm1, correctionBound: 1, damping: 1 }
            """, "cycle-values");

    private static StatsMessage stats(String gw, double lambdaPremium, double tPremium, double lambdaBasic, double tBasic) {
        return new StatsMessage(BusMessage.SCHEMA, gw, 1, 0, 5, 1, List.of(
                new FlowStatsMessage("premium", lambdaPremium, lambdaPremium, 0, tPremium, 0, tPremium, 0, 0, 5),
                new FlowStatsMessage("basic", lambdaBasic, lambdaBasic, 0, tBasic, 0, tBasic, 0, 0, 5)),
                List.of(new ServerStatusMessage("s1", 10, 0, true)));
    }

    @Test
    void cycleInput_isFixedWhenTaken_aReportDuringTheCycleCountsFromTheNext() {
        LastReports reports = new LastReports();
        reports.report(stats("gw1", 1, 0.5, 1, 0.5), 0);
        CycleInput in = reports.input(SECOND, null);
        reports.report(stats("gw2", 2, 0.5, 2, 0.5), SECOND);
        reports.leave("gw1");
        assertEquals(List.of("gw1"), in.gateways(), "the input holds the gateways as they stood when it was taken");
        assertEquals(1, in.stats("gw1").flows().get(0).arrivalRate(), 1e-12);
        assertThrows(UnsupportedOperationException.class, () -> in.reports().remove("gw1"));
        assertEquals(List.of("gw2"), reports.gateways());
    }

    @Test
    void expire_removesOnlyTheSilent_andNamesThem() {
        LastReports reports = new LastReports();
        reports.report(stats("old", 1, 0.5, 1, 0.5), 0);
        reports.join("new", 10 * SECOND);
        assertEquals(List.of("old"), reports.expire(16 * SECOND, 15 * SECOND));
        assertEquals(List.of("new"), reports.gateways());
    }

    @Test
    void poolSolve_isAFunctionOfItsProblem_pinnedAndIdleFlowsAsKnown() {
        ControlSetup setup = new ControlSetup(CONFIG);
        FlowKeys keys = new FlowKeys(CONFIG);
        PoolSolver solver = new PoolSolver(setup, new ModelCorrection(1), new Damper(), keys, new ErrorBudgets());
        // no traffic anywhere: the configured static split 7 : 3 of N = 10
        PoolFlows idle = new PoolFlows(List.of(
                new PoolFlows.Flow("gw1", 0, keys.of("gw1", 0), FlowObservation.NONE, null, null),
                new PoolFlows.Flow("gw1", 1, keys.of("gw1", 1), FlowObservation.NONE, null, null)), false);
        PoolDecision d = solver.solve(PoolProblem.of("default", List.of(0, 1), idle, 10, setup));
        assertEquals(7, d.flows().get(0).weight(), 1e-9);
        assertEquals(3, d.flows().get(1).weight(), 1e-9);
        assertTrue(d.summary().startsWith("static (no traffic)"), d.summary());
        // premium pinned at 4: basic, the only free flow, gets the other 6 units whatever it measures
        PoolFlows pinned = new PoolFlows(List.of(
                new PoolFlows.Flow("gw1", 0, keys.of("gw1", 0), new FlowObservation(1, 0.5, 5), 4.0, null),
                new PoolFlows.Flow("gw1", 1, keys.of("gw1", 1), new FlowObservation(1, 0.5, 5), null, null)), true);
        PoolProblem p = PoolProblem.of("default", List.of(0, 1), pinned, 10, setup);
        assertEquals(List.of(1), p.free());
        assertEquals(6, p.units());
        PoolDecision q = solver.solve(p);
        assertEquals(4, q.flows().get(0).weight(), 1e-9);
        assertTrue(q.flows().get(0).pinned());
        assertEquals(6, q.flows().get(1).weight(), 1e-9);
    }

    @Test
    void observer_brokenFigure_keepsTheWeightInForce_andCountsIt() {
        ControlSetup setup = new ControlSetup(CONFIG);
        AtomicLong refused = new AtomicLong();
        FlowObserver observer = new FlowObserver(setup, new Overrides(), new ModelCorrection(1),
                new ShareHistory(5), new Forecasts(CONFIG.controller()), new FlowKeys(CONFIG), refused);
        LastReports reports = new LastReports();
        reports.report(stats("gw1", Double.NaN, 0.5, 1, 0.5), 0);
        PoolFlows flows = observer.observe(reports.input(SECOND, null), "default", List.of(0, 1));
        assertEquals(1, refused.get());
        assertTrue(flows.get(0).idle(), "a refused measurement is no observation");
        assertNull(flows.get(0).prior(), "no allocation in force: nothing to keep");
        assertEquals(1, flows.get(1).obs().arrivalRate(), 1e-12);
    }
}
