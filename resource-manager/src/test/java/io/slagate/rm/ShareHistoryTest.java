package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The time-mean share over a window, on report times and shares whose mean is worked out by hand. No clock: times are given. */
class ShareHistoryTest {
    private static final long S = 1_000_000_000L;

    @Test
    void aCutIsAveragedInAsTheWindowMovesOverIt() {
        ShareHistory h = new ShareHistory(30);
        for (int t = 0; t <= 10; t += 2) {
            assertEquals(9.0, h.meanOver("gw1/premium", t * S, 9, 10), 1e-9, "at " + t + " s");
        }
        // cut to 5 after the report at 10 s: the report at 12 s shows it, held over (10, 12]
        assertEquals((8 * 9 + 2 * 5) / 10.0, h.meanOver("gw1/premium", 12 * S, 5, 10), 1e-9);
        assertEquals((6 * 9 + 4 * 5) / 10.0, h.meanOver("gw1/premium", 14 * S, 5, 10), 1e-9);
        assertEquals(5.0, h.meanOver("gw1/premium", 20 * S, 5, 10), 1e-9, "a whole window under the cut");
        assertEquals(5.0, h.meanOver("gw1/premium", 24 * S, 5, 10), 1e-9);
    }

    @Test
    void aReportReadAgain_addsNothing_andAShortHistoryStretchesItsOldestShare() {
        ShareHistory h = new ShareHistory(30);
        assertEquals(4.0, h.meanOver("f", 100 * S, 4, 30), 1e-9, "the first report: its own share over the window");
        assertEquals((28 * 4 + 2 * 8) / 30.0, h.meanOver("f", 102 * S, 8, 30), 1e-9);
        assertEquals((28 * 4 + 2 * 8) / 30.0, h.meanOver("f", 102 * S, 8, 30), 1e-9, "the same report at the next cycle");
        assertEquals(8.0, h.meanOver("f", 99 * S, 8, 30), 1e-9, "an older report than one seen: its own share");
        assertEquals(7.0, h.meanOver("g", 5 * S, 7, Double.NaN), 1e-9, "no window: the share itself");
    }

    /** A share that is not a finite non-negative number (a broken report) is answered back, never averaged into the window. */
    @Test
    void aBrokenShare_isNotKept() {
        ShareHistory h = new ShareHistory(30);
        h.meanOver("f", 10 * S, 4, 10);
        assertEquals(Double.NaN, h.meanOver("f", 12 * S, Double.NaN, 10));
        assertEquals(Double.POSITIVE_INFINITY, h.meanOver("f", 13 * S, Double.POSITIVE_INFINITY, 10));
        assertEquals(-1.0, h.meanOver("f", 13 * S, -1, 10));
        assertEquals((8 * 4 + 2 * 6) / 10.0, h.meanOver("f", 12 * S, 6, 10), 1e-9, "the window as if the broken reports never came");
    }

    /**
     * A report claiming a window longer than the configured one (a gateway can only shorten it) is averaged over the
     * configured one, and the history kept stays within it: a broken or hostile gateway cannot make it grow without end.
     */
    @Test
    void aWindowLongerThanConfigured_isCutToIt() {
        ShareHistory h = new ShareHistory(10);
        for (int t = 0; t <= 1000; t += 2) {
            h.meanOver("f", t * S, t < 1000 ? 9 : 5, 1e12);
        }
        assertEquals((8 * 9 + 2 * 5) / 10.0, h.meanOver("f", 1000 * S, 5, 1e12), 1e-9, "the last 10 s, not the claimed window");
        assertEquals(5, h.size("f"), "the reports of (990 s, 1000 s]");
    }

    /** More reports in a window than the history first holds, and a window sliding past its wrap: every share still counts once. */
    @Test
    void manyReportsInOneWindow_areEachAveragedIn_asTheHistoryGrowsAndWraps() {
        ShareHistory h = new ShareHistory(30);
        for (int t = 1; t <= 20; t++) { // one report a second, share t: over (0, 20] the mean is (1 + … + 20) / 20
            h.meanOver("f", t * S, t, 20);
        }
        assertEquals(210 / 20.0, h.meanOver("f", 20 * S, 20, 20), 1e-9);
        for (int t = 21; t <= 50; t++) { // slides on: over (t − 20, t] the shares t − 19 … t
            assertEquals((t - 9.5), h.meanOver("f", t * S, t, 20), 1e-9, "at " + t + " s");
        }
        assertEquals(20, h.size("f"), "the reports of (30 s, 50 s]");
    }

    /** A weight that moved within the window is told until the window has run wholly under the new one. */
    @Test
    void aWeightMovedWithinTheWindow_isToldUntilTheWindowRanWhollyUnderIt() {
        ShareHistory h = new ShareHistory(30);
        for (int t = 0; t <= 10; t += 2) {
            assertFalse(h.meanOver("f", t * S, 6, 6, false, 10).weightMoved(), "steady at " + t + " s");
        }
        for (int t = 12; t <= 18; t += 2) { // cut to 4 at the report of 12 s: (10, 12] ran under it
            ShareHistory.WindowShare w = h.meanOver("f", t * S, 4, 4, false, 10);
            assertTrue(w.weightMoved(), "the window (" + (t - 10) + " s, " + t + " s] holds the weight before");
            assertFalse(w.woke());
        }
        ShareHistory.WindowShare whole = h.meanOver("f", 20 * S, 4, 4, false, 10);
        assertFalse(whole.weightMoved(), "(10 s, 20 s]: wholly under 4");
        assertEquals(4.0, whole.mean(), 1e-9);
    }

    /** A flow idle at an earlier report of the window and busy now woke; one idle now did not. */
    @Test
    void aFlowIdleEarlierInTheWindowAndBusyNow_woke() {
        ShareHistory h = new ShareHistory(30);
        h.meanOver("f", 0, 1, 1, true, 10);
        assertFalse(h.meanOver("f", 2 * S, 1, 1, true, 10).woke(), "idle now: not woken");
        assertTrue(h.meanOver("f", 4 * S, 5, 5, false, 10).woke(), "idle at 0 s and 2 s, busy at 4 s");
        assertTrue(h.meanOver("f", 11 * S, 5, 5, false, 10).woke(), "(1 s, 11 s] holds the idle report of 2 s");
        assertFalse(h.meanOver("f", 12 * S, 5, 5, false, 10).woke(), "(2 s, 12 s]: busy in every report");
    }

    @Test
    void flowsOfGatewaysGoneAreForgotten() {
        ShareHistory h = new ShareHistory(30);
        h.meanOver("old", 1 * S, 3, 10);
        h.meanOver("new", 50 * S, 6, 10);
        h.forgetOlderThan(40 * S);
        assertEquals(9.0, h.meanOver("old", 52 * S, 9, 10), 1e-9, "forgotten: a fresh start");
        assertEquals((8 * 6 + 2 * 1) / 10.0, h.meanOver("new", 52 * S, 1, 10), 1e-9, "kept");
        ShareHistory next = new ShareHistory(30);
        next.keep(h);
        assertEquals((6 * 6 + 4 * 1) / 10.0, next.meanOver("new", 54 * S, 1, 10), 1e-9, "carried over to a reconfigured manager");
    }
}
