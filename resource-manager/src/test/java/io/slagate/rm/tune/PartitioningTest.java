package io.slagate.rm.tune;

import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.TuningSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Active Harmony's parameter partitioning (§III-C): two work lines that share nothing, two knobs each. One tuner over
 * all four knobs needs n + 1 = 5 trials before its simplex even moves; a tuner per work line needs 3, and the two run at
 * the same time. Each work line's utility is a known function of its own knobs, so the optimum is known: the test
 * counts the simulated seconds until both safe sides are within a small regret of it, and the partitioned tuners must
 * get there sooner (the paper reports about 2/3 of the iterations). Each measured utility carries Gaussian noise from a
 * seeded source, as a real period's does.
 */
class PartitioningTest {
    private static final long S = 1_000_000_000L;

    private static TuningSettings settings(int knobs) {
        List<TuningSettings.Knob> k = new ArrayList<>();
        for (int i = 0; i < knobs; i++) {
            k.add(new TuningSettings.Knob("k" + i, "/admin/knobs", 0, 100, true, Duration.ofSeconds(1), List.of()));
        }
        return new TuningSettings("simplex", Duration.ofSeconds(5), Duration.ofSeconds(1), 0.0005, 0.3, 12, 0.1, "a", "a-trial", 0.5,
                Map.of("p", "p-trial"), k, Map.of(), TuningSettings.DEFAULT, false);
    }

    /** A work line's utility: 1 at its optimum (ox, oy), a paraboloid around it. */
    private static double u(double x, double y, double ox, double oy) {
        return 1 - Math.pow((x - ox) / 100, 2) - Math.pow((y - oy) / 100, 2);
    }

    private static final double[] OPT_A = {60, 30};
    private static final double[] OPT_B = {20, 70};
    private static final double REGRET = 0.004; // both work lines together, out of 2
    private static final double NOISE = 0.002;

    private static double regret(FakeKnob[] a, FakeKnob[] b) {
        return 2 - u(a[0].value, a[1].value, OPT_A[0], OPT_A[1]) - u(b[0].value, b[1].value, OPT_B[0], OPT_B[1]);
    }

    private static FakeKnob[] knobs(String prefix) {
        return new FakeKnob[] {new FakeKnob(prefix + "0", 90), new FakeKnob(prefix + "1", 90)};
    }

    /** Seconds until both safe sides are within REGRET of the optimum, with one tuner over all four knobs. */
    private static long joint(long seed) {
        FakeKnob[] sa = knobs("a");
        FakeKnob[] sb = knobs("b");
        FakeKnob[] ea = knobs("a");
        FakeKnob[] eb = knobs("b");
        Tuner t = new Tuner(settings(4), new KnobSet(List.of(sa[0], sa[1], sb[0], sb[1])),
                new KnobSet(List.of(ea[0], ea[1], eb[0], eb[1])), new Random(seed));
        Random noise = new Random(seed * 31);
        for (long s = 0; s < 3000; s++) {
            if (regret(sa, sb) <= REGRET) {
                return s;
            }
            double uSafe = u(sa[0].value, sa[1].value, OPT_A[0], OPT_A[1]) + u(sb[0].value, sb[1].value, OPT_B[0], OPT_B[1]);
            double uExp = u(ea[0].value, ea[1].value, OPT_A[0], OPT_A[1]) + u(eb[0].value, eb[1].value, OPT_B[0], OPT_B[1]);
            t.tick(s * S, uSafe + NOISE * noise.nextGaussian(), uExp + NOISE * noise.nextGaussian());
        }
        return Long.MAX_VALUE;
    }

    /** The same with a tuner per work line, each fed its own work line's utility. */
    private static long partitioned(long seed) {
        FakeKnob[] sa = knobs("a");
        FakeKnob[] sb = knobs("b");
        FakeKnob[] ea = knobs("a");
        FakeKnob[] eb = knobs("b");
        Tuner ta = new Tuner(settings(2), new KnobSet(List.of(sa)), new KnobSet(List.of(ea)), new Random(seed));
        Tuner tb = new Tuner(settings(2), new KnobSet(List.of(sb)), new KnobSet(List.of(eb)), new Random(seed + 1));
        Random noise = new Random(seed * 31);
        for (long s = 0; s < 3000; s++) {
            if (regret(sa, sb) <= REGRET) {
                return s;
            }
            ta.tick(s * S, u(sa[0].value, sa[1].value, OPT_A[0], OPT_A[1]) + NOISE * noise.nextGaussian(),
                    u(ea[0].value, ea[1].value, OPT_A[0], OPT_A[1]) + NOISE * noise.nextGaussian());
            tb.tick(s * S, u(sb[0].value, sb[1].value, OPT_B[0], OPT_B[1]) + NOISE * noise.nextGaussian(),
                    u(eb[0].value, eb[1].value, OPT_B[0], OPT_B[1]) + NOISE * noise.nextGaussian());
        }
        return Long.MAX_VALUE;
    }

    @Test
    void aTunerPerWorkLine_reachesTheOptimumSooner_thanOneTunerOverEveryKnob() {
        long jointTotal = 0;
        long partTotal = 0;
        StringBuilder runs = new StringBuilder();
        for (long seed = 1; seed <= 5; seed++) {
            long j = joint(seed);
            long p = partitioned(seed);
            runs.append(String.format("seed %d: joint %s s, partitioned %s s%n", seed, j == Long.MAX_VALUE ? "never" : j,
                    p == Long.MAX_VALUE ? "never" : p));
            assertTrue(p < Long.MAX_VALUE, "partitioned tuners reach the optimum: " + runs);
            jointTotal += Math.min(j, 3000);
            partTotal += p;
        }
        System.out.print(runs);
        assertTrue(partTotal < jointTotal, "partitioned " + partTotal + " s against joint " + jointTotal + " s:\n" + runs);
    }
}
