package io.slagate.gateway.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The gateway's fast local limit fed ticks whose right answers follow from Little's law, tick by tick (the clock is the tick count). */
class LocalLimitTest {
    private static final double NORMAL = 0.020;

    @Test
    void jump_capDropsAtTheFirstTick_toKeepThroughputAtTheSlowerPace() {
        LocalLimit l = new LocalLimit(100);
        assertEquals(10, l.tick(50, 0.020, NORMAL, 10), "normal: the granted cap");
        assertFalse(l.limiting());
        // five times slower: 10 slots at 20 ms did 500/s; at 100 ms, 2 slots hold the server to what it now does per slot
        assertEquals(2, l.tick(30, 0.100, NORMAL, 10));
        assertTrue(l.limiting());
        assertTrue(l.reason().contains("x the normal 20.0 ms: cap 10 → 2"), l.reason());
    }

    @Test
    void recovery_givesBackATenthPerJudgement_eachAfterTheAnswersAdmittedBeforeIt_neverAboveGranted() {
        LocalLimit l = new LocalLimit(100);
        l.tick(30, 0.100, NORMAL, 20);
        assertEquals(4, l.tick(5, 0.100, NORMAL, 20), "the two ticks after the cut (2 x 100 ms): answers admitted before it");
        assertEquals(4, l.tick(5, 0.100, NORMAL, 20));
        int cap = 4;
        for (int i = 0; i < 8; i++) {
            int next = l.tick(30, 0.022, NORMAL, 20);
            assertEquals(Math.min(20, cap + 2), next, "a tenth of the granted cap on a judgement within 1.5x normal");
            cap = next;
            if (cap < 20) {
                assertEquals(cap, l.tick(30, 0.022, NORMAL, 20), "the tick after it answers requests admitted before it");
            }
        }
        assertEquals(20, cap);
        assertFalse(l.limiting(), "given back whole: no limit in force");
        assertTrue(l.reason().startsWith("recovered"), l.reason());
    }

    @Test
    void grantedCapBelowTheLimit_wins() {
        LocalLimit l = new LocalLimit(100);
        l.tick(30, 0.036, NORMAL, 12); // 1.8x: not above the jump
        assertFalse(l.limiting());
        l.tick(30, 0.080, NORMAL, 12); // 4x: 12 · 20/80 = 3
        assertTrue(l.limiting());
        assertEquals(2, l.tick(5, 0.080, NORMAL, 2), "the manager granted 2 meanwhile: never above it");
    }

    /**
     * Between the two readings (faster under the cut than a server slow whatever its load, slower than normal): held for
     * the hold, then given back anyway; the manager decides from there.
     */
    @Test
    void stillSlowAfterTheHold_theCapIsGivenBackAnyway_theManagerDecidesFromThere() {
        LocalLimit l = new LocalLimit(8);
        l.tick(30, 0.200, NORMAL, 10); // cap 1; the next 4 ticks (2 x 200 ms) answer requests admitted before the cut
        // at cap 1 a shared server would answer in 20 ms, one slow whatever its load in 200: 90 ms is neither
        for (int i = 1; i < 8; i++) {
            assertEquals(1, l.tick(30, 0.090, NORMAL, 10), "tick " + i + ": " + l.reason());
        }
        assertEquals(2, l.tick(30, 0.090, NORMAL, 10), "held 8 ticks: giving back");
    }

    /**
     * A server slow whatever its load (a slow database behind it; the slowdown experiment's sleeping backend): under the
     * cut its answers come no sooner, so the cut only takes capacity away. It is given back at the first judgement, and
     * the slower pace is the new normal: the limit does not fire again on it.
     */
    @Test
    void slowerNotOverloaded_theCutIsGivenBackAtOnce_andTheSlowerPaceIsTheNormal() {
        LocalLimit l = new LocalLimit(100);
        l.tick(30, NORMAL, NORMAL, 10);
        assertEquals(4, l.tick(30, 0.060, NORMAL, 10), "three times slower: 10 · 20/60 → 4");
        assertEquals(4, l.tick(12, 0.060, NORMAL, 10), "the two ticks after the cut (2 x 60 ms)");
        assertEquals(4, l.tick(12, 0.060, NORMAL, 10));
        assertEquals(4, l.tick(12, 0.061, NORMAL, 10), "gathering: 12 of 30 answers");
        assertEquals(10, l.tick(18, 0.059, NORMAL, 10), "60 ms at 4 slots as at 10: not overloaded");
        assertFalse(l.limiting());
        assertTrue(l.reason().startsWith("slower, not overloaded"), l.reason());
        for (int i = 0; i < 100; i++) {
            assertEquals(10, l.tick(30, 0.060 * (i % 2 == 0 ? 0.9 : 1.1), NORMAL, 10), "the slower pace is the normal now");
        }
    }

