package io.slagate.gateway.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.control.LocalLimit.State;
import org.junit.jupiter.api.Test;

/**
 * Each transition of the local limit on its own, with ticks of 100 ms and a normal service time of 20 ms. A cut at
 * 100 ms from a grant of 10 leaves a cap of 2 (10 · 20 / 100) and skips two ticks (the answers admitted before it).
 */
class LocalLimitStatesTest {
    private static final double NORMAL = 0.020;

    /** A limit cut at 100 ms from a grant of 10, its skip ticks past. */
    private static LocalLimit cut(int holdTicks) {
        LocalLimit l = new LocalLimit(holdTicks);
        assertEquals(State.NORMAL, l.state());
        assertEquals(2, l.tick(30, 0.100, NORMAL, 10));
        assertEquals(State.CUT, l.state());
        l.tick(5, 0.100, NORMAL, 10);
        l.tick(5, 0.100, NORMAL, 10);
        return l;
    }

    @Test
    void normal_toCut_onAJump() {
        LocalLimit l = cut(100);
        assertTrue(l.limiting());
        assertTrue(l.reason().contains("cap 10 → 2"), l.reason());
    }

    @Test
    void cut_toGivingBack_whenTheAnswersSayRecovered_andThereIsRoom() {
        LocalLimit l = cut(100);
        assertEquals(3, l.tick(30, 0.022, NORMAL, 10), "within 1.5x normal: a tenth back");
        assertEquals(State.GIVING_BACK, l.state());
    }

    @Test
    void cut_toNormal_whenRecovered_andOneTenthReachesTheGrant() {
        LocalLimit l = new LocalLimit(100);
        assertEquals(1, l.tick(30, 0.100, NORMAL, 2));
        l.tick(5, 0.100, NORMAL, 2);
        l.tick(5, 0.100, NORMAL, 2);
        assertEquals(2, l.tick(30, 0.022, NORMAL, 2));
        assertEquals(State.NORMAL, l.state());
        assertEquals("recovered: cap given back", l.reason());
    }

    @Test
    void cut_toNormal_whenSlowerNotOverloaded() {
        LocalLimit l = cut(100);
        // a shared server at 2 of 10 slots would answer in 20 ms; 90 ms is past half-way (60 ms) from it to 100 ms
        assertEquals(10, l.tick(30, 0.090, NORMAL, 10));
        assertEquals(State.NORMAL, l.state());
        assertTrue(l.reason().startsWith("slower, not overloaded"), l.reason());
    }

    @Test
    void cut_toProbing_whenTheHoldEnds_withAJudgementNeitherWay() {
        LocalLimit l = cut(4); // two skip ticks count towards the hold
        assertEquals(2, l.tick(30, 0.040, NORMAL, 10), "40 ms: neither recovered (30) nor past half-way (60)");
        assertEquals(State.CUT, l.state());
        assertEquals(3, l.tick(30, 0.040, NORMAL, 10), "the hold is over: a tenth more, judged");
        assertEquals(State.PROBING, l.state());
    }

    @Test
    void probing_toHolding_whenTheTenthMadeItSlower() {
        LocalLimit l = cut(4);
        l.tick(30, 0.040, NORMAL, 10);
        l.tick(30, 0.040, NORMAL, 10);
        l.tick(5, 0.040, NORMAL, 10); // the probe's skip tick
        assertEquals(2, l.tick(30, 0.050, NORMAL, 10), "50 ms against 40: over 1.1x, the tenth is taken back");
        assertEquals(State.HOLDING, l.state());
        assertTrue(l.reason().startsWith("still needed"), l.reason());
    }

    @Test
    void probing_toNormal_whenNoTenthCostsAnything() {
        LocalLimit l = cut(4);
        l.tick(30, 0.040, NORMAL, 10);
        int cap = l.tick(30, 0.040, NORMAL, 10);
        for (int i = 0; i < 40 && l.state() != State.NORMAL; i++) {
            assertEquals(State.PROBING, l.state());
            cap = l.tick(30, 0.040, NORMAL, 10);
        }
        assertEquals(State.NORMAL, l.state());
        assertEquals(10, cap);
        assertTrue(l.reason().startsWith("held long enough, more slots cost nothing"), l.reason());
    }

    @Test
    void holding_toProbing_onlyWhenTheHoldEnds() {
        LocalLimit l = cut(4);
        l.tick(30, 0.040, NORMAL, 10);
        l.tick(30, 0.040, NORMAL, 10);
        l.tick(5, 0.040, NORMAL, 10);
        l.tick(30, 0.050, NORMAL, 10);
        assertEquals(State.HOLDING, l.state());
        for (int i = 0; i < 3; i++) {
            assertEquals(2, l.tick(30, 0.021, NORMAL, 10), "held: quick answers do not end the hold");
            assertEquals(State.HOLDING, l.state());
        }
        assertEquals(3, l.tick(30, 0.021, NORMAL, 10));
        assertEquals(State.PROBING, l.state(), "the answers never said recovered under the cut: a probe");
    }

    @Test
    void cut_toNormal_aTenthAtATime_whenTheHoldEndsWithNothingToJudgeBy() {
        LocalLimit l = cut(4);
        int cap = 2;
        for (int i = 0; i < 20 && l.state() != State.NORMAL; i++) {
            cap = l.tick(0, 0, NORMAL, 10);
        }
        assertEquals(State.NORMAL, l.state());
        assertEquals(10, cap);
        assertEquals("held long enough: cap given back to the manager's", l.reason());
    }
}
