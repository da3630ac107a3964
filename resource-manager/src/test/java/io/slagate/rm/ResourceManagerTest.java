package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The control step fed synthetic statistics, with an injected clock (arbitrary, large origin). */
class ResourceManagerTest {
    private static final long SECOND = 1_000_000_000L;
    private long now = Long.MAX_VALUE - 1_000_000 * SECOND;

    private static SlagateConfig config(String combining, String extraServers, String controller) {
        return config(combining, extraServers, controller, "5s");
    }

    private static SlagateConfig config(String combining, String extraServers, String controller, String reportingInterval) {
        return ConfigLoader.parse("gateway: { stats: { reportingInterval: " + reportingInterval + ", window: 30s } }\n" + """
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 10 }
                """ + extraServers + """
                classes:
                  - { name: premium, target: 2s }
                  - { name: basic, target: 3s }
                allocation: { weights: { premium: 7, basic: 3 } }
                controller: { combining: %s, model: mm1, correctionBound: 1%s }
                """.formatted(combining, controller), "rm-test");
    }

    // These tests exercise the optimizer and the damping on the paper's model (M/M/1, no online correction):
    // their plants are built around it. The other models are tested in rm.model, the correction in ModelCorrectionTest.

    /**
     * A gateway report: per class λ, t, its weight; servers with caps and rotation. Its window is one 5 s cycle: the
     * plants answer for the weights of the last cycle alone.
     */
    private static StatsMessage stats(String gw, double[] lambda, double[] t, double[] w, Map<String, Boolean> servers, int capEach) {
        return stats(gw, lambda, t, w, servers, capEach, 1);
    }

    /** A report sent under allocation version {@code version}. */
    private static StatsMessage stats(String gw, double[] lambda, double[] t, double[] w, Map<String, Boolean> servers, int capEach,
                                      long version) {
        List<FlowStatsMessage> flows = new ArrayList<>();
        String[] names = {"premium", "basic"};
        for (int c = 0; c < 2; c++) {
            flows.add(new FlowStatsMessage(names[c], lambda[c], lambda[c], 0, t[c], 0, t[c], 0, 0, w[c]));
        }
        List<ServerStatusMessage> ss = new ArrayList<>();
        servers.forEach((id, up) -> ss.add(new ServerStatusMessage(id, capEach, 0, up)));
        return new StatsMessage(BusMessage.SCHEMA, gw, 1, 0, 5, version, flows, ss);
    }

    private static double w(AllocationMessage a, String gw, String cls) {
        return a.gateways().get(gw).weights().get(cls);
    }

    private static int cap(AllocationMessage a, String gw, String server) {
        return a.gateways().get(gw).caps().getOrDefault(server, 0);
    }

    @Test
    void step_premiumOverTarget_shiftsWeightFromBasic() {
        ResourceManager rm = new ResourceManager("rm", config("sum", "", ", damping: 1"), new Overrides(), 0);
        // premium misses its 2 s target badly at w = 5; basic is comfortably under 3 s at w = 5
        rm.onStats(stats("gw1", new double[] {4, 4}, new double[] {4.0, 0.8}, new double[] {5, 5}, Map.of("s1", true), 10), now);
        AllocationMessage a = rm.step(now).allocation();
        assertTrue(w(a, "gw1", "premium") > 5, "premium gains share: " + a);
        assertTrue(w(a, "gw1", "basic") < 5);
        assertEquals(10, w(a, "gw1", "premium") + w(a, "gw1", "basic"), 1e-9, "Σ w = N");
        assertEquals(1, a.version());
    }

    /** A plant: given the weights, the response time each class sees. */
    private interface Plant {
        double responseSeconds(int c, double w);
    }

    /** Runs the closed loop and returns the weights of every cycle. */
    private List<double[]> closedLoop(ResourceManager rm, Plant plant, double[] lambda, int cycles) {
        double[] w = {5, 5};
        List<double[]> history = new ArrayList<>();
        for (int cycle = 0; cycle < cycles; cycle++) {
            double[] t = {plant.responseSeconds(0, w[0]), plant.responseSeconds(1, w[1])};
            rm.onStats(stats("gw1", lambda, t, w, Map.of("s1", true), 10), now);
            AllocationMessage a = rm.step(now).allocation();
            w = new double[] {w(a, "gw1", "premium"), w(a, "gw1", "basic")};
            history.add(w.clone());
            now += 5 * SECOND;
        }
        return history;
    }

    private static void assertSettled(List<double[]> history, int lastCycles) {
        double[] settled = history.get(history.size() - 1);
        for (int i = history.size() - lastCycles; i < history.size(); i++) {
            assertEquals(settled[0], history.get(i)[0], 1e-9, "the last " + lastCycles + " cycles hold the same weights");
        }
    }

    /**
     * The model's own plant: w slots, each an M/M/1 server at rate s fed λ/w, so t = 1/(s − λ/w).
     * Eq. 8 recovers s exactly from one observation: the loop settles on the optimum at once.
     */
    @Test
    void loop_onSlotwiseMM1Plant_settlesOnTheOptimum() {
        ResourceManager rm = new ResourceManager("rm", config("min", "", ", damping: 1"), new Overrides(), 0);
        double[] lambda = {3.0, 4.0};
        Plant plant = (c, w) -> lambda[c] / w < 1 ? 1 / (1 - lambda[c] / w) : 100;
        List<double[]> history = closedLoop(rm, plant, lambda, 20);
        assertSettled(history, 18);
        double[] w = history.get(19);
        assertTrue(w[0] >= 4 && w[1] >= 5, "both stable: " + w[0] + "/" + w[1]);
    }