    /**
     * A server whose work is shared (a CPU): at n requests each answer takes n · 2 ms. Ten at once is 20 ms; when it
     * becomes ten times costlier, the cut to 1 makes each answer 20 ms again (recovered), slots come back, and each slot
     * makes it slower again: it settles where the answers are within 1.5x normal, and is not mistaken for "slower".
     */
    @Test
    void overloaded_theCutHelps_itHoldsWhereTheServerKeepsUp() {
        LocalLimit l = new LocalLimit(1000);
        int cap = 10;
        for (int i = 0; i < 20; i++) {
            cap = l.tick(30, cap * 0.002, NORMAL, 10);
        }
        assertFalse(l.limiting());
        int max = 0;
        for (int i = 0; i < 200; i++) {
            cap = l.tick(30, cap * 0.020, NORMAL, 10); // ten times costlier: 200 ms at 10
            if (i > 0) {
                max = Math.max(max, cap);
                assertTrue(l.limiting(), "tick " + i + ": " + l.reason());
            }
        }
        assertTrue(max <= 2, "at most 2 slots (40 ms, the last within 1.5x of 20 ms is 1): " + max);
    }

    /**
     * The gateway test's overloaded server, as CI once saw it: the cut fires on a judgement that straddles the step (73.5 ms,
     * half-way to 200), and the ten requests admitted before it answer in the skip at the slow pace, too few for a
     * judgement of their own. They still set the pace the cut is judged against: at cap 5 the shared server answers in
     * 100 ms, half the slow pace, so the cut helped and holds. Judged against 73.5 ms it looked useless and was given back.
     */
    @Test
    void cutOnAHalfWayReading_theAnswersInTheSkipSetTheSlowPace_theCutHolds() {
        LocalLimit l = new LocalLimit(100);
        double normal = 0.036;
        assertEquals(5, l.tick(40, 0.0735, normal, 10), "2x normal on 40 answers: 10 · 36/73.5 → 5");
        assertEquals(5, l.tick(4, 0.190, normal, 10), "the skip: 2 x 73.5 ms");
        assertEquals(5, l.tick(6, 0.200, normal, 10));
        for (int i = 0; i < 30; i++) { // five slots of a shared server: 100 ms each, five answers a tick
            assertEquals(5, l.tick(5, 0.100, normal, 10), "tick " + i + ": " + l.reason());
        }
        assertTrue(l.limiting());
    }

    /** Few answers a tick around the normal (exponential service): no single tick's mean fires the limit. */
    @Test
    void noiseOfFewAnswersATick_doesNotFire() {
        Random rng = new Random(7);
        LocalLimit l = new LocalLimit(100);
        for (int i = 0; i < 20_000; i++) {
            int answers = 1 + rng.nextInt(3);
            double sum = 0;
            for (int a = 0; a < answers; a++) {
                sum += -Math.log(1 - rng.nextDouble()) * NORMAL;
            }
            assertEquals(10, l.tick(answers, sum / answers, NORMAL, 10), "tick " + i + ": " + l.reason());
        }
    }

    /**
     * A step to three times slower, as the statistics window sees it (a few seconds long, it follows the step within its
     * own length): the window's mean catches up with the ticks, so a limit judged against the window never fired. Judged
     * against the normal it keeps, it fires within the step's first ticks.
     */
    @Test
    void stepThreeTimesSlower_firesWhileTheWindowFollowsTheStep() {
        LocalLimit l = new LocalLimit(100);
        for (int i = 0; i < 50; i++) {
            l.tick(50, NORMAL * (i % 2 == 0 ? 0.9 : 1.1), NORMAL, 10); // noise around normal: no limit
            assertFalse(l.limiting(), "tick " + i + ": " + l.reason());
        }
        // a 0.6 s window over 100 ms ticks: after k ticks of the step it holds k sixths of slow answers
        int firedAt = -1;
        for (int k = 1; k <= 6 && firedAt < 0; k++) {
            double window = NORMAL * (1 + 2 * k / 6.0);
            l.tick(17, 3 * NORMAL, window, 10);
            assertTrue(3 * NORMAL <= 2.5 * window, "the window's mean is within 2.5x of the tick: a window-judged limit stays off");
            if (l.limiting()) {
                firedAt = k;
            }
        }
        assertEquals(2, firedAt, "at the second tick of the step (30 answers): " + l.reason());
    }

