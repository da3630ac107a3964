package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.config.ConfigLoader;
import io.slagate.rm.model.ErlangCModel;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.model.MM1Model;
import io.slagate.rm.model.ModelCorrection;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The capacity deficit on predictions whose answer is solved by hand. */
class CapacityDeficitTest {
    @Test
    void slotsNeeded_perFlow_summed_andTheGapInServers() {
        // t(w) = 0.1 + 2/w: within 0.5 s from w = 5; t(w) = 1/w: within 0.25 s from w = 4
        CapacityDeficit.Result r = CapacityDeficit.of("default", 6, 4, 1, List.of(
                new CapacityDeficit.Flow("premium", 0.5, w -> 0.1 + 2 / w),
                new CapacityDeficit.Flow("basic", 0.25, w -> 1 / w)));
        assertTrue(r.reachable());
        assertEquals(9, r.neededSlots(), 1e-9);
        assertEquals(3, r.deficitSlots(), 1e-9);
        assertEquals(1, r.servers(), "3 slots are one server of 4");
        assertEquals(5, r.neededByClass().get("premium"), 1e-9);
        assertEquals(4, r.neededByClass().get("basic"), 1e-9);
        // finer resolution, premium's target 0.55 s: 0.1 + 2/w ≤ 0.55 from w = 4.44, so 4.5 (and basic 4.0)
        assertEquals(8.5, CapacityDeficit.of("default", 6, 4, 0.1, List.of(
                new CapacityDeficit.Flow("premium", 0.55, w -> 0.1 + 2 / w),
                new CapacityDeficit.Flow("basic", 0.25, w -> 1 / w))).neededSlots(), 1e-9);
    }

    @Test
    void slotsToSpare_areWholeServersThatCouldGo_negative() {
        // needs 5 of 20 slots, servers of 10: one server could go (15 of 20 spare, one whole server of 10)
        CapacityDeficit.Result r = CapacityDeficit.of("p", 20, 10, 1, List.of(new CapacityDeficit.Flow("c", 0.5, w -> 0.1 + 2 / w)));
        assertEquals(0, r.deficitSlots());
        assertEquals(-1, r.servers());
        // needs 5 of 12: 7 spare, not a whole server of 10
        assertEquals(0, CapacityDeficit.of("p", 12, 10, 1, List.of(new CapacityDeficit.Flow("c", 0.5, w -> 0.1 + 2 / w))).servers());
        // needs exactly what there is
        assertEquals(0, CapacityDeficit.of("p", 5, 5, 1, List.of(new CapacityDeficit.Flow("c", 0.5, w -> 0.1 + 2 / w))).servers());
    }

    /**
     * Two classes each priced on its own need 5 + 4 = 9 slots; the pool has 6 and both meet their goals at the shares they
     * have (they share the slots they leave idle): nothing lacks, and no server is asked for. When one of them misses at
     * its share, the sum stands. With slots to spare the figure is unchanged (the cap only lowers a need above the slots).
     */
    @Test
    void everyClassMeetingItsGoalAtItsShare_asksForNothing_oneMissingAsksForTheSum() {
        CapacityDeficit.Flow premium = new CapacityDeficit.Flow("premium", w -> 0.1 + 2 / w <= 0.5, w -> true, true);
        CapacityDeficit.Flow basicMet = new CapacityDeficit.Flow("basic", w -> 1 / w <= 0.25, w -> true, true);
        CapacityDeficit.Flow basicMissing = new CapacityDeficit.Flow("basic", w -> 1 / w <= 0.25, w -> true, false);
        CapacityDeficit.Result met = CapacityDeficit.of("p", 6, 4, 1, List.of(premium, basicMet));
        assertEquals(6, met.neededSlots(), 1e-9);
        assertEquals(0, met.deficitSlots(), 1e-9);
        assertEquals(0, met.servers());
        assertEquals(5, met.neededByClass().get("premium"), 1e-9, "the per-class figures stay the model's");
        CapacityDeficit.Result missing = CapacityDeficit.of("p", 6, 4, 1, List.of(premium, basicMissing));
        assertEquals(9, missing.neededSlots(), 1e-9);
        assertEquals(1, missing.servers());
        assertEquals(-1, CapacityDeficit.of("p", 20, 10, 1, List.of(premium, basicMet)).servers(), "9 of 20: one server could go");
    }

