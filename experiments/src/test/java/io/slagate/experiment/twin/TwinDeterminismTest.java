package io.slagate.experiment.twin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A twin run is a function of its seed: the same seed gives the same answers and weights, bit for bit. */
class TwinDeterminismTest {
    private static final Scenario B = TwinExperiments.b(150);

    private static TwinRun.Result controlled(long seed) {
        return TwinRun.run(B.config(), B.load(), B.plant(), new TwinRun.Controlled(), seed);
    }

    @Test
    void theSameSeed_givesTheSameRunBitForBit() {
        TwinRun.Result a = controlled(7), b = controlled(7);
        for (int c = 0; c < 2; c++) {
            for (int k = 0; k < B.load().phases().size(); k++) {
                long from = B.load().startNanos(k), to = B.load().startNanos(k + 1);
                assertEquals(a.completions().span(c, from, to), b.completions().span(c, from, to), "class " + c + " phase " + k);
            }
        }
        assertEquals(a.weights().size(), b.weights().size());
        assertTrue(a.weights().size() >= 4 * 150 / 5 - 1, "a cycle every 5 s: " + a.weights().size());
        for (int i = 0; i < a.weights().size(); i++) {
            assertEquals(a.weights().get(i).atNanos(), b.weights().get(i).atNanos());
            assertArrayEquals(a.weights().get(i).weights(), b.weights().get(i).weights());
        }
    }

    @Test
    void anotherSeed_drawsOtherTimes() {
        long end = B.load().endNanos();
        assertNotEquals(controlled(7).completions().span(0, 0, end), controlled(8).completions().span(0, 0, end));
    }

    @Test
    void policiesOnOneSeed_seeTheSameClients() {
        // common random numbers: with the same weights held, two runs are the same run
        TwinRun.Result a = TwinRun.run(B.config(), B.load(), B.plant(), TwinRun.Held.of(5, 5), 3);
        TwinRun.Result b = TwinRun.run(B.config(), B.load(), B.plant(), new TwinRun.Held(List.of(new double[] {5, 5})), 3);
        assertEquals(a.completions().span(1, 0, B.load().endNanos()), b.completions().span(1, 0, B.load().endNanos()));
    }
}