    /**
     * A window of six cycles, as deployed (30 s over 5 s): each report's t~ is the mean of the last six cycles' response
     * times, measured partly under the shares before. Paired with the share in force, a cut looked free until the
     * window caught up, and the loop cut again; paired with the window's mean share and holding each move until the
     * window has run wholly under it, the loop steps toward where the plant measured at once settles, one move per
     * window, never past it, and settles on an allocation as good as that one (here 5/5 and 4/6 tie under min
     * combining: basic at 5 s, or premium at 4 s, each 2 s over its target).
     */
    @Test
    void loop_withAWindowOfSixCycles_settlesWhereTheInstantLoopDoes() {
        double[] lambda = {3.0, 4.0};
        Plant plant = (c, w) -> lambda[c] / w < 1 ? 1 / (1 - lambda[c] / w) : 100;
        ResourceManager instantLoop = new ResourceManager("rm", config("min", "", ", damping: 1"), new Overrides(), 0);
        double[] instant = closedLoop(instantLoop, plant, lambda, 20).get(19);
        double instantUtility = instantLoop.step(now).decision().clusterUtility();
        // reports every second, the last heard half a second before each cycle, as on a bus
        ResourceManager rm = new ResourceManager("rm", config("min", "", ", damping: 1", "1s"), new Overrides(), 0);
        double[] w = {9, 1};
        List<double[]> window = new ArrayList<>();
        List<double[]> history = new ArrayList<>();
        List<Double> utility = new ArrayList<>();
        for (int cycle = 0; cycle < 40; cycle++) {
            window.add(new double[] {plant.responseSeconds(0, w[0]), plant.responseSeconds(1, w[1])});
            if (window.size() > 6) {
                window.remove(0);
            }
            double[] t = new double[2];
            for (double[] x : window) {
                t[0] += x[0] / window.size();
                t[1] += x[1] / window.size();
            }
            rm.onStats(new StatsMessage(BusMessage.SCHEMA, "gw1", cycle, 0, 30, 1, List.of(
                    new FlowStatsMessage("premium", lambda[0], lambda[0], 0, t[0], 0, t[0], 0, 0, w[0]),
                    new FlowStatsMessage("basic", lambda[1], lambda[1], 0, t[1], 0, t[1], 0, 0, w[1])),
                    List.of(new ServerStatusMessage("s1", 10, 0, true))), now - SECOND / 2);
            ResourceManager.Decision d = rm.step(now);
            AllocationMessage a = d.allocation();
            w = new double[] {w(a, "gw1", "premium"), w(a, "gw1", "basic")};
            history.add(w.clone());
            utility.add(d.decision().clusterUtility());
            now += 5 * SECOND;
        }
        StringBuilder seen = new StringBuilder();
        history.forEach(x -> seen.append(' ').append((int) x[0]));
        int lastMove = -6;
        for (int i = 1; i < 40; i++) {
            double p = history.get(i)[0];
            assertTrue(p <= history.get(i - 1)[0] && p >= instant[0] - 1, "toward " + instant[0] + ", never past it:" + seen);
            if (p != history.get(i - 1)[0]) {
                assertTrue(i - lastMove >= 6, "one move per window:" + seen);
                lastMove = i;
            }
        }
        assertSettled(history, 10);
        assertTrue(Math.abs(history.get(39)[0] - instant[0]) <= 1, "premium within one unit of " + instant[0] + ":" + seen);
        assertEquals(instantUtility, utility.get(39), 1e-9, "as good as the instant loop's allocation:" + seen);
    }

    /** Damping costs a few cycles, not the destination: on the model's own plant it reaches the undamped optimum. */
    @Test
    void loop_damped_reachesTheSameOptimumWithinFewCycles() {
        double[] lambda = {3.0, 4.0};
        Plant plant = (c, w) -> lambda[c] / w < 1 ? 1 / (1 - lambda[c] / w) : 100;
        double[] undamped = closedLoop(new ResourceManager("rm", config("min", "", ", damping: 1"), new Overrides(), 0),
                plant, lambda, 20).get(19);
        List<double[]> damped = closedLoop(new ResourceManager("rm", config("min", "", ""), new Overrides(), 0), plant, lambda, 20);
        assertSettled(damped, 12);
        assertEquals(undamped[0], damped.get(19)[0], 1e-9);
    }

    /**
     * A plant the model gets wrong: one M/M/1 queue per class whose rate grows with its share,
     * t = 1/(w·s − λ); its best allocation is 5/5. Undamped (γ = 1, the paper's controller) the loop
     * swings 6/4 → 2/8 → 8/2 forever. With the default adaptive damping it stays within one unit of
     * 5/5 and sits on 5/5 most of the time: the model keeps predicting that 6/4 is slightly better,
     * so γ grows back and the loop probes 6/4 now and then (one cycle in six here), learns from it
     * and returns — the price of never getting stuck when the load really changes.
     */
    @Test
    void loop_onMismatchedPlant_undampedSwingsWide_dampedStaysNearTheBest() {
        double[] lambda = {3.0, 4.0};
        Plant plant = (c, w) -> w > lambda[c] ? 1 / (w - lambda[c]) : 100;
        List<double[]> undamped = closedLoop(new ResourceManager("rm", config("min", "", ", damping: 1"), new Overrides(), 0),
                plant, lambda, 30);
        double lo = 10;
        double hi = 0;
        for (int i = 10; i < 30; i++) {
            lo = Math.min(lo, undamped.get(i)[0]);
            hi = Math.max(hi, undamped.get(i)[0]);
        }
        assertTrue(hi - lo >= 4, "undamped, the model mismatch makes the loop swing wide: " + lo + ".." + hi);
        List<double[]> damped = closedLoop(new ResourceManager("rm", config("min", "", ""), new Overrides(), 0), plant, lambda, 30);
        int atBest = 0;
        for (int i = 3; i < 30; i++) {
            double p = damped.get(i)[0];
            assertTrue(p >= 5 && p <= 6, "cycle " + i + ": within one unit of 5/5, never the unstable 2/8 or 8/2: " + p);
            atBest += p == 5 ? 1 : 0;
        }
        assertTrue(atBest >= 20, "on 5/5 in most of the last 27 cycles: " + atBest);
    }

