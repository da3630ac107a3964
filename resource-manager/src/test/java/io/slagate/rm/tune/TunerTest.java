package io.slagate.rm.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.TuningSettings;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/** The tuner with a fake clock, knobs held in memory, and each side's utility a known function of its knob. */
class TunerTest {
    private static final long S = 1_000_000_000L;

    private static TuningSettings settings(String strategy) {
        return new TuningSettings(strategy, Duration.ofSeconds(5), Duration.ofSeconds(1), 0.005, 0.3, 6, 0.1, "a", "a-trial", 0.5,
                Map.of("p", "p-trial"), List.of(new TuningSettings.Knob("workers", "/admin/knobs", 0, 100, true, Duration.ofSeconds(1), List.of())), Map.of(), TuningSettings.DEFAULT, false);
    }

    /** Peak at 60; a cliff past 90 (a configuration that breaks the server). */
    private static final DoubleUnaryOperator PEAK_60 = v -> v > 90 ? -1 : 1 - Math.pow((v - 60) / 100, 2);

    /** Ticks once a second for {@code seconds}; returns the lowest safe utility seen. */
    private static double run(Tuner t, FakeKnob safe, FakeKnob exp, DoubleUnaryOperator u, long from, int seconds) {
        double lowest = Double.POSITIVE_INFINITY;
        for (int i = 0; i < seconds; i++) {
            double us = u.applyAsDouble(safe.value);
            lowest = Math.min(lowest, us);
            t.tick(from + i * S, us, u.applyAsDouble(exp.value));
        }
        return lowest;
    }

    @Test
    void fromAPoorStart_theSafeSideReachesTheOptimum_andNeverGetsWorse() {
        FakeKnob safe = new FakeKnob("workers", 10);
        FakeKnob exp = new FakeKnob("workers", 10);
        Tuner t = new Tuner(settings("simplex"), new KnobSet(List.of(safe)), new KnobSet(List.of(exp)), new Random(1));
        double start = PEAK_60.applyAsDouble(10);
        double lowest = run(t, safe, exp, PEAK_60, 0, 400);
        assertTrue(Math.abs(safe.value - 60) <= 10, "the safe side tuned to " + safe.value + ": " + t.trials());
        assertTrue(lowest >= start - 1e-9, "the safe side never ran worse than before tuning: " + lowest);
        assertEquals(start, t.baselineUtility(), 1e-9);
        assertTrue(t.trials().stream().anyMatch(x -> x.outcome().startsWith("promoted")));
    }

    /**
     * The safe side runs the best configuration all along, so a trial of it on the experimental side measures nothing
     * new: the simplex's first point is its start, and a point that rounds to the best's knob values is the same
     * configuration (3 of experiment tuning's 20 trials on 2026-11-26 were the best itself). Its level is the safe side's.
     */
    @Test
    void noTrialIsSpentOnTheBestConfigurationItself() {
        FakeKnob safe = new FakeKnob("workers", 10);
        FakeKnob exp = new FakeKnob("workers", 10);
        Tuner t = new Tuner(settings("simplex"), new KnobSet(List.of(safe)), new KnobSet(List.of(exp)), new Random(1));
        run(t, safe, exp, PEAK_60, 0, 400);
        double[] best = {10};
        for (Tuner.Trial x : t.trials()) {
            assertTrue(!Arrays.equals(x.values(), best), "trial " + x.number() + " ran the best " + Arrays.toString(best)
                    + ": " + t.trials());
            if (x.outcome().startsWith("promoted")) {
                best = x.values();
            }
        }
        assertTrue(t.trials().size() >= 3, "it still tunes: " + t.trials());
        assertTrue(Math.abs(safe.value - 60) <= 10, "and still finds the optimum: " + safe.value);
    }

