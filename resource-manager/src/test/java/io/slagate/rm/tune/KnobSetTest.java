package io.slagate.rm.tune;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import java.util.List;
import org.junit.jupiter.api.Test;

class KnobSetTest {
    @Test
    void aConfiguration_isAppliedWhole_orNotAtAll_andAFailedKnobIsLeftOut() throws Exception {
        FakeKnob a = new FakeKnob("a", 10);
        FakeKnob b = new FakeKnob("b", 20);
        FakeKnob c = new FakeKnob("c", 30);
        KnobSet set = new KnobSet(List.of(a, b, c));
        assertArrayEquals(new double[] {0.1, 0.2, 0.3}, set.readUnit(), 1e-12);
        set.applyUnit(new double[] {0.5, 0.5, 0.5});
        assertEquals(50, a.value);
        assertEquals(50, c.value);
        c.fails = true;
        assertThrows(Tunable.KnobException.class, () -> set.applyUnit(new double[] {0.9, 0.9, 0.9}));
        assertEquals(50, a.value, "a is back where it was");
        assertEquals(50, b.value, "b too");
        assertEquals(List.of("c"), set.broken());
        set.applyUnit(new double[] {0.7, 0.7, 0.1}); // c is left out now
        assertEquals(70, a.value);
        assertEquals(70, b.value);
        assertEquals(50, c.value);
    }

    @Test
    void unitMapping_roundsIntegerKnobs_andBoundsAreChecked() {
        FakeKnob a = new FakeKnob("a", 0);
        assertEquals(33, a.fromUnit(0.333));
        assertEquals(100, a.fromUnit(7), "clamped to the bounds");
        assertEquals(0.25, a.toUnit(25), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> Tunable.checkBounds("x", 5, 5));
        assertThrows(IllegalArgumentException.class, () -> Tunable.checkBounds("x", 0, Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> Tunable.checkBounds("x", Double.NaN, 1));
    }

    /** A value in force outside the knob's bounds (the fake's [0, 100]) is named, since tuning cannot return to it. */
    @Test
    void valuesInForceOutsideTheBounds_areNamed() throws Exception {
        KnobSet set = new KnobSet(List.of(new FakeKnob("a", 50), new FakeKnob("b", 250)));
        assertEquals(List.of("b 250.0 [0.0, 100.0]"), set.outsideBounds());
        assertEquals(1.0, set.readUnit()[1], 1e-12, "read as the nearest bound");
    }
}