    /**
     * The damping must never leave the loop stuck: statistics that flip the optimum every cycle
     * shrink γ to its floor (each flip reverses the last move); then a steady load that calls for
     * a new allocation must still be reached within a few cycles — not held off because the small
     * γ rounds every move to zero.
     */
    @Test
    void loop_afterDampingShrank_stillFollowsASteadyDemand() {
        Map<String, Boolean> up = Map.of("s1", true);
        double[] lambda = {4, 4};
        double[] w5 = {5, 5};
        ResourceManager undamped = new ResourceManager("rm", config("min", "", ", damping: 1"), new Overrides(), 0);
        undamped.onStats(stats("gw1", lambda, new double[] {4.0, 0.8}, w5, up, 10), now);
        double optimum = w(undamped.step(now).allocation(), "gw1", "premium");
        assertTrue(optimum >= 7, "premium far over target needs much more weight: " + optimum);

        ResourceManager rm = new ResourceManager("rm", config("min", "", ""), new Overrides(), 0);
        for (int i = 0; i < 12; i++) {
            double[] t = i % 2 == 0 ? new double[] {4.0, 0.8} : new double[] {0.8, 4.0};
            rm.onStats(stats("gw1", lambda, t, w5, up, 10), now);
            rm.step(now);
            now += 5 * SECOND;
        }
        double reached = 0;
        for (int i = 0; i < 15; i++) {
            rm.onStats(stats("gw1", lambda, new double[] {4.0, 0.8}, w5, up, 10), now);
            reached = w(rm.step(now).allocation(), "gw1", "premium");
            now += 5 * SECOND;
        }
        assertEquals(optimum, reached, 1e-9, "the steady demand is met within 15 cycles");
    }

    @Test
    void edges_noMeasurements_giveStaticWeights() {
        ResourceManager rm = new ResourceManager("rm", config("sum", "", ""), new Overrides(), 0);
        rm.onJoin("gw1", now);
        AllocationMessage a = rm.step(now).allocation();
        assertEquals(7, w(a, "gw1", "premium"), 1e-9);
        assertEquals(3, w(a, "gw1", "basic"), 1e-9);
        assertEquals(10, cap(a, "gw1", "s1"));
    }

    @Test
    void edges_flowWithoutTraffic_keepsMinimumWeight() {
        ResourceManager rm = new ResourceManager("rm", config("sum", "", ""), new Overrides(), 0);
        rm.onStats(stats("gw1", new double[] {0, 5}, new double[] {0, 2.0}, new double[] {5, 5}, Map.of("s1", true), 10), now);
        AllocationMessage a = rm.step(now).allocation();
        assertEquals(1, w(a, "gw1", "premium"), 1e-9, "no traffic: the minimum");
        assertEquals(9, w(a, "gw1", "basic"), 1e-9);
    }

    @Test
    void edges_unstablePrediction_isWorstButNoCrash() {
        ResourceManager rm = new ResourceManager("rm", config("min", "", ""), new Overrides(), 0);
        // both heavily overloaded: every allocation predicts instability somewhere
        rm.onStats(stats("gw1", new double[] {50, 50}, new double[] {9, 9}, new double[] {5, 5}, Map.of("s1", true), 10), now);
        ResourceManager.Decision d = rm.step(now);
        assertEquals(10, w(d.allocation(), "gw1", "premium") + w(d.allocation(), "gw1", "basic"), 1e-9);
        assertTrue(Double.isFinite(d.decision().clusterUtility()) && d.decision().clusterUtility() < 0);
    }

    @Test
    void edges_gatewayStopsReporting_expires_andShareGoesToOthers() {
        ResourceManager rm = new ResourceManager("rm", config("sum", "", ""), new Overrides(), 0);
        double[] l = {2, 2};
        double[] t = {1, 1};
        double[] w = {2.5, 2.5};
        rm.onStats(stats("gw1", l, t, w, Map.of("s1", true), 5), now);
        rm.onStats(stats("gw2", l, t, w, Map.of("s1", true), 5), now);
        AllocationMessage both = rm.step(now).allocation();
        assertEquals(10, cap(both, "gw1", "s1") + cap(both, "gw2", "s1"), "Σ_g N_{g,s} = N_s");
        now += 10 * SECOND;
        rm.onStats(stats("gw1", l, t, w, Map.of("s1", true), 5), now); // gw2 silent
        now += 10 * SECOND; // 20 s since gw2 spoke: > 3 intervals of 5 s
        AllocationMessage one = rm.step(now).allocation();
        assertEquals(List.of("gw1"), new ArrayList<>(one.gateways().keySet()));
        assertEquals(10, cap(one, "gw1", "s1"), "the whole N_s goes to the live gateway");
    }

