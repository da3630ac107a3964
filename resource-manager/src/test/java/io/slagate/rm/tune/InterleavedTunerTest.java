package io.slagate.rm.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.TuningSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Tuning without a safe side, with a fake clock, one knob held in memory and all traffic's utility a known function of
 * the knob and of time (a load that drifts).
 */
class InterleavedTunerTest {
    private static final long S = 1_000_000_000L;

    private static TuningSettings settings(String strategy, boolean interleaved) {
        return new TuningSettings(strategy, Duration.ofSeconds(5), Duration.ofSeconds(1), 0.005, 0.3, 6, 0.1, null, null, 0,
                Map.of(), List.of(new TuningSettings.Knob("damping", null, 0, 100, false, Duration.ofSeconds(1), List.of())), Map.of(),
                "controller", interleaved);
    }

    /** The utility at second {@code t} with the knob at {@code v}. */
    private interface Plant {
        double u(int t, double v);
    }

    /** Ticks once a second for {@code seconds}; returns how many ticks measured below {@code floor}. */
    private static int run(InterleavedTuner t, FakeKnob k, Plant p, int seconds, double floor) {
        int below = 0;
        for (int i = 0; i < seconds; i++) {
            double u = p.u(i, k.value);
            below += u < floor ? 1 : 0;
            t.tick(i * S, u, Double.NaN);
        }
        return below;
    }

    private static double peak60(double v) {
        return v > 90 ? -1 : 1 - Math.pow((v - 60) / 100, 2);
    }

    @Test
    void fromAPoorStart_itReachesTheOptimum_whileTheLoadDrifts() {
        FakeKnob k = new FakeKnob("damping", 10);
        InterleavedTuner t = new InterleavedTuner(settings("simplex", true), new KnobSet(List.of(k)), new Random(1), 1);
        // the load adds 0.002 a second: 0.024 between a reference and the trial after it, five times minGain
        run(t, k, (s, v) -> peak60(v) + 0.002 * s, 900, Double.NEGATIVE_INFINITY);
        assertTrue(Math.abs(k.value - 60) <= 10, "tuned to " + k.value + ": " + t.trials());
        assertTrue(t.trials().stream().anyMatch(x -> x.outcome().startsWith("promoted")));
        assertEquals(peak60(10) + 0.002 * 2.5, t.baselineUtility(), 1e-9, "the baseline period's mean (seconds 0 to 5)");
    }

    /**
     * A knob that changes nothing under a load that keeps growing: each trial measures 0.024 more than the reference
     * before it, but exactly the mean of the references on either side of it, so nothing is promoted.
     */
    @Test
    void aGrowingLoad_isNotTakenForAGain() {
        FakeKnob k = new FakeKnob("damping", 30);
        InterleavedTuner t = new InterleavedTuner(settings("simplex", true), new KnobSet(List.of(k)), new Random(2));
        run(t, k, (s, v) -> 0.5 + 0.002 * s, 400, Double.NEGATIVE_INFINITY);
        assertTrue(t.trials().size() >= 6, "trials ran: " + t.trials());
        assertTrue(t.trials().stream().noneMatch(x -> x.outcome().startsWith("promoted")), t.trials().toString());
        assertEquals(30, k.value, "the best configuration is in force");
    }

    /**
     * A knob that changes nothing, all traffic's utility noisy (±0.02 a tick, as the controller experiment's references
     * moved): a gain over {@code minGain} (0.005) is common on noise alone, and was promoted on it. Now a gain must also
     * clear twice its standard error (from the trial's and the two references' spreads). Through the same noise a real
     * slope is still climbed.
     */
    @Test
    void aGainWithinTheNoise_isNotPromoted_aRealOneIs() {
        Random noise = new Random(7);
        FakeKnob k = new FakeKnob("damping", 30);
        InterleavedTuner flat = new InterleavedTuner(settings("simplex", true), new KnobSet(List.of(k)), new Random(1), 1);
        run(flat, k, (s, v) -> 0.1 + 0.02 * noise.nextGaussian(), 1500, Double.NEGATIVE_INFINITY);
        long promoted = flat.trials().stream().filter(x -> x.outcome().startsWith("promoted")).count();
        assertTrue(flat.trials().size() >= 20, "it tried: " + flat.trials());
        // 37 of 103 trials were promoted on noise with minGain alone; 5 of 99 with the noise rule
        assertTrue(promoted <= flat.trials().size() / 10, "at most one trial in ten promoted on noise: " + promoted + " of "
                + flat.trials().size());
        assertTrue(flat.trials().stream().anyMatch(x -> x.outcome().contains("within twice the noise")), flat.trials().toString());

        FakeKnob k2 = new FakeKnob("damping", 10);
        InterleavedTuner sloped = new InterleavedTuner(settings("simplex", true), new KnobSet(List.of(k2)), new Random(1), 1);
        run(sloped, k2, (s, v) -> peak60(v) + 0.02 * noise.nextGaussian(), 900, Double.NEGATIVE_INFINITY);
        assertTrue(Math.abs(k2.value - 60) <= 15, "the optimum is still found through the noise: " + k2.value + " " + sloped.trials());
    }

