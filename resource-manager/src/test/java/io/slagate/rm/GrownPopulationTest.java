package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The decision at the report that shows a change, for a closed population that grew: premium's clients went from 5 to
 * 20 and basic's from 20 to 5 (experiment B's last phase). In the interval that shows it premium's new clients each
 * sent at once (arrivals fourfold) while its answers are still the few clients' of before, fast; basic's backlog of the
 * phase before is still being answered, slow. Premium's arriving work, λ~·S~ = 140/s × 63 ms, asks 8.8 of the 10
 * slots and basic's 1.3: a decision at the change that gives premium fewer slots than it had answers the phase before.
 * The experiments' scale and the shipped controller: 0.25 s intervals, a 1.5 s window, a 0.25 s cycle, goals of 100 and
 * 150 ms, min combining, whole slots.
 */
class GrownPopulationTest {
    private static final long START = 1_000_000_000_000L;

    private static SlagateConfig config() {
        return ConfigLoader.parse("""
                gateway: { stats: { reportingInterval: 250ms, window: 1500ms } }
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 10 } ]
                classes:
                  - { name: premium, target: 100ms, utility: { type: pacifici, phi: 1, alpha: 1, beta: 1 } }
                  - { name: basic, target: 150ms, utility: { type: pacifici, phi: 1, alpha: 1, beta: 1 } }
                allocation: { weights: { premium: 7, basic: 3 } }
                controller: { cycle: 250ms, combining: min, resolution: 1 }
                """, "grown-population");
    }

    /** One class's report: the window's figures and the last interval's, at the gateway's weight {@code w}. */
    private static FlowStatsMessage flow(String name, double w, Figures window, Figures last) {
        FlowStatsMessage.Interval interval = new FlowStatsMessage.Interval(0.25, last.arrivals, last.completions, 0,
                last.response, last.response - last.service, last.service);
        return new FlowStatsMessage(name, window.arrivals / 0.25, window.completions / 0.25, 0, window.response,
                window.response - window.service, window.service, 0, 0, w, Double.NaN, Double.NaN, 0, interval);
    }

    /** Per 0.25 s: requests arrived and answered, their mean response and service seconds. */
    private record Figures(long arrivals, long completions, double response, double service) {
    }

    private static StatsMessage report(long seq, double wPremium, Figures premiumWindow, Figures premium, Figures basicWindow,
                                       Figures basic) {
        return new StatsMessage(BusMessage.SCHEMA, "gw1", seq, 0, 1.5, 1,
                List.of(flow("premium", wPremium, premiumWindow, premium), flow("basic", 10 - wPremium, basicWindow, basic)),
                List.of(new ServerStatusMessage("s1", 10, 0, true)));
    }

    private static double weight(ResourceManager.Decision d, String cls) {
        return d.decision().flows().stream().filter(f -> f.className().equals(cls)).findFirst().orElseThrow().weight();
    }

    /** Five premium clients at 40/s answered in 70 ms; twenty basic clients at 144/s in 90 ms, at the weights 7 : 3. */
    private static final Figures PREMIUM_STEADY = new Figures(10, 10, 0.070, 0.065);
    private static final Figures BASIC_STEADY = new Figures(36, 36, 0.090, 0.045);

    private final ResourceManager rm = new ResourceManager("rm", config(), new Overrides(), 0);
    private long now = START;

    /** Six windows of the steady load, decided every cycle; the weight of {@code cls} last decided. */
    private double steady(String cls) {
        rm.onJoin("gw1", now);
        double w = 0;
        for (int i = 0; i < 24; i++) {
            now += 250_000_000L;
            assertTrue(rm.onStats(report(i, 7, PREMIUM_STEADY, PREMIUM_STEADY, BASIC_STEADY, BASIC_STEADY), now).isEmpty(),
                    "a steady load is no change");
            w = weight(rm.step(now), cls);
        }
        return w;
    }

    /** The report after the steady load with these last intervals; the weight of {@code cls} decided at it. */
    private double changed(Figures premium, Figures basic, Set<String> expectChanged, String cls) {
        now += 250_000_000L;
        assertEquals(expectChanged, rm.onStats(report(100, 7, PREMIUM_STEADY, premium, BASIC_STEADY, basic), now));
        return weight(rm.step(now), cls);
    }

    @Test
    void aPopulationThatGrew_isNotGivenFewerSlotsAtTheChange() {
        double before = steady("premium");
        double after = changed(new Figures(35, 10, 0.067, 0.063), new Figures(6, 32, 0.126, 0.056), Set.of("premium", "basic"),
                "premium");
        assertTrue(after >= before, "premium's grown population keeps its slots at the change: " + before + " -> " + after);
    }