    /**
     * A gateway whose reports claim its weights move at every report is held at the weights in force (its own flows
     * only); the other gateway's flows are still decided from their own reports, and the allocation stays whole.
     */
    @Test
    void aGatewayClaimingAMoveAtEveryReport_holdsOnlyItsOwnFlows() {
        ResourceManager rm = new ResourceManager("rm", config("sum", "", ", damping: 1"), new Overrides(), 0);
        Map<String, Boolean> up = Map.of("s1", true);
        double[] l = {1, 1};
        double[] fine = {0.5, 0.5};
        rm.onStats(overWindow(stats("gw1", l, fine, new double[] {2.5, 2.5}, up, 5)), now);
        rm.onStats(overWindow(stats("gw2", l, fine, new double[] {2.5, 2.5}, up, 5)), now);
        AllocationMessage a = rm.step(now).allocation();
        for (int cycle = 1; cycle <= 10; cycle++) {
            now += 5 * SECOND;
            double[] flap = cycle % 2 == 0 ? new double[] {4, 1} : new double[] {1, 4};
            double[] t = cycle < 8 ? fine : new double[] {10.0, 0.5}; // gw1's premium slows once its window is steady
            rm.onStats(overWindow(stats("gw1", l, t, new double[] {w(a, "gw1", "premium"), w(a, "gw1", "basic")}, up,
                    cap(a, "gw1", "s1"))), now);
            rm.onStats(overWindow(stats("gw2", l, fine, flap, up, cap(a, "gw2", "s1"))), now);
            AllocationMessage next = rm.step(now).allocation();
            assertEquals(w(a, "gw2", "premium"), w(next, "gw2", "premium"), 1e-9, "cycle " + cycle + ": gw2 held");
            assertEquals(w(a, "gw2", "basic"), w(next, "gw2", "basic"), 1e-9, "cycle " + cycle + ": gw2 held");
            assertEquals(10, cap(next, "gw1", "s1") + cap(next, "gw2", "s1"), "Σ_g N_{g,s} = N_s");
            if (cycle == 8) {
                assertTrue(w(next, "gw1", "premium") > w(a, "gw1", "premium"), "gw1 decided from its own report: " + next.gateways());
            }
            a = next;
        }
    }

    /** The report over the deployed window, 30 s: six reports of 5 s each. */
    private static StatsMessage overWindow(StatsMessage s) {
        return new StatsMessage(s.schema(), s.gatewayId(), s.sequence(), s.timestampMillis(), 30, s.allocationVersion(), s.flows(),
                s.servers());
    }

    @Test
    void aGatewayThatFellSilentOrLeft_leavesNothingLearnedBehind() {
        ResourceManager rm = new ResourceManager("rm", config("sum", "", ", forecast: trend"), new Overrides(), 0);
        double[] l = {2, 2};
        double[] t = {1, 1};
        double[] w = {2.5, 2.5};
        for (String g : List.of("gw1", "gw2", "gw3")) {
            rm.onStats(stats(g, l, t, w, Map.of("s1", true), 5), now);
        }
        rm.step(now);
        for (String g : List.of("gw1", "gw2", "gw3")) {
            assertTrue(rm.flowsLearned().containsAll(List.of(g + "/premium", g + "/basic")), "decided for: " + rm.flowsLearned());
            assertTrue(rm.forecastErrors().containsKey(g + "/premium"), "forecast for: " + rm.forecastErrors().keySet());
        }
        rm.onLeave("gw3");
        now += 10 * SECOND;
        rm.onStats(stats("gw1", l, t, w, Map.of("s1", true), 5), now); // gw2 silent
        now += 10 * SECOND;
        rm.step(now);
        for (String g : List.of("gw2", "gw3")) {
            assertTrue(rm.flowsLearned().stream().noneMatch(f -> f.startsWith(g + "/")), g + ": " + rm.flowsLearned());
            assertTrue(rm.forecastErrors().keySet().stream().noneMatch(f -> f.startsWith(g + "/")), g + ": " + rm.forecastErrors());
        }
        assertTrue(rm.flowsLearned().contains("gw1/premium"), "the live gateway's flows stay: " + rm.flowsLearned());
    }

    /**
     * A gateway that joins behind the same balancer serves at a fair share from its first
     * allocation (before, it started at the minimum, one slot, and crept up over cycles with the damping),
     * and its first report with traffic is not damped up from a minimum either.
     */
    @Test
    void join_startsAtAFairShare_andItsFirstTrafficIsNotDampedFromTheMinimum() {
        ResourceManager rm = new ResourceManager("rm", config("min", "", ""), new Overrides(), 0);
        Map<String, Boolean> up = Map.of("s1", true);
        double[] lambda = {1.2, 1.5};
        for (String g : List.of("gw1", "gw2")) {
            rm.onStats(stats(g, lambda, new double[] {1.5, 2.0}, new double[] {2.5, 2.5}, up, 5), now);
        }
        AllocationMessage two = rm.step(now).allocation();
        assertEquals(10, cap(two, "gw1", "s1") + cap(two, "gw2", "s1"));
        rm.onJoin("gw3", now);
        AllocationMessage three = rm.step(now + SECOND).allocation();
        int c1 = cap(three, "gw1", "s1");
        int c2 = cap(three, "gw2", "s1");
        int c3 = cap(three, "gw3", "s1");
        assertEquals(10, c1 + c2 + c3, "Σ_g N_g,s = N_s");
        assertTrue(c3 >= 3, "the joining gateway gets about a third of the slots, not the minimum: " + three.gateways());
        for (String cls : List.of("premium", "basic")) {
            double others = (w(two, "gw1", cls) + w(two, "gw2", cls)) / 3;
            assertEquals(others, w(three, "gw3", cls), 1.0, cls + ": the others' mean weight shared three ways");
        }
        // its first report: it carries traffic like the others; the next allocation keeps it near its share
        for (String g : List.of("gw1", "gw2", "gw3")) {
            AllocationMessage a = three;
            rm.onStats(stats(g, lambda, new double[] {1.5, 2.0},
                    new double[] {w(a, g, "premium"), w(a, g, "basic")}, up, cap(a, g, "s1")), now + 2 * SECOND);
        }
        AllocationMessage next = rm.step(now + 2 * SECOND).allocation();
        assertTrue(cap(next, "gw3", "s1") >= 3, "still about a third: " + next.gateways());
    }