    /**
     * Every configuration is as good as every other, and each side's utility per tick is that plus noise of ±0.02 (experiment
     * tuning's 30 s means move by ±0.01). A gain of minGain (0.005) is then noise: promoted on it, the safe side walked to
     * wherever the luckiest trial was (experiment tuning on 2026-11-26 promoted 3 trials in a row on gains of 0.012–0.030
     * while its safe side dipped). With the noise counted, few are promoted; with the same noise on a real slope, the
     * optimum is still found.
     */
    @Test
    void aGainWithinTheNoise_isNotPromoted_aRealOneIs() {
        Random noise = new Random(7);
        FakeKnob safe = new FakeKnob("workers", 10);
        FakeKnob exp = new FakeKnob("workers", 10);
        Tuner flat = new Tuner(settings("simplex"), new KnobSet(List.of(safe)), new KnobSet(List.of(exp)), new Random(1), 3);
        for (int i = 0; i < 600; i++) {
            flat.tick(i * S, 0.1 + 0.02 * noise.nextGaussian(), 0.1 + 0.02 * noise.nextGaussian());
        }
        assertTrue(flat.trials().size() >= 6, "it tried: " + flat.trials());
        long promoted = flat.trials().stream().filter(x -> x.outcome().startsWith("promoted")).count();
        // a period of 5 ticks estimates its own noise from 5 paired differences, so now and then one reads small: 3 of 70
        // trials were promoted; without the noise rule 38 of 90 were
        assertTrue(promoted <= flat.trials().size() / 10, "at most one trial in ten promoted on noise: " + promoted + " of "
                + flat.trials().size());
        assertTrue(flat.trials().stream().anyMatch(x -> x.outcome().contains("within twice the noise")), flat.trials().toString());

        FakeKnob safe2 = new FakeKnob("workers", 10);
        FakeKnob exp2 = new FakeKnob("workers", 10);
        Tuner sloped = new Tuner(settings("simplex"), new KnobSet(List.of(safe2)), new KnobSet(List.of(exp2)), new Random(1), 3);
        for (int i = 0; i < 600; i++) {
            sloped.tick(i * S, PEAK_60.applyAsDouble(safe2.value) + 0.02 * noise.nextGaussian(),
                    PEAK_60.applyAsDouble(exp2.value) + 0.02 * noise.nextGaussian());
        }
        assertTrue(Math.abs(safe2.value - 60) <= 15, "the optimum is still found through the noise: " + safe2.value + " " + sloped.trials());
    }

    /**
     * Every trial is better than the safe side by 0.02, under noise of ±0.02 a tick: one 5-tick period's mean difference has
     * a standard error of about 0.013, so twice it (0.025) hides the gain; two periods pooled (0.018) do not. A trial
     * within the noise is measured one period more, and such real gains are promoted over the two.
     */
    @Test
    void aRealGainWithinOnePeriodsNoise_isMeasuredAnotherPeriod_andPromotedOverBoth() {
        Random noise = new Random(11);
        FakeKnob safe = new FakeKnob("workers", 10);
        FakeKnob exp = new FakeKnob("workers", 10);
        Tuner t = new Tuner(settings("simplex"), new KnobSet(List.of(safe)), new KnobSet(List.of(exp)), new Random(1));
        for (int i = 0; i < 600; i++) {
            t.tick(i * S, 0.1 + 0.02 * noise.nextGaussian(), 0.12 + 0.02 * noise.nextGaussian());
        }
        long overTwo = t.trials().stream().filter(x -> x.outcome().startsWith("promoted") && x.outcome().endsWith("over two periods"))
                .count();
        assertTrue(overTwo >= 2, "promoted after a second period: " + overTwo + " of " + t.trials());
    }