    /**
     * A knob that changes nothing, and a load that collapses for 12 s every minute (utility 0.5, −0.9 in a collapse), as
     * the controller experiment's near-saturated load did. A reference period inside a collapse made the mean of the two
     * references fall by 0.7, and the trial beside it was promoted on that (its spread small, so the noise rule let it
     * through). References that disagree by more than {@code abortDrop} now leave the trial unjudged.
     */
    @Test
    void aCollapseDuringAReference_isNotTakenForAGain() {
        FakeKnob k = new FakeKnob("damping", 30);
        InterleavedTuner t = new InterleavedTuner(settings("simplex", true), new KnobSet(List.of(k)), new Random(3), 1);
        run(t, k, (s, v) -> s % 60 >= 40 && s % 60 < 52 ? -0.9 : 0.5, 1200, Double.NEGATIVE_INFINITY);
        List<String> outcomes = t.trials().stream().map(Tuner.Trial::outcome).toList();
        assertTrue(outcomes.size() >= 20, "it tried: " + outcomes);
        // before: 6 of 73 trials promoted, each beside a reference inside a collapse
        assertTrue(outcomes.stream().noneMatch(o -> o.startsWith("promoted")), String.join("\n", outcomes));
        assertTrue(outcomes.stream().anyMatch(o -> o.startsWith("unjudged")), String.join("\n", outcomes));
        assertEquals(30, t.bestValues()[0], "the best configuration is the one it started from");
    }

    /** Every trial over the cliff costs at most its settle time and one measured cycle; none is promoted. */
    @Test
    void aTrialOverTheCliff_isAbortedAtItsFirstMeasuredCycle() {
        FakeKnob k = new FakeKnob("damping", 50);
        InterleavedTuner t = new InterleavedTuner(settings("hill", true), new KnobSet(List.of(k)), new Random(3));
        int bad = run(t, k, (s, v) -> v > 55 ? -1 : peak60(v), 300, 0);
        long aborted = t.trials().stream().filter(x -> x.outcome().startsWith("aborted")).count();
        assertTrue(aborted >= 1, t.trials().toString());
        assertTrue(bad <= 2 * aborted, bad + " cycles over the cliff for " + aborted + " aborted trials (settle 1 s + 1 measured)");
        assertTrue(t.bestValues()[0] <= 55, "nothing over the cliff was promoted: " + t.bestValues()[0]);
    }

    @Test
    void aFailingKnob_isRecorded_theBestStaysInForce_andStopAndRevertWork() {
        FakeKnob k = new FakeKnob("damping", 10);
        InterleavedTuner t = new InterleavedTuner(settings("simplex", true), new KnobSet(List.of(k)), new Random(4));
        run(t, k, (s, v) -> peak60(v), 5, Double.NEGATIVE_INFINITY); // the baseline, up to the cycle that ends it
        assertEquals(Tuner.State.BASELINE, t.state());
        k.fails = true; // the first trial's values are refused
        for (int i = 5; i < 30; i++) {
            t.tick(i * S, peak60(k.value), Double.NaN);
        }
        assertTrue(t.trials().stream().anyMatch(x -> x.outcome().startsWith("knob failed")), t.trials().toString());
        assertEquals(10, k.value);
        k.fails = false;
        t.stop();
        assertEquals(Tuner.State.STOPPED, t.state());
        assertTrue(t.revert());
        assertEquals(10, k.value, "back on the configuration before tuning");
    }

    /**
     * A choice of two (the model: auto or mm1) with the second in force and the first better: the simplex's first step
     * along it must reach the other value (a quarter of its range rounded back to the same model, so it was never tried).
     */
    @Test
    void aChoiceOfTwo_isExplored() {
        double[] model = {1};
        Tunable choice = new Tunable() {
            public String name() {
                return "model";
            }

            public double min() {
                return 0;
            }

            public double max() {
                return 1;
            }

            public boolean integer() {
                return true;
            }

            public double read() {
                return model[0];
            }

            public void apply(double v) {
                model[0] = Math.round(v);
            }
        };
        InterleavedTuner t = new InterleavedTuner(settings("simplex", true), new KnobSet(List.of(choice)), new Random(6));
        for (int i = 0; i < 60; i++) {
            t.tick(i * S, model[0] == 0 ? 0.5 : 0.2, Double.NaN);
        }
        assertEquals(0, t.bestValues()[0], "the better choice is the best: " + t.trials());
        assertTrue(t.trials().get(0).outcome().startsWith("promoted"), t.trials().toString());
    }

    @Test
    void withoutTheOperatorsConsent_itRefusesToRun() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new InterleavedTuner(settings("simplex", false), new KnobSet(List.of(new FakeKnob("damping", 1))), new Random(5)));
        assertTrue(e.getMessage().contains("interleaved: true"), e.getMessage());
    }
}