    @Test
    void damping_skipsAFlowThatWasIdleAndNowCarriesTraffic() {
        ResourceManager rm = new ResourceManager("rm", config("min", "", ""), new Overrides(), 0);
        Map<String, Boolean> up = Map.of("s1", true);
        // basic idle: premium holds nearly everything, basic the minimum
        rm.onStats(stats("gw1", new double[] {0.2, 0}, new double[] {0.5, 0}, new double[] {5, 5}, up, 10), now);
        AllocationMessage idle = rm.step(now).allocation();
        rm.onStats(stats("gw1", new double[] {0.2, 0}, new double[] {0.5, 0},
                new double[] {w(idle, "gw1", "premium"), w(idle, "gw1", "basic")}, up, 10), now + SECOND);
        idle = rm.step(now + SECOND).allocation();
        assertEquals(1.0, w(idle, "gw1", "basic"), 1e-9, "an idle class keeps the minimum: " + idle.gateways());
        // basic's clients arrive and queue behind its one slot: the optimum in one step, not a creep from 1
        rm.onStats(stats("gw1", new double[] {0.2, 0.5}, new double[] {0.5, 30},
                new double[] {w(idle, "gw1", "premium"), 1}, up, 10), now + 2 * SECOND);
        AllocationMessage woke = rm.step(now + 2 * SECOND).allocation();
        ResourceManager undamped = new ResourceManager("rm", config("min", "", ", damping: 1"), new Overrides(), 0);
        undamped.onStats(stats("gw1", new double[] {0.2, 0.5}, new double[] {0.5, 30},
                new double[] {w(idle, "gw1", "premium"), 1}, up, 10), now);
        assertEquals(w(undamped.step(now).allocation(), "gw1", "basic"), w(woke, "gw1", "basic"), 1e-9,
                "the same step as without damping: " + woke.gateways());
        assertTrue(w(woke, "gw1", "basic") >= 3, "a step a damped blend (γ = 0.5) would not take: " + woke.gateways());
    }