    /**
     * The arriving-work reading is what the decision is made on, not a measurement: the model correction is judged on
     * what was measured, and a window in which the population still outran its answers (overload) teaches it nothing.
     */
    @Test
    void theArrivingWorkReading_teachesTheCorrectionNothing() {
        learnsNothingAfterTheChange("premium", new Figures(36, 24, 0.090, 0.063), new Figures(6, 20, 0.110, 0.056),
                "premium measured in overload");
    }

    /**
     * After the change of the tests above, the next report's last intervals are {@code premium} and {@code basic}:
     * {@code cls}'s correction judges no error and learns no gain from it.
     */
    private void learnsNothingAfterTheChange(String cls, Figures premium, Figures basic, String why) {
        steady("premium");
        changed(new Figures(35, 10, 0.067, 0.063), new Figures(6, 32, 0.126, 0.056), Set.of("premium", "basic"), cls);
        assertEquals(1.0, rm.correction().gain("gw1/" + cls), 1e-12, "restarted by the change");
        double error = rm.correction().error("gw1/" + cls);
        now += 250_000_000L;
        rm.onStats(report(101, 8, PREMIUM_STEADY, premium, BASIC_STEADY, basic), now);
        rm.step(now);
        assertEquals(error, rm.correction().error("gw1/" + cls), 1e-12, why + ": no error judged");
        assertEquals(1.0, rm.correction().gain("gw1/" + cls), 1e-12, why + ": and no gain learned");
    }

    /**
     * Basic's population shrank at the same change: its interval answers 32 requests of the backlog its twenty clients
     * left, slow (126 ms), while only 6 arrive (24/s). Those answers say nothing of the load now arriving, whose work,
     * 24/s × 56 ms = 1.3 slots, open arrivals would take about 102 ms on 2 slots (Erlang C: C = 0.54, 46 ms of wait),
     * within basic's 150 ms; premium's arriving work asks 8.8. Read as measured, basic's backlog held its 3 slots.
     */
    @Test
    void aPopulationThatShrank_isNotHeldToItsSlotsByTheBacklogItLeft() {
        steady("premium");
        double after = changed(new Figures(35, 10, 0.067, 0.063), new Figures(6, 32, 0.126, 0.056), Set.of("premium", "basic"),
                "basic");
        assertTrue(after <= 2, "basic gives up the slots its backlog held: " + after);
    }

    /** Nor is the drained reading: the next interval still answering the backlog teaches the correction nothing. */
    @Test
    void theDrainedReading_teachesTheCorrectionNothing() {
        learnsNothingAfterTheChange("basic", new Figures(36, 34, 0.090, 0.063), new Figures(6, 14, 0.120, 0.056),
                "basic still answering its backlog");
    }

    @Test
    void theDrainedReading_isServedAtTheArrivalRate_betweenTheServiceAndTheMeasuredTime() {
        io.slagate.rm.model.FlowObservation o = new io.slagate.rm.model.FlowObservation(24, 0.126, 3, 128, 0.056);
        assertTrue(o.draining());
        io.slagate.rm.model.FlowObservation d = FlowObserver.arriving(o, 10, true);
        assertEquals(24, d.throughput(), 1e-12, "served at the rate now arriving");
        // Erlang C at a = 24 × 0.056 = 1.344 on 3 slots: C = 0.184, R = 0.056 + 0.184 × 0.056 / 1.656 = 0.0622 s
        assertEquals(0.0622, d.responseSeconds(), 0.0002, "open arrivals' wait at 3 slots");
        io.slagate.rm.model.FlowObservation slow = new io.slagate.rm.model.FlowObservation(24, 0.05, 3, 128, 0.05);
        assertEquals(0.05, FlowObserver.arriving(slow, 10, true).responseSeconds(), 1e-12, "never more than was measured");
        io.slagate.rm.model.FlowObservation steady = new io.slagate.rm.model.FlowObservation(24, 0.126, 3, 24, 0.056);
        assertTrue(!steady.draining() && FlowObserver.arriving(steady, 10, true) == steady, "a flow served at its rate passes as it is");
        assertTrue(FlowObserver.arriving(o, 10, false) == o, "answers outrunning arrivals that did not fall: a queue its share clears");
    }

    /**
     * A flood is not such a population: basic's arrivals fivefold in one interval, 720/s × 45 ms asking 32 slots of 10,
     * no share serves it, and at the change it takes none of premium's slots (the figure it then reads is its overload's,
     * flat in the share).
     */
    @Test
    void aFloodAtTheChange_winsNoSlots() {
        double before = steady("basic");
        double after = changed(PREMIUM_STEADY, new Figures(180, 36, 0.095, 0.045), Set.of("basic"), "basic");
        assertTrue(after <= before, "the flood keeps at most its slots: " + before + " -> " + after);
    }
}
