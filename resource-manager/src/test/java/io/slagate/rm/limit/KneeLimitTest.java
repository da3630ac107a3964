package io.slagate.rm.limit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * The knee limit against a synthetic server whose knee is known: with N requests executing, it answers
 * min(N, K)/S_0 per second and each takes S_0 · max(1, N/K) (the knee of Fig. 7, sharp). The samples are
 * the settled windows a control cycle would see; the limit's clock is the sequence of cycles.
 */
class KneeLimitTest {
    private static final int SETTLE = 3;

    /** A plant: knee K, baseline S_0, measurement noise (relative, seeded). */
    private static final class Server {
        double knee;
        double baseline;
        final Random noise = new Random(5);
        final double jitter;

        Server(double knee, double baseline, double jitter) {
            this.knee = knee;
            this.baseline = baseline;
            this.jitter = jitter;
        }

        ConcurrencyLimit.Sample sample(int limit, int demand) {
            int inUse = Math.min(limit, demand);
            double x = Math.min(inUse, knee) / baseline;
            double s = baseline * Math.max(1, inUse / knee);
            double e = 1 + jitter * noise.nextGaussian();
            return new ConcurrencyLimit.Sample(x * e, s / e, inUse, Math.max(0, demand - limit));
        }
    }

    /** Runs {@code cycles} cycles with {@code demand} requests wanting service; the limit after each. */
    private static List<Integer> run(KneeLimit limit, Server server, int demand, int cycles) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < cycles; i++) {
            out.add(limit.update(server.sample(limit.limit(), demand)));
        }
        return out;
    }

    @Test
    void fromOne_growsToTheKnee_andStays() {
        KneeLimit limit = new KneeLimit(1, 250, 1, SETTLE);
        List<Integer> n = run(limit, new Server(10, 0.05, 0), 220, 200);
        int settled = median(n.subList(100, 200));
        assertTrue(Math.abs(settled - 10) <= 1.5, "settled " + settled + ": " + n);
        assertEquals(10, limit.knee(), 1.0);
        List<Integer> tail = n.subList(100, 200);
        assertTrue(tail.stream().mapToInt(Integer::intValue).max().getAsInt() - tail.stream().mapToInt(Integer::intValue).min().getAsInt()
                <= 1, "steady, probes by a tenth included: " + tail);
    }

    @Test
    void from200_measuresTheBaselineFirst_thenComesDownToTheKnee() {
        KneeLimit limit = new KneeLimit(1, 250, 200, SETTLE);
        assertEquals(1, limit.limit(), "the first window measures the baseline at min");
        List<Integer> n = run(limit, new Server(10, 0.05, 0), 220, 200);
        assertTrue(n.contains(200), "back to the start value once the baseline is known: " + n.subList(0, 10));
        assertTrue(Math.abs(median(n.subList(100, 200)) - 10) <= 1.5, n.toString());
    }

    /**
     * 3% noise on every window: settled within 15% of the knee; probes that a lucky window seems to pay for
     * walk up in 5% steps until one does not, so the series stays within a fifth of its median.
     */
    @Test
    void noisyMeasurements_settleWithinFifteenPercent_probesBounded() {
        KneeLimit limit = new KneeLimit(1, 250, 1, SETTLE);
        List<Integer> n = run(limit, new Server(40, 0.05, 0.03), 220, 400);
        List<Integer> tail = new ArrayList<>(n.subList(200, 400));
        Collections.sort(tail);
        int median = tail.get(tail.size() / 2);
        assertTrue(Math.abs(median - 40) <= 0.15 * 40, "settled " + median + " in " + n.subList(200, 400));
        assertTrue(tail.get(tail.size() - 1) - tail.get(0) <= 0.2 * median, "range " + tail.get(0) + ".." + tail.get(tail.size() - 1));
    }

    @Test
    void noDemand_holds_anIdleServerSaysNothingAboutItsKnee() {
        KneeLimit limit = new KneeLimit(1, 250, 1, SETTLE);
        run(limit, new Server(10, 0.05, 0), 220, 100);
        int atKnee = limit.limit();
        List<Integer> idle = run(limit, new Server(10, 0.05, 0), 2, 100);
        assertTrue(idle.stream().allMatch(v -> v == atKnee), "held at " + atKnee + ": " + idle);
    }

    @Test
    void slowerServer_isNotMistakenForQueueing_theLimitDoesNotCollapse() {
        Server server = new Server(10, 0.05, 0);
        KneeLimit limit = new KneeLimit(1, 250, 1, SETTLE);
        run(limit, server, 220, 100);
        server.baseline = 0.15; // three times slower (a slow database behind it); the knee is unchanged
        List<Integer> n = run(limit, server, 220, 200);
        int settled = median(n.subList(100, 200));
        assertTrue(settled >= 9 && settled <= 12, "the limit came back near the knee, not down to the minimum: " + n);
    }

    @Test
    void kneeMovesUp_theProbeFindsIt() {
        Server server = new Server(10, 0.05, 0);
        KneeLimit limit = new KneeLimit(1, 250, 1, SETTLE);
        run(limit, server, 220, 100);
        server.knee = 30; // more capacity (a bigger instance)
        List<Integer> n = run(limit, server, 220, 300);
        assertTrue(Math.abs(median(n.subList(150, 300)) - 30) <= 0.15 * 30, n.toString());
    }

    /** At the knee, a class missing its goal stops the probes: the limit holds until the goals are met again. */
    @Test
    void goalMissed_noProbesAtTheKnee() {
        Server server = new Server(10, 0.05, 0);
        KneeLimit limit = new KneeLimit(1, 250, 1, SETTLE);
        run(limit, server, 220, 100);
        int atKnee = limit.limit();
        for (int i = 0; i < 200; i++) {
            ConcurrencyLimit.Sample s = server.sample(limit.limit(), 220);
            limit.update(new ConcurrencyLimit.Sample(s.throughput(), s.serviceSeconds(), s.inUse(), s.waiting(), true));
            assertEquals(atKnee, limit.limit(), "no probe while a goal is missed: " + limit.reason());
        }
        assertTrue(limit.reason().contains("misses its goal"), limit.reason());
        List<Integer> n = run(limit, server, 220, 100);
        assertTrue(n.stream().anyMatch(v -> v > atKnee), "probing resumes once the goals are met: " + n);
    }

    /** A probe that buys throughput but costs a class more than the bound of utility is undone at once. */
    @Test
    void aProbeThatCostsAClassUtility_isUndone_whateverItBought() {
        Server server = new Server(10, 0.05, 0);
        KneeLimit limit = new KneeLimit(1, 250, 1, SETTLE);
        run(limit, server, 220, 100);
        int atKnee = limit.limit();
        // hold at the knee with utilities measured; wait for the probe
        int probed = -1;
        for (int i = 0; i < 100 && probed < 0; i++) {
            ConcurrencyLimit.Sample s = server.sample(limit.limit(), 220);
            int next = limit.update(new ConcurrencyLimit.Sample(s.throughput(), s.serviceSeconds(), s.inUse(), s.waiting(), false,
                    new double[] {0.8, 0.6}));
            if (next > atKnee) {
                probed = next;
            }
        }
        assertTrue(probed > atKnee, "a probe: " + limit.reason());
        // the probe's windows: 5% more throughput (it pays), but class 1's utility 0.6 → 0.5, beyond the 0.05 bound
        for (int i = 0; i < SETTLE; i++) {
            ConcurrencyLimit.Sample s = server.sample(limit.limit(), 220);
            limit.update(new ConcurrencyLimit.Sample(s.throughput() * 1.1, s.serviceSeconds(), s.inUse(), s.waiting(), false,
                    new double[] {0.8, 0.5}));
        }
        assertEquals(atKnee, limit.limit(), "undone: " + limit.reason());
        assertTrue(limit.reason().contains("class 1's utility") && limit.reason().contains("undone"), limit.reason());
    }

    /**
     * A plant whose noise is the sampling error of a window of answers: throughput and the mean service time are
     * each off by a Gaussian of relative spread 1/√answers (exponential service, Poisson counts). At N_s = 1 a
     * 1.5 s window holds 30 answers, so one window's baseline is ±18%.
     */
    private static ConcurrencyLimit.Sample sampled(Server server, Random rng, int limit, int demand, double windowSeconds) {
        int inUse = Math.min(limit, demand);
        double x = Math.min(inUse, server.knee) / server.baseline;
        double s = server.baseline * Math.max(1, inUse / server.knee);
        double answers = x * windowSeconds;
        double spread = 1 / Math.sqrt(answers);
        return new ConcurrencyLimit.Sample(x * (1 + spread * rng.nextGaussian()), s * (1 + spread * rng.nextGaussian()), inUse,
                Math.max(0, demand - limit), false, new double[0], answers);
    }

    /**
     * The knee is X_max · S_0, so it inherits S_0's error whole: measured over 300 answers rather than one window of
     * 30, 19 of 20 seeded runs settle within 15% of the knee and none beyond 25% (one window's baseline, or a baseline
     * that noisy windows ratchet down, puts several outside).
     */
    @Test
    void baseline_isTheMeanOfEnoughAnswers_everySeedSettlesNearTheKnee() {
        Server server = new Server(9, 0.05, 0);
        List<String> off = new ArrayList<>();
        for (int seed = 0; seed < 20; seed++) {
            Random rng = new Random(seed);
            KneeLimit limit = new KneeLimit(1, 250, 1, 9, 6);
            int atMin = 0;
            List<Integer> n = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                n.add(limit.update(sampled(server, rng, limit.limit(), 220, 1.5)));
                if (n.get(i) == 1) {
                    atMin++;
                }
            }
            assertTrue(atMin >= 8 + 9 * 6, "held at min for ten disjoint windows (300 answers at 20/s): " + atMin);
            double settled = median(n.subList(200, 400));
            assertTrue(Math.abs(settled - 9) <= 0.25 * 9, "seed " + seed + " settled " + settled + " knee " + limit.knee());
            if (Math.abs(settled - 9) > 0.15 * 9) {
                off.add("seed " + seed + " settled " + settled + " knee " + limit.knee());
            }
        }
        assertTrue(off.size() <= 1, "at most one seed in twenty outside ±15% (a probe's noise), none outside ±25%: " + off);
    }

    /**
     * A real server's knee is smooth: throughput X(N) = (N / S_0) / (1 + (N/K)^4)^(1/4) meets its asymptotes N / S_0 and
     * X_max = K / S_0 at N = K, where it is only 84% of X_max (experiment A's cpu-bound backend measured 88% at its knee).
     * Windows at the knee are below the plateau, so a probe refuted there must not re-estimate the knee from them as
     * if they were on it: that pulled the estimate down to X(K) · S_0 = 0.84 K, and experiment A settled at 8 against a
     * measured knee of 9.9. Sampling noise as a window of answers; 20 seeds.
     */
    @Test
    void smoothKnee_probesRefutedAtTheKnee_doNotDragTheEstimateBelowIt() {
        double k = 10;
        double s0 = 0.05;
        List<String> off = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (int seed = 0; seed < 20; seed++) {
            Random rng = new Random(seed);
            KneeLimit limit = new KneeLimit(1, 250, 1, 9, 6);
            List<Integer> n = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                int inUse = limit.limit();
                double x = inUse / s0 / Math.pow(1 + Math.pow(inUse / k, 4), 0.25);
                double answers = x * 1.5;
                double spread = 1 / Math.sqrt(answers);
                n.add(limit.update(new ConcurrencyLimit.Sample(x * (1 + spread * rng.nextGaussian()),
                        inUse / x * (1 + spread * rng.nextGaussian()), inUse, 220 - inUse, false, new double[0], answers)));
            }
            double settled = median(n.subList(200, 400));
            all.add(String.valueOf(settled));
            if (Math.abs(settled - k) > 0.15 * k) {
                off.add("seed " + seed + " settled " + settled + " knee " + limit.knee());
            }
        }
        assertTrue(off.size() <= 1, "at most one seed in twenty outside ±15% of the knee: " + off + "; all: " + all);
    }

    /**
     * One disturbed window at the knee (a GC pause or the host's other work: every answer twice as slow, throughput
     * halved) is not a slower server: the limit does not restart its search. The same slowness held for two
     * windows is, and the search restarts.
     */
    @Test
    void oneDisturbedWindow_isNotASlowerServer_twoAre() {
        Server server = new Server(10, 0.05, 0);
        KneeLimit limit = new KneeLimit(1, 250, 1, 9, 6);
        for (int i = 0; i < 150 || !limit.reason().equals("at the knee: holding"); i++) {
            limit.update(server.sample(limit.limit(), 220)); // until it holds at the knee between probes
        }
        int atKnee = limit.limit();
        double knee = limit.knee();
        // a window-long disturbance is seen by the 6 overlapping windows that contain part of it, and the 5 after
        for (int i = 0; i < 11; i++) {
            ConcurrencyLimit.Sample s = server.sample(limit.limit(), 220);
            limit.update(new ConcurrencyLimit.Sample(s.throughput() / 2, s.serviceSeconds() * 2, s.inUse(), s.waiting()));
            assertEquals(atKnee, limit.limit(), "cycle " + i + ": " + limit.reason());
        }
        assertEquals(knee, limit.knee(), 1e-9, "the knee estimate stands");
        for (int i = 0; i < 12 && limit.limit() == atKnee; i++) {
            ConcurrencyLimit.Sample s = server.sample(limit.limit(), 220);
            limit.update(new ConcurrencyLimit.Sample(s.throughput() / 2, s.serviceSeconds() * 2, s.inUse(), s.waiting()));
        }
        assertTrue(limit.reason().contains("the server is slower"), "held for two windows, it is: " + limit.reason());
    }

    /**
     * The last experiment's failure: the window at N_s = 2 read 14.7 answers/s, +26% on N_s = 1 where +100% was due, so the
     * step seemed unpaid and the knee came out at 3. The plateau step after it pays, which says the first was noise:
     * growth goes on to the knee.
     */
    @Test
    void oneLowWindowWhileGrowing_isNoise_theKneeIsStillFound() {
        Server server = new Server(20, 0.1, 0);
        KneeLimit limit = new KneeLimit(1, 250, 1, SETTLE);
        boolean spoiled = false;
        List<Integer> n = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ConcurrencyLimit.Sample s = server.sample(limit.limit(), 220);
            if (limit.limit() == 2) { // every window at 2 reads low, the settled one included
                s = new ConcurrencyLimit.Sample(12.6, s.serviceSeconds(), s.inUse(), s.waiting()); // +26%, as measured
                spoiled = true;
            }
            n.add(limit.update(s));
        }
        assertTrue(spoiled);
        // as fast as an unspoiled start (about 30 cycles), not a slot per probe from a knee of 3
        assertTrue(Math.abs(median(n.subList(40, 80)) - 20) <= 0.15 * 20, n.subList(0, 80).toString());
        assertTrue(Math.abs(median(n.subList(100, 200)) - 20) <= 0.15 * 20, n.toString());
    }

    /**
     * From 200 on a server that thrashes far above its knee (at 200 it answers 20% below its plateau, as the CPU-bound
     * backend did: 158.7 answers/s against 180), the knee measured there is low, and a class misses its goal throughout
     * (220 clients). No probe has confirmed that knee, so probes go on and find the real one; holding because the goal
     * is missed left the last run at 8 against a knee of 10.5.
     */
    @Test
    void kneeMeasuredOnAThrashingServer_isProbed_evenWhileAGoalIsMissed() {
        Server server = new Server(10, 0.05, 0);
        KneeLimit limit = new KneeLimit(1, 250, 200, SETTLE);
        List<Integer> n = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            ConcurrencyLimit.Sample s = server.sample(limit.limit(), 220);
            double thrash = s.inUse() > 20 ? 0.8 : 1;
            n.add(limit.update(new ConcurrencyLimit.Sample(s.throughput() * thrash, s.serviceSeconds() / thrash, s.inUse(), s.waiting(),
                    true)));
        }
        assertTrue(n.contains(8), "the knee measured at 200 is low: " + n.subList(0, 40));
        assertTrue(Math.abs(median(n.subList(150, 300)) - 10) <= 0.15 * 10, n.toString());
    }

    /**
     * Experiment A from N_s = 200 (2026-11-26): the first saturated window reads low (the server still drains the
     * requests of the start value), a class misses its goal throughout (220 clients), and the knee is smooth. Probes
     * from the low estimate paid up to 10 and the step to 11 was refuted; the refutation averaged the estimate to 8.2
     * (the cpu-bound backend, K = 10.3) and called that knee confirmed, so the missed goal stopped every later probe at 8.
     * On the pool of 20 the refuted probe raised the estimate to the probe's own level and again nothing probed above
     * it (17 against 22.3). Slots that a probe bought are below the knee, and a knee that a refutation has just raised is
     * not yet confirmed. The rerun (07:05) showed a third way to stick: the class's utility, far under its goal, moves
     * by ±0.1 from window to window, so a probe was undone for "lowering" it by 0.24, and the undo confirmed the low
     * estimate. Smooth knees of 10 and 20, sampling noise, a class's utility of -1 ± 0.1, 20 seeds each: 26 of the 40
     * settled outside ±15% without the utility noise before those fixes, 15 with it (all of them low, held by the missed
     * goal). The limit now grows from an estimate made a growth step or more above it, as from min (probes up from it
     * were judged on gains within a window's noise), and an undo does not confirm the knee. The windows at the start
     * value read 0.8 of the plateau until the limit leaves it.
     */
    @Test
    void fromAbove_aLowSaturatedEstimate_isProbedUpToTheKnee_whileAGoalIsMissed() {
        List<Integer> settledAll = new ArrayList<>();
        List<String> off = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (double k : new double[] {10, 20}) {
            double s0 = 0.05;
            for (int seed = 0; seed < 20; seed++) {
                Random rng = new Random(seed);
                KneeLimit limit = new KneeLimit(1, 250, 200, 9, 6);
                List<Integer> n = new ArrayList<>();
                boolean drained = false;
                for (int i = 0; i < 400; i++) {
                    int inUse = limit.limit();
                    double x = inUse / s0 / Math.pow(1 + Math.pow(inUse / k, 4), 0.25);
                    drained |= inUse < 200 && limit.knee() > 0; // the limit has left the start value
                    if (inUse == 200 && !drained) {
                        x *= 0.8; // the windows at the start value: still draining, below the plateau
                    }
                    double answers = x * 1.5;
                    double spread = 1 / Math.sqrt(answers);
                    n.add(limit.update(new ConcurrencyLimit.Sample(x * (1 + spread * rng.nextGaussian()),
                            inUse / x * (1 + spread * rng.nextGaussian()), inUse, 220 - inUse, true,
                            new double[] {-1 + 0.1 * rng.nextGaussian()}, answers)));
                }
                double settled = median(n.subList(250, 400));
                settledAll.add((int) settled);
                all.add(k + ":" + settled);
                if (Math.abs(settled - k) > 0.15 * k) {
                    off.add("knee " + k + " seed " + seed + " settled " + settled + " estimate " + limit.knee() + " (" + limit.reason() + ")");
                }
            }
        }
        assertTrue(off.size() <= 4, "at most four runs in forty outside ±15% of the knee: " + off + "; all: " + all);
        assertTrue(median(settledAll.subList(0, 20)) >= 0.9 * 10 && median(settledAll.subList(20, 40)) >= 0.9 * 20, "not biased low: " + all);
    }

    /**
     * Experiment A as the manager sees it: windows of 3 s (the experiment's statistics window), their answers' sampling
     * noise, 220 clients so that the class misses its goal throughout and its utility moves by ±0.1 from window to window.
     * Sharp knees (a worker pool) and smooth ones, of 10 and 20, from 1 and from 200, with the first windows at 200 at the
     * plateau or at 0.8 of it (still draining): 12 cases, 20 seeds each, settled = the median of the last 50 cycles.
     * The run of 2026-11-26 on the pool of 20 settled at 23 from an exact estimate of 19.8: the estimate from far above was
     * a lower bound that a run of one-slot probes bracketed, and probes near the knee gain 2-5% against a window's ±4%.
     * That limit left 42 of these 240 outside ±15%; growing from the lower bound, undoing a
     * probe to the estimate, and raising the estimate only beyond the noise leaves at most 2.
     */
    @Test
    void experimentA_asTheManagerSeesIt_everyCaseSettlesWithinFifteenPercent() {
        List<String> off = new ArrayList<>();
        int runs = 0;
        for (boolean smooth : new boolean[] {true, false}) {
            for (double k : new double[] {10, 20}) {
                for (double drain : new double[] {1, 0.8, 0}) { // 0: from 1
                    for (int seed = 0; seed < 20; seed++) {
                        int start = drain == 0 ? 1 : 200;
                        Random rng = new Random(seed);
                        KneeLimit limit = new KneeLimit(1, 250, start, 9, 6);
                        List<Integer> n = new ArrayList<>();
                        boolean drained = false;
                        double s0 = 0.05;
                        for (int i = 0; i < 200; i++) {
                            int inUse = limit.limit();
                            double x = smooth ? inUse / s0 / Math.pow(1 + Math.pow(inUse / k, 4), 0.25) : Math.min(inUse, k) / s0;
                            drained |= inUse < 200 && limit.knee() > 0;
                            if (inUse == 200 && !drained) {
                                x *= drain;
                            }
                            double answers = x * 3;
                            double spread = 1 / Math.sqrt(answers);
                            n.add(limit.update(new ConcurrencyLimit.Sample(x * (1 + spread * rng.nextGaussian()),
                                    inUse / x * (1 + spread * rng.nextGaussian()), inUse, 220 - inUse, true,
                                    new double[] {-1 + 0.1 * rng.nextGaussian()}, answers)));
                        }
                        runs++;
                        double settled = median(n.subList(150, 200));
                        if (Math.abs(settled - k) > 0.15 * k) {
                            off.add((smooth ? "smooth " : "sharp ") + k + " from " + start + " drain " + drain + " seed " + seed + ": "
                                    + settled);
                        }
                    }
                }
            }
        }
        assertEquals(240, runs);
        assertTrue(off.size() <= 2, "at most 2 of 240 outside ±15%: " + off);
    }

    /**
     * The knee of Fig. 7 is N* = X_max / X(1), and X(1) is a slot's rate, not the server's: the gateway holds a slot a
     * little longer than the server serves (it dispatches, relays the answer, releases). Experiment A's CPU-bound
     * backend served in 50 ms while a slot at N_s = 1 gave 17.3 answers/s (58 ms), and X_max · S_0 on the service time
     * settled at 8 against the curve's 9.8. A plant whose slot is held 8 ms longer than a 50 ms service, plateau
     * 168 answers/s (K = 168 · 0.058 = 9.7), the windows' throughput and service time from the same answers (one noise
     * draw for both), 220 clients (a goal missed throughout, as in experiment A), 20 seeds: within ±15% of 9.7, not at
     * 168 · 0.050 = 8.4.
     */
    @Test
    void theKnee_isXmaxOverXOfOne_aSlotHeldLongerThanTheServiceCounts() {
        double service = 0.050;
        double slot = 0.058;
        double xMax = 168;
        double k = xMax * slot;
        List<String> off = new ArrayList<>();
        for (int seed = 0; seed < 20; seed++) {
            Random rng = new Random(seed);
            KneeLimit limit = new KneeLimit(1, 250, 1, 9, 6);
            List<Integer> n = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                int inUse = limit.limit();
                double x = Math.min(inUse / slot, xMax);
                double s = Math.max(service, inUse / x - (slot - service)); // past the knee requests queue at the server
                double answers = x * 3;
                double e = 1 + rng.nextGaussian() / Math.sqrt(answers);
                n.add(limit.update(new ConcurrencyLimit.Sample(x * e, s / e, inUse, 220 - inUse, true,
                        new double[] {-1 + 0.1 * rng.nextGaussian()}, answers)));
            }
            double settled = median(n.subList(200, 300));
            if (Math.abs(settled - k) > 0.15 * k) {
                off.add("seed " + seed + " settled " + settled + " knee " + limit.knee());
            }
        }
        assertTrue(off.size() <= 1, "at most one seed in twenty outside ±15% of " + k + ": " + off);
    }

    /**
     * The window that completes the baseline is part of it: judged against the mean it belongs to, a slow one looked
     * "saturated" at N_s = 1, the knee came out at 1, and the limit never left it (the last pool-20 run).
     */
    @Test
    void theWindowThatCompletesTheBaseline_isNotJudgedAgainstIt() {
        KneeLimit limit = new KneeLimit(1, 250, 1, 3, 2);
        int n = 0;
        for (double service : new double[] {0.045, 0.045, 0.045, 0.045, 0.075}) {
            for (int i = 0; i < (n == 0 ? 3 : 2); i++) {
                limit.update(new ConcurrencyLimit.Sample(1 / service, service, 1, 219, false, new double[0],
                        KneeLimit.BASELINE_ANSWERS / 5.0)); // five windows make the baseline
            }
            n++;
        }
        assertEquals(2, limit.limit(), limit.reason());
        assertTrue(Double.isNaN(limit.knee()), "no knee from the baseline's own windows: " + limit.knee());
    }

    private static int median(List<Integer> values) {
        List<Integer> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    @Test
    void badBounds_refused() {
        Assertions.assertThrows(IllegalArgumentException.class, () -> new KneeLimit(5, 4, 5, 1));
        Assertions.assertThrows(IllegalArgumentException.class, () -> new KneeLimit(0, 4, 1, 1));
        Assertions.assertThrows(IllegalArgumentException.class, () -> new KneeLimit(1, 4, 9, 1));
    }
}