    /** A NaN, ∞ or negative figure in a report is dropped (with a warning) and counted; that flow keeps the weight in force, nothing becomes NaN. */
    @Test
    void edges_nonFiniteObservation_dropped_andTheFlowKeepsItsWeight() {
        ResourceManager rm = new ResourceManager("rm", config("min", "", ""), new Overrides(), 0);
        Map<String, Boolean> up = Map.of("s1", true);
        rm.onStats(stats("gw1", new double[] {2, 1}, new double[] {3.0, 1.0}, new double[] {5, 5}, up, 10), now);
        AllocationMessage before = rm.step(now).allocation();
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, -1}) {
            rm.onStats(stats("gw1", new double[] {2, 1}, new double[] {bad, 1.0},
                    new double[] {w(before, "gw1", "premium"), w(before, "gw1", "basic")}, up, 10), now + SECOND);
            AllocationMessage after = rm.step(now + SECOND).allocation();
            assertEquals(w(before, "gw1", "premium"), w(after, "gw1", "premium"), 1e-9, "premium keeps its weight (" + bad + ")");
            double total = w(after, "gw1", "premium") + w(after, "gw1", "basic");
            assertTrue(Double.isFinite(total) && Math.abs(total - 10) < 1e-9, "finite weights that add up: " + after.gateways());
            assertEquals(10, cap(after, "gw1", "s1"));
        }
        assertEquals(3, rm.refusedFigures(), "each refused report counted");
    }

    /**
     * The deficit as the manager computes it, with the paper's M/M/1 (eq. 8–9: μ = 1/t~ + λ~/w~, t(w) =
     * 1/(μ − λ~/w)): premium λ = 4, t = 10 s at w = 5 gives μ = 0.9, and t(w) ≤ 2 s needs 4/w ≤ 0.4, w ≥ 10;
     * basic λ = 3, t = 10 s at w = 5 gives μ = 0.7, and t(w) ≤ 3 s needs 3/w ≤ 0.7 − 1/3, w ≥ 8.18 → 9:
     * 19 slots of 10, so 9 lacking, one server of 10 more.
     */
    @Test
    void capacityDeficit_slotsEveryClassNeedsAtTheMeasuredLoad() {
        ResourceManager rm = new ResourceManager("rm", config("min", "", ""), new Overrides(), 0);
        rm.onStats(stats("gw1", new double[] {4, 3}, new double[] {10, 10}, new double[] {5, 5}, Map.of("s1", true), 10), now);
        DecisionMessage decision = rm.step(now).decision();
        DecisionMessage.PoolCapacity line = decision.capacity().get(0); // what the console shows
        assertEquals("default", line.pool());
        assertEquals(10, line.haveSlots());
        assertEquals(19, line.neededSlots(), 1e-9);
        assertEquals(1, line.servers(), 1e-9);
        assertEquals(10, line.neededByClass().get("premium"), 1e-9);
        CapacityDeficit.Result d = rm.deficits().get("default");
        assertEquals(10, d.neededByClass().get("premium"), 1e-9);
        assertEquals(9, d.neededByClass().get("basic"), 1e-9);
        assertEquals(19, d.neededSlots(), 1e-9);
        assertEquals(9, d.deficitSlots(), 1e-9);
        assertEquals(1, d.servers());
    }

    /**
     * A percentile goal under M/M/1, whose sojourn time is exponential: p95 = t · ln 20. The same
     * measurement as above: premium's p95 ≤ 6 s needs t(w) ≤ 6/ln 20 = 2.003 s, 4/w ≤ 0.9 − 0.4993, w ≥ 9.98
     * → 10 slots (as the 2 s mean did); p95 ≤ 2 s needs t(w) ≤ 0.668 s, beyond μ: no share reaches it.
     */
    @Test
    void percentileGoal_isTheModelsQuantile_inTheDecisionAndTheDeficit() {
        for (String goal : new String[] {"p95: 6s", "p95: 2s"}) {
            SlagateConfig c = ConfigLoader.parse("""
                    gateway: { stats: { reportingInterval: 5s, window: 30s } }
                    servers:
                      - { id: s1, url: "http://127.0.0.1:1", concurrency: 10 }
                    classes:
                      - { name: premium, %s }
                      - { name: basic, target: 3s }
                    controller: { combining: min, model: mm1, correctionBound: 1 }
                    """.formatted(goal), "rm-test");
            ResourceManager rm = new ResourceManager("rm", c, new Overrides(), 0);
            rm.onStats(stats("gw1", new double[] {4, 3}, new double[] {10, 10}, new double[] {5, 5}, Map.of("s1", true), 10), now);
            DecisionMessage d = rm.step(now).decision();
            DecisionMessage.FlowDecision premium = d.flows().stream().filter(f -> f.className().equals("premium")).findFirst().orElseThrow();
            assertEquals(premium.predictedSeconds() * Math.log(20), premium.predictedPercentileSeconds(), 1e-9);
            DecisionMessage.FlowDecision basic = d.flows().stream().filter(f -> f.className().equals("basic")).findFirst().orElseThrow();
            assertTrue(Double.isNaN(basic.predictedPercentileSeconds()));
            CapacityDeficit.Result deficit = rm.deficits().get("default");
            if (goal.equals("p95: 6s")) {
                assertEquals(10, deficit.neededByClass().get("premium"), 1e-9);
                assertEquals(19, deficit.neededSlots(), 1e-9);
            } else {
                assertTrue(Double.isNaN(deficit.neededByClass().get("premium")), "unreachable: " + deficit);
                assertTrue(Double.isNaN(deficit.servers()));
            }
        }
    }

    /**
     * Importance under the paper's M/M/1 (eq. 9), damping off: premium λ = 4, t = 10 s at w = 5 (μ = 0.9),
     * basic λ = 3, t = 10 s at w = 5 (μ = 0.7); 10 slots, minimum 1. Premium's 5 s needs 4/w ≤ 0.7, w ≥ 5.71
     * → 6; basic's 3 s needs 3/w ≤ 0.367, w ≥ 8.18 → 9: not both. Whichever is more important gets its need;
     * the other gets the rest. A discretionary class with traffic keeps the minimum while goals are missed.
     */
    @Test
    void importance_theMoreImportantClassGetsItsNeed_theOtherTheRest() {
        for (boolean premiumFirst : new boolean[] {true, false}) {
            SlagateConfig c = ConfigLoader.parse("""
                    gateway: { stats: { reportingInterval: 5s, window: 30s } }
                    servers:
                      - { id: s1, url: "http://127.0.0.1:1", concurrency: 10 }
                    classes:
                      - { name: premium, target: 5s, importance: %d }
                      - { name: basic, target: 3s, importance: %d }
                    controller: { combining: min, model: mm1, correctionBound: 1, damping: 1 }
                    """.formatted(premiumFirst ? 2 : 1, premiumFirst ? 1 : 2), "rm-test");
            ResourceManager rm = new ResourceManager("rm", c, new Overrides(), 0);
            rm.onStats(stats("gw1", new double[] {4, 3}, new double[] {10, 10}, new double[] {5, 5}, Map.of("s1", true), 10), now);
            AllocationMessage a = rm.step(now).allocation();
            assertEquals(premiumFirst ? 6 : 1, w(a, "gw1", "premium"), 1e-9, "premium first: " + premiumFirst);
            assertEquals(premiumFirst ? 4 : 9, w(a, "gw1", "basic"), 1e-9);
        }
    }

    /** The same load with basic discretionary: premium's 5 s needs 6 slots, basic gets the 4 it leaves. */
    @Test
    void discretionary_getsWhatTheGoalClassesLeave() {
        SlagateConfig c = ConfigLoader.parse("""
                gateway: { stats: { reportingInterval: 5s, window: 30s } }
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 10 }
                classes:
                  - { name: premium, target: 5s }
                  - { name: basic, discretionary: true }
                controller: { combining: min, model: mm1, correctionBound: 1, damping: 1 }
                """, "rm-test");
        ResourceManager rm = new ResourceManager("rm", c, new Overrides(), 0);
        rm.onStats(stats("gw1", new double[] {4, 3}, new double[] {10, 10}, new double[] {5, 5}, Map.of("s1", true), 10), now);
        ResourceManager.Decision d = rm.step(now);
        assertEquals(6, w(d.allocation(), "gw1", "premium"), 1e-9);
        assertEquals(4, w(d.allocation(), "gw1", "basic"), 1e-9);
        assertEquals(0, d.decision().flows().get(1).utility(), 0, "no goal, no utility");
        assertTrue(d.decision().clusterUtility() > 0, "Ω counts premium only: " + d.decision().clusterUtility());
        assertEquals(6, rm.deficits().get("default").neededSlots(), 1e-9, "the deficit counts goal classes only");
    }

    /**
     * concurrency: auto: the manager's N_s is what the gateways share (Σ_g N_{g,s}); it starts at the start
     * value and, once a window has reflected it (⌈30 s / 5 s⌉ + 3 = 9 cycles), grows while the server does
     * not queue (service time at its baseline) and requests wait.
     */
    @Test
    void autoConcurrency_theLimitIsWhatTheGatewaysShare() {
        SlagateConfig c = ConfigLoader.parse("""
                gateway: { stats: { reportingInterval: 5s, window: 30s } }
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: auto }
                classes:
                  - { name: premium, target: 2s }
                  - { name: basic, target: 3s }
                controller: { cycle: 5s, model: mm1, minWeight: 0.1, resolution: 0.1 }
                """, "rm-test");
        ResourceManager rm = new ResourceManager("rm", c, new Overrides(), 0);
        List<FlowStatsMessage> flows = List.of(new FlowStatsMessage("premium", 20, 20, 0, 0.5, 0.45, 0.05, 5, 1, 0.5),
                new FlowStatsMessage("basic", 20, 20, 0, 0.5, 0.45, 0.05, 5, 0, 0.5));
        StatsMessage s = new StatsMessage(BusMessage.SCHEMA, "gw1", 1, 0, 30, 1, flows,
                List.of(new ServerStatusMessage("s1", 1, 1, true, 20, 0.05)));
        int[] caps = new int[10];
        for (int cycle = 0; cycle < 10; cycle++) {
            rm.onStats(s, now);
            caps[cycle] = cap(rm.step(now).allocation(), "gw1", "s1");
        }
        assertEquals(1, caps[0], "the start value");
        assertEquals(1, caps[7], "held while the window fills");
        assertEquals(2, caps[8], "requests waiting: grown");
        assertEquals(2, rm.concurrencyLimits().get("s1").limit());
    }

    /**
     * The objective charges what the gateway or a server failed, not what the client did: a side that answers
     * half its requests on time and sheds the other half must not look better than one that answers them all late,
     * and a client's malformed requests (rejections that are not failures) cost the configuration nothing. Each
     * failure counts as an answer at max(queue timeout 4 s, 2 × target 2 s) = 4 s: U = -(4 - 2) = -2.
     */
    @Test
    void measuredUtility_chargesFailures_notTheClientsFaults() {
        SlagateConfig c = ConfigLoader.parse("""
                gateway: { stats: { reportingInterval: 5s, window: 30s } }
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 10 }
                classes:
                  - { name: premium, target: 2s, queueTimeout: 4s }
                  - { name: basic, target: 3s }
                """, "rm-test");
        ResourceManager rm = new ResourceManager("rm", c, new Overrides(), 0);
        Function<FlowStatsMessage, Double> measured = f -> {
            rm.onStats(new StatsMessage(BusMessage.SCHEMA, "gw1", 1, 0, 30, 1, List.of(f),
                    List.of(new ServerStatusMessage("s1", 10, 0, true))), now);
            return rm.measuredUtility(List.of("premium"));
        };
        // all 10/s answered at 3 s: U = -(3 - 2) = -1
        double late = measured.apply(new FlowStatsMessage("premium", 10, 10, 0, 3, 2.5, 0.5, 0, 0, 1, Double.NaN, Double.NaN, 0));
        assertEquals(-1, late, 1e-9);
        // 5/s answered at 1 s (U = +1), 5/s shed: (5·1 + 5·(-2)) / 10 = -0.5 (without the charge it would read +1)
        double shedding = measured.apply(new FlowStatsMessage("premium", 10, 5, 5, 1, 0.5, 0.5, 0, 0, 1, Double.NaN, Double.NaN, 5));
        assertEquals(-0.5, shedding, 1e-9);
        // the same answers, and 5/s of the client's own faults (rejections, no failures): only the answers count
        double clientsFaults = measured.apply(new FlowStatsMessage("premium", 10, 5, 5, 1, 0.5, 0.5, 0, 0, 1, Double.NaN, Double.NaN, 0));
        assertEquals(1, clientsFaults, 1e-9);
        // everything shed: no answer, still measured
        double allShed = measured.apply(new FlowStatsMessage("premium", 10, 0, 10, Double.NaN, Double.NaN, Double.NaN, 0, 0, 1, Double.NaN,
                Double.NaN, 10));
        assertEquals(-2, allShed, 1e-9);
        // a broken report's failure rate (negative, not finite) is not taken
        double broken = measured.apply(new FlowStatsMessage("premium", 10, 10, 0, 3, 2.5, 0.5, 0, 0, 1, Double.NaN, Double.NaN,
                Double.NEGATIVE_INFINITY));
        assertEquals(-1, broken, 1e-9);
    }

    /**
     * A broken gateway's server figures (bus boundary): a local limit reported with a negative cap, non-finite
     * throughput and service time. It costs only that gateway's own part of the server: the other gateway's
     * reported cap still counts, nothing throws, and once the reports are sane again the server has its N_s.
     */
    @Test
    void brokenServerFigures_costOnlyTheirGatewaysPart() {
        ResourceManager rm = new ResourceManager("rm", config("sum", "", ", damping: 1"), new Overrides(), 0);
        List<FlowStatsMessage> flows = List.of(new FlowStatsMessage("premium", 2, 2, 0, 1, 0, 1, 0, 0, 2.5),
                new FlowStatsMessage("basic", 2, 2, 0, 1, 0, 1, 0, 0, 2.5));
        rm.onStats(new StatsMessage(BusMessage.SCHEMA, "gw1", 1, 0, 30, 1, flows,
                List.of(new ServerStatusMessage("s1", 5, 0, true, 10, 0.1, false))), now);
        rm.onStats(new StatsMessage(BusMessage.SCHEMA, "gw2", 1, 0, 30, 1, flows,
                List.of(new ServerStatusMessage("s1", -5, 0, true, Double.NaN, -1, true))), now);
        AllocationMessage a = rm.step(now).allocation();
        assertEquals(5, cap(a, "gw1", "s1") + cap(a, "gw2", "s1"), "the sane gateway's 5 still count; the broken one's part is 0");
        rm.onStats(new StatsMessage(BusMessage.SCHEMA, "gw2", 2, 0, 30, 1, flows,
                List.of(new ServerStatusMessage("s1", 5, 0, true, 10, 0.1, false))), now);
        AllocationMessage b = rm.step(now).allocation();
        assertEquals(10, cap(b, "gw1", "s1") + cap(b, "gw2", "s1"), "sane again: N_s whole");
    }

    @Test
    void edges_leave_redistributesAtOnce() {
        ResourceManager rm = new ResourceManager("rm", config("sum", "", ""), new Overrides(), 0);
        rm.onJoin("gw1", now);
        rm.onJoin("gw2", now);
        rm.onLeave("gw2");
        assertEquals(10, cap(rm.step(now).allocation(), "gw1", "s1"));
    }

    @Test
    void edges_serverDown_leavesN() {
        ResourceManager rm = new ResourceManager("rm", config("sum", "  - { id: s2, url: \"http://127.0.0.1:2\", concurrency: 6 }\n", ""),
                new Overrides(), 0);
        rm.onStats(stats("gw1", new double[] {2, 2}, new double[] {1, 1}, new double[] {5, 5}, Map.of("s1", true, "s2", false), 10), now);
        AllocationMessage a = rm.step(now).allocation();
        assertEquals(0, cap(a, "gw1", "s2"), "down: no slots");
        assertEquals(10, w(a, "gw1", "premium") + w(a, "gw1", "basic"), 1e-9, "N = 10, not 16");
    }

    @Test
    void edges_nSmallerThanFlows_warnsAndSplitsEqually() {
        ResourceManager rm = new ResourceManager("rm", config("sum", "", ", minWeight: 6"), new Overrides(), 0);
        rm.onStats(stats("gw1", new double[] {2, 2}, new double[] {1, 1}, new double[] {5, 5}, Map.of("s1", true), 10), now);
        AllocationMessage a = rm.step(now).allocation();
        assertTrue(w(a, "gw1", "premium") >= 5 && w(a, "gw1", "basic") >= 5, "minimum becomes ⌊N/K⌋ = 5: " + a);
    }

    @Test
    void overrides_pinnedWeight_heldUntilExpiry_andPause() {
        Overrides o = new Overrides();
        ResourceManager rm = new ResourceManager("rm", config("sum", "", ", damping: 1"), o, 0);
        rm.onStats(stats("gw1", new double[] {4, 4}, new double[] {4.0, 0.8}, new double[] {5, 5}, Map.of("s1", true), 10), now);
        o.pinWeight("gw1", "basic", 8, now + 60 * SECOND);
        AllocationMessage pinned = rm.step(now).allocation();
        assertEquals(8, w(pinned, "gw1", "basic"), 1e-9);
        assertEquals(2, w(pinned, "gw1", "premium"), 1e-9, "the rest of N");
        now += 61 * SECOND;
        rm.onStats(stats("gw1", new double[] {4, 4}, new double[] {4.0, 0.8}, new double[] {5, 5}, Map.of("s1", true), 10), now);
        assertTrue(w(rm.step(now).allocation(), "gw1", "basic") < 8, "the pin expired");
        o.pause();
        ResourceManager.Decision paused = rm.step(now);
        assertNull(paused.allocation(), "paused: gateways keep what they have");
        assertTrue(paused.decision().paused());
        o.resume();
        assertTrue(rm.step(now).allocation() != null);
    }

    @Test
    void fractionalResolution_givesTenths() {
        ResourceManager rm = new ResourceManager("rm", config("sum", "", ", resolution: 0.1"), new Overrides(), 0);
        rm.onStats(stats("gw1", new double[] {4, 4}, new double[] {2.5, 0.8}, new double[] {5, 5}, Map.of("s1", true), 10), now);
        AllocationMessage a = rm.step(now).allocation();
        double p = w(a, "gw1", "premium");
        assertEquals(p, Math.round(p * 10) / 10.0, 1e-9, "a multiple of 0.1");
        assertEquals(10, p + w(a, "gw1", "basic"), 1e-9);
    }

    /**
     * The dead band: both classes far inside their targets, a second report that differs only by
     * measurement noise. The optimum moves, but its predicted gain is below minGain: the allocation
     * in force stays (no swing an operator reads as instability). With minGain 0 the same input moves it.
     */
    @Test
    void step_gainBelowMinGain_keepsTheAllocationInForce() {
        for (double minGain : new double[] {0.25, 0}) { // 0.25 of the tightest target (2 s): 0.5 in utility
            ResourceManager rm = new ResourceManager("rm", config("sum", "", ", damping: 1, minGain: " + minGain), new Overrides(), 0);
            rm.onStats(stats("gw1", new double[] {1, 1}, new double[] {0.30, 0.31}, new double[] {5, 5}, Map.of("s1", true), 10), now);
            AllocationMessage first = rm.step(now).allocation();
            double w0 = w(first, "gw1", "premium");
            rm.onStats(stats("gw1", new double[] {1.1, 0.9}, new double[] {0.33, 0.29}, new double[] {w0, 10 - w0},
                    Map.of("s1", true), 10), now);
            AllocationMessage second = rm.step(now).allocation();
            if (minGain > 0) {
                assertEquals(w0, w(second, "gw1", "premium"), 1e-9, "kept: the predicted gain is noise");
            } else {
                assertTrue(Math.abs(w(second, "gw1", "premium") - w0) > 0, "without a dead band the noise moves it");
            }
        }
    }
}