    @Test
    void tooFewAnswers_orNoWindow_orOneSlot_sayNothing() {
        LocalLimit l = new LocalLimit(100);
        assertEquals(10, l.tick(1, 1.0, NORMAL, 10), "one answer");
        assertEquals(1, l.tick(30, 1.0, NORMAL, 1), "one slot cannot be cut");
        assertFalse(l.limiting());
        LocalLimit fresh = new LocalLimit(100);
        assertEquals(10, fresh.tick(10, 1.0, Double.NaN, 10), "no normal to compare with (no window yet, no tick before)");
        assertFalse(fresh.limiting());
    }

    /**
     * A server of 5 processors shared by what it executes (each answer takes demand · max(1, n / 5)), lightly loaded at 20
     * ms, whose demand steps to 36 ms while arrivals hold it full: at the granted 10 each answer takes 72 ms. The cut
     * (to 3), and after each hold the probe a tenth at a time: 4 and 5 cost nothing, 6 makes the answers 1.2x slower and
     * is taken back. The cap stays at the server's processors, hold after hold, never given back whole into the overload.
     */
    @Test
    void sharedServerWhoseDemandStaysHigher_theProbeAfterEachHoldFindsItsProcessors() {
        LocalLimit l = new LocalLimit(20);
        for (int i = 0; i < 20; i++) {
            l.tick(30, 0.020, 0.020, 10);
        }
        assertFalse(l.limiting());
        int cap = 10;
        int max = 0;
        int atFive = 0;
        for (int i = 0; i < 300; i++) {
            cap = l.tick(30, 0.036 * Math.max(1, cap / 5.0), 0.020, 10);
            if (i > 0) {
                max = Math.max(max, cap);
                atFive += cap == 5 ? 1 : 0;
                assertTrue(l.limiting(), "tick " + i + ": " + l.reason());
            }
        }
        assertEquals(6, max, "one tenth past the processors, tried and taken back");
        assertTrue(atFive > 200, "most of the time at the processors: " + atFive);
        assertTrue(l.reason().startsWith("still needed: 43.2 ms at cap 6"), l.reason());
    }

    /** A server slower whatever its load, judged neither way under the cut: the probes after the hold find more slots cost nothing, and all come back. */
    @Test
    void slowerWhateverItsLoadAfterTheHold_theProbeFindsTheSlotsFree_andGivesThemAllBack() {
        LocalLimit l = new LocalLimit(8);
        l.tick(30, 0.200, NORMAL, 10);
        int cap = 1;
        for (int i = 1; i < 40 && l.limiting(); i++) {
            cap = l.tick(30, 0.090, NORMAL, 10);
        }
        assertFalse(l.limiting(), l.reason());
        assertEquals(10, cap);
        assertTrue(l.reason().startsWith("held long enough, more slots cost nothing"), l.reason());
    }

    /**
     * While the limit holds, the manager grants about the reduced cap (it takes it as the server's capacity): the probe after
     * the hold still has the grant from before the cut as its room, and the limit is not lifted because the grant came down.
     */
    @Test
    void theManagerAdoptsTheReducedCap_theLimitStillProbesAgainstTheGrantBeforeTheCut() {
        LocalLimit l = new LocalLimit(20);
        for (int i = 0; i < 20; i++) {
            l.tick(30, 0.020, 0.020, 10);
        }
        int cap = 10;
        int granted = 10;
        for (int i = 0; i < 300; i++) {
            cap = l.tick(30, 0.036 * Math.max(1, cap / 5.0), 0.020, granted);
            granted = l.limiting() ? Math.min(10, cap + 1) : 10; // the manager grants what the report said, a slot of room
            if (i > 0) {
                assertTrue(l.limiting(), "tick " + i + ": " + l.reason());
                assertTrue(cap <= 6, "tick " + i + ": " + cap);
            }
        }
    }
}