    /**
     * "Met at its share" is the measurement: a flow served within its 2 s on slots it borrows beyond its share of 3 (a load
     * of 9.2 slots, past M/M/m's edge at that share) is met, whatever the model says there; one over its target is not,
     * nor one whose arrivals are forecast to rise, nor a percentile goal with no percentile measured.
     */
    @Test
    void metAtItsShare_isTheMeasurement_notTheModelPastItsEdge() {
        ClassGoals mean = new ClassGoals(ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 20 } ]
                classes: [ { name: basic, target: 2s } ]
                """, "capacity-test").classes().get(0));
        FlowObservation borrowing = new FlowObservation(3.0, 1.5, 3, 3.0, 1.0);
        assertTrue(mean.measuredMeets(borrowing));
        assertFalse(mean.meetsForCapacity(new ErlangCModel(), new FlowObservation(9.0, 1.5, 3, 9.0, 1.0), 3, 4),
                "the model at w~: a load of 9 slots on 3, overload");
        assertTrue(mean.measuredMeets(new FlowObservation(9.0, 1.5, 3, 9.0, 1.0)));
        assertFalse(mean.measuredMeets(new FlowObservation(3.0, 2.5, 3, 3.0, 1)));
        assertFalse(mean.measuredMeets(borrowing.withForecast(4.0)), "a rise forecast");
        assertTrue(mean.measuredMeets(borrowing.withForecast(2.0)), "a fall forecast");
        ClassGoals p95 = new ClassGoals(ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 20 } ]
                classes: [ { name: basic, p95: 3s } ]
                """, "capacity-test").classes().get(0));
        assertFalse(p95.measuredMeets(borrowing), "no percentile measured");
        assertTrue(p95.measuredMeets(new FlowObservation(3.0, 1.5, 3, 3.0, 1, 2.9)));
        assertFalse(p95.measuredMeets(new FlowObservation(3.0, 1.5, 3, 3.0, 1, 3.1)));
    }

    @Test
    void aTargetNoShareReaches_isUnreachable_notInfinitelyManyServers() {
        // the service time alone (0.5 s) is over the 0.4 s target
        CapacityDeficit.Result r = CapacityDeficit.of("p", 10, 10, 1, List.of(
                new CapacityDeficit.Flow("slow", 0.4, w -> 0.5 + 1 / w),
                new CapacityDeficit.Flow("fine", 1, w -> 1 / w)));
        assertFalse(r.reachable());
        assertTrue(Double.isNaN(r.servers()));
        assertTrue(Double.isNaN(r.neededByClass().get("slow")));
        assertEquals(1, r.neededByClass().get("fine"), 1e-9);
    }

    @Test
    void whereTheSizingPredictionFindsNoShare_theModelsOwnStands() {
        // the sizing prediction never meets (a level the model does not share), the model meets from w = 8
        CapacityDeficit.Result r = CapacityDeficit.of("p", 4, 4, 1, List.of(new CapacityDeficit.Flow("c", w -> false, w -> w >= 8)));
        assertEquals(8, r.neededSlots(), 1e-9);
        assertEquals(1, r.servers());
    }

    /**
     * The allocation's corrected prediction with a learned gain below 1 never reaches the target; capacity is sized on
     * the model's curve at the measured level. M/M/1 (eq. 8–9): premium λ = 4, t~ = 10 s at w~ = 5 gives μ = 0.9, and
     * t(w) = 1/(0.9 − 4/w) ≤ 2 s from w = 10. The model reproduces t~ at w~, so the level's scale is 1 and the sizing
     * prediction is the model's. The correction, taught that a move bought a fifth of what the model predicted, keeps
     * t~ + g·(t(w) − t~) above 10 − 8.89·g, over 2 s at any share for g ≤ 0.9.
     */
    @Test
    void aLowLearnedGain_doesNotMakeAReachableTargetUnreachable() {
        ClassGoals goals = new ClassGoals(ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 10 } ]
                classes: [ { name: premium, target: 2s } ]
                """, "capacity-test").classes().get(0));
        MM1Model model = new MM1Model();
        ModelCorrection correction = new ModelCorrection(4);
        FlowObservation at5 = new FlowObservation(4, 10, 5);
        for (int i = 0; i < 40; i++) { // each cycle predicts the move to 6 slots, and the next window measures a fifth of it
            correction.decidedAt("gw1/premium", at5);
            double bought = 10 + (model.predictSeconds(at5, 6) - 10) / 5;
            correction.observe("gw1/premium", new FlowObservation(4, bought, 6), model);
        }
        assertTrue(correction.gain("gw1/premium") < 0.5, "gain learned: " + correction.gain("gw1/premium"));
        assertFalse(goals.meets(correction.curve("gw1/premium", model, at5), 1e6), "the corrected prediction: out of reach");
        CapacityDeficit.Result r = CapacityDeficit.of("default", 10, 10, 1, List.of(new CapacityDeficit.Flow("premium",
                w -> goals.meetsForCapacity(model, at5, w, 4), w -> goals.modelMeets(model, at5, w))));
        assertEquals(10, r.neededSlots(), 1e-9);
        assertEquals(0, r.servers());
    }
}