    /**
     * Experiment tuning --two-tier: the defaults sit on a plateau (every neighbour collapses alike), and only a restart can
     * reach the good region. With restarts every 12 trials and a stall after 10, the tuner stopped at trial 13 on the
     * plateau: no restart came first. Two knobs from (100, 100), good (0.5) wherever either is at most 40, else -1; the
     * tuner stalls after 6 trials without a gain. Over 20 seeds, the safe side leaves the plateau in most runs; with a
     * restart every 12 trials it never did.
     */
    @Test
    void onAPlateau_aRestartComesBeforeTheStall() {
        int found = 0;
        for (int seed = 0; seed < 20; seed++) {
            FakeKnob sa = new FakeKnob("a", 100);
            FakeKnob sb = new FakeKnob("b", 100);
            FakeKnob ea = new FakeKnob("a", 100);
            FakeKnob eb = new FakeKnob("b", 100);
            TuningSettings two = new TuningSettings("restarts", Duration.ofSeconds(5), Duration.ofSeconds(1), 0.005, 3, 6, 0.1, "a",
                    "a-trial", 0.5, Map.of("p", "p-trial"), List.of(new TuningSettings.Knob("a", "/admin/knobs", 0, 100, true,
                    Duration.ofSeconds(1), List.of()), new TuningSettings.Knob("b", "/admin/knobs", 0, 100, true, Duration.ofSeconds(1), List.of())), Map.of(),
                    TuningSettings.DEFAULT, false);
            Tuner t = new Tuner(two, new KnobSet(List.of(sa, sb)), new KnobSet(List.of(ea, eb)), new Random(seed));
            for (int i = 0; i < 400 && t.state() != Tuner.State.MONITORING; i++) {
                t.tick(i * S, sa.value <= 40 || sb.value <= 40 ? 0.5 : -1, ea.value <= 40 || eb.value <= 40 ? 0.5 : -1);
            }
            if (sa.value <= 40 || sb.value <= 40) {
                found++;
            }
        }
        assertTrue(found >= 8, "the safe side left the plateau in " + found + " of 20 runs");
    }

    @Test
    void aTrialOverTheCliff_isAbortedAtOnce_andItsSideGoesBack() {
        FakeKnob safe = new FakeKnob("workers", 50);
        FakeKnob exp = new FakeKnob("workers", 50);
        Tuner t = new Tuner(settings("hill"), new KnobSet(List.of(safe)), new KnobSet(List.of(exp)), new Random(2));
        DoubleUnaryOperator cliffFrom55 = v -> v > 55 ? -1 : 1 - Math.pow((v - 60) / 100, 2);
        run(t, safe, exp, cliffFrom55, 0, 200);
        Tuner.Trial aborted = t.trials().stream().filter(x -> x.outcome().startsWith("aborted")).findFirst().orElseThrow();
        assertTrue(aborted.values()[0] > 55);
        // the outcome names the sample that crossed the bound (-1 against the safe side's near 1), not only the means
        assertTrue(aborted.outcome().startsWith("aborted: -1.000 below the safe side's 0.9") && aborted.outcome().contains("means so far"),
                aborted.outcome());
        assertTrue(exp.value <= 55 || t.state() != Tuner.State.MONITORING, "the experimental side is back: " + exp.value);
        assertTrue(safe.value <= 55, "nothing over the cliff was promoted: " + safe.value);
    }

    @Test
    void aFailingKnob_isRecorded_andTuningGoesOn() {
        FakeKnob safe = new FakeKnob("workers", 10);
        FakeKnob exp = new FakeKnob("workers", 10);
        Tuner t = new Tuner(settings("simplex"), new KnobSet(List.of(safe)), new KnobSet(List.of(exp)), new Random(3));
        exp.fails = true; // from the first trial on (the baseline measures the safe side; no trial runs the best itself)
        run(t, safe, exp, PEAK_60, 0, 18);
        assertTrue(t.trials().stream().anyMatch(x -> x.outcome().startsWith("knob failed")), t.trials().toString());
        assertEquals(10, safe.value, "the safe side untouched");
    }

    @Test
    void afterAStall_itMonitors_andALoadChangeStartsItAgain() {
        FakeKnob safe = new FakeKnob("workers", 60);
        FakeKnob exp = new FakeKnob("workers", 60);
        Tuner t = new Tuner(settings("simplex"), new KnobSet(List.of(safe)), new KnobSet(List.of(exp)), new Random(4));
        run(t, safe, exp, PEAK_60, 0, 300); // already at the optimum: nothing beats it, the trials stall
        assertEquals(Tuner.State.MONITORING, t.state(), t.trials().toString());
        int before = t.trials().size();
        // the workload changes: the same configuration now does much worse, the best lies at 30
        DoubleUnaryOperator shifted = v -> 0.5 - Math.pow((v - 30) / 100, 2);
        run(t, safe, exp, shifted, 300 * S, 200);
        assertTrue(t.trials().size() > before, "tuning started again");
        assertTrue(safe.value < 60, "and moved toward the new optimum: " + safe.value);
    }

