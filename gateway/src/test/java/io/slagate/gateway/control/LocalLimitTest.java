package io.slagate.gateway.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertEquals(2, l.tick(10, 0.100, NORMAL, 10));
        assertTrue(l.limiting());
        assertTrue(l.reason().contains("x the normal 20.0 ms: cap 10 → 2"), l.reason());
    }

    @Test
    void recovery_givesBackATenthPerTick_neverAboveGranted() {
        LocalLimit l = new LocalLimit(100);
        l.tick(10, 0.100, NORMAL, 20);
        assertEquals(4, l.tick(5, 0.100, NORMAL, 20), "still slow: held");
        int cap = 4;
        for (int i = 0; i < 8; i++) {
            int next = l.tick(30, 0.022, NORMAL, 20);
            assertEquals(Math.min(20, cap + 2), next, "a tenth of the granted cap per tick");
            cap = next;
        }
        assertEquals(20, cap);
        assertFalse(l.limiting(), "given back whole: no limit in force");
        assertTrue(l.reason().startsWith("recovered"), l.reason());
    }

    @Test
    void grantedCapBelowTheLimit_wins() {
        LocalLimit l = new LocalLimit(100);
        l.tick(10, 0.036, NORMAL, 12); // 1.8x: not above the jump
        assertFalse(l.limiting());
        l.tick(10, 0.080, NORMAL, 12); // 4x: 12 · 20/80 = 3
        assertEquals(2, l.tick(5, 0.080, NORMAL, 2), "the manager granted 2 meanwhile: never above it");
    }

    @Test
    void stillSlowAfterTheHold_theCapIsGivenBackAnyway_theManagerDecidesFromThere() {
        LocalLimit l = new LocalLimit(3);
        l.tick(10, 0.200, NORMAL, 10); // cap 1
        assertEquals(1, l.tick(5, 0.200, NORMAL, 10));
        assertEquals(1, l.tick(5, 0.200, NORMAL, 10));
        assertEquals(2, l.tick(5, 0.200, NORMAL, 10), "held 3 ticks: giving back");
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
        assertEquals(1, firedAt, "at the first tick of the step: " + l.reason());
    }

    @Test
    void tooFewAnswers_orNoWindow_orOneSlot_sayNothing() {
        LocalLimit l = new LocalLimit(100);
        assertEquals(10, l.tick(1, 1.0, NORMAL, 10), "one answer");
        assertEquals(1, l.tick(10, 1.0, NORMAL, 1), "one slot cannot be cut");
        assertFalse(l.limiting());
        LocalLimit fresh = new LocalLimit(100);
        assertEquals(10, fresh.tick(10, 1.0, Double.NaN, 10), "no normal to compare with (no window yet, no tick before)");
        assertFalse(fresh.limiting());
    }
}
