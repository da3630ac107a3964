package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {
    @Test
    void formatsTheMeanWithMinAndMax_andTheMeanAloneForOneRepetition() {
        assertEquals("0.50 [0.25..0.75]", Spread.of(0.25, 0.75, 0.5).format("%.2f"));
        assertEquals("0.25", Spread.of(0.25).format("%.2f"));
        assertEquals(3, Spread.of(List.of(1.0, 2.0, 3.0)).n());
        assertEquals("NaN", Spread.of(List.of()).format("%.1f"));
    }

    @Test
    void abbaOrderPutsEachSideFirstInHalfThePairs() {
        StringBuilder order = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            order.append(Spread.aAt(i) ? 'A' : 'B');
        }
        assertEquals("ABBAABBA", order.toString());
        assertTrue(Spread.aAt(0));
        assertFalse(Spread.aAt(1));
    }
}