    @Test
    void theOperatorsStopAndRevert_bothSidesBackWhereTheyWere_andStartResumesFromTheBest() {
        FakeKnob safe = new FakeKnob("workers", 10);
        FakeKnob exp = new FakeKnob("workers", 10);
        Tuner t = new Tuner(settings("simplex"), new KnobSet(List.of(safe)), new KnobSet(List.of(exp)), new Random(1));
        assertTrue(!t.revert(), "nothing to revert to before the baseline");
        run(t, safe, exp, PEAK_60, 0, 400);
        assertTrue(safe.value > 30, "tuned first: " + safe.value);
        double tuned = safe.value;
        t.start(400 * S); // a trial under way on the experimental side ...
        run(t, safe, exp, PEAK_60, 400 * S, 2);
        t.stop(); // ... ends unjudged, its side back on the best
        assertEquals(Tuner.State.STOPPED, t.state());
        assertEquals(tuned, exp.value, 1e-9, "stopped: the experimental side is on the best again");
        run(t, safe, exp, PEAK_60, 402 * S, 20);
        assertEquals(Tuner.State.STOPPED, t.state(), "stopped stays stopped");
        assertTrue(t.revert());
        assertEquals(10, safe.value, 1e-9, "reverted: the safe side as before tuning");
        assertEquals(10, exp.value, 1e-9, "and the experimental side");
        assertEquals(10, t.bestValues()[0], 1e-9);
        assertEquals(10, t.initialValues()[0], 1e-9);
        t.start(500 * S);
        assertEquals(Tuner.State.SETTLING, t.state(), "started again: a trial from the reverted configuration");
    }

    /**
     * A bad trial leaves damage that outlives it: here each second over the cliff adds a backlog that costs the side
     * 0.5 of utility per unit and drains by a quarter of a unit a second afterwards (longer than the settle time). The next trial must not be charged with it: it
     * starts only once its side has recovered, so a good configuration after a bad one is judged on its own.
     */
    @Test
    void afterAnAbortedTrial_theNextWaitsForItsSideToRecover_soABacklogIsNotChargedToIt() {
        FakeKnob safe = new FakeKnob("workers", 50);
        FakeKnob exp = new FakeKnob("workers", 50);
        Tuner t = new Tuner(settings("simplex"), new KnobSet(List.of(safe)), new KnobSet(List.of(exp)), new Random(2));
        DoubleUnaryOperator cliffFrom70 = v -> v > 70 ? -1 : 1 - Math.pow((v - 60) / 100, 2);
        double backlog = 0;
        boolean recovering = false;
        for (int i = 0; i < 600; i++) {
            backlog = exp.value > 70 ? backlog + 1 : Math.max(0, backlog - 0.25);
            double uExp = cliffFrom70.applyAsDouble(exp.value) - 0.5 * backlog;
            t.tick(i * S, cliffFrom70.applyAsDouble(safe.value), uExp);
            recovering |= t.state() == Tuner.State.RECOVERING;
        }
        List<Tuner.Trial> wronglyAborted = t.trials().stream()
                .filter(x -> x.outcome().startsWith("aborted") && x.values()[0] <= 70).toList();
        assertEquals(List.of(), wronglyAborted.stream().map(x -> x.values()[0]).toList(),
                "no configuration below the cliff is aborted for another's backlog: " + t.trials());
        assertTrue(recovering, "an abort happened and the side recovered before the next trial: " + t.trials());
        assertTrue(Math.abs(safe.value - 60) <= 10, "and the safe side still tunes to the optimum: " + safe.value + " " + t.trials());
    }
}
