package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stabilized signal on readings whose median is known: cycles of 5 s, a span of 30 s (seven readings). */
class CapacitySignalTest {
    private static final long CYCLE = 5_000_000_000L;

    /** A reading of a pool of servers of 10 slots: {@code needed} of {@code have}. */
    private static CapacityDeficit.Result reading(double needed, int have) {
        return new CapacityDeficit.Result("p", have, needed, Math.max(0, needed - have), CapacityDeficit.servers(needed, have, 10), Map.of(),
                10);
    }

    @Test
    void oneWildReading_doesNotMoveIt_andTheSignChangesOnlyWhenMostReadingsHave() {
        CapacitySignal signal = new CapacitySignal(30_000_000_000L);
        long t = 0;
        for (int i = 0; i < 7; i++, t += CYCLE) {
            assertEquals(1, signal.observe(reading(15, 10), t).servers());
        }
        // a gateway reports a thousand times its rate for one window: the reading asks for 100 servers
        assertEquals(1, signal.observe(reading(1010, 10), t).servers());
        t += CYCLE;
        // the load falls: the readings say one server to spare; the signal follows once they are the span's majority
        int sign = 1;
        int changes = 0;
        int cyclesToFollow = 0;
        for (int i = 0; i < 10; i++, t += CYCLE) {
            double s = signal.observe(reading(5, 20), t).servers();
            int now = (int) Math.signum(s);
            if (now != sign) {
                changes++;
                sign = now;
                cyclesToFollow = i + 1;
            }
        }
        assertEquals(1, changes, "one change of sign");
        assertEquals(-1, sign);
        assertTrue(cyclesToFollow >= 3 && cyclesToFollow <= 5, "after most of the span's seven readings: " + cyclesToFollow);
    }

    @Test
    void anUnreachableReading_countsAsTheMostNeeded_andAZeroSpanGivesEachReading() {
        CapacitySignal signal = new CapacitySignal(30_000_000_000L);
        CapacityDeficit.Result unreachable = new CapacityDeficit.Result("p", 10, Double.NaN, Double.NaN, Double.NaN, Map.of(), 10);
        assertEquals(1, signal.observe(reading(15, 10), 0).servers());
        assertEquals(1, signal.observe(unreachable, CYCLE).servers(), "of two, the smaller");
        assertTrue(Double.isNaN(signal.observe(unreachable, 2 * CYCLE).servers()), "two of three unreachable");
        CapacitySignal raw = new CapacitySignal(0);
        assertEquals(1, raw.observe(reading(15, 10), 0).servers());
        assertEquals(-1, raw.observe(reading(5, 20), CYCLE).servers());
    }

    @Test
    void theFigureRisesAtOnce_butFallsOnlyPastTheMargin_orWhenTheSlotsChange() {
        CapacitySignal signal = new CapacitySignal(0); // each reading its own median: the hysteresis alone
        assertEquals(0, signal.observe(reading(19.5, 20), 0).servers());
        assertEquals(1, signal.observe(reading(20.3, 20), CYCLE).servers(), "a need past the boundary: at once");
        // back to 19.5 and 18.5 of 20: within 2 slots (0.2 of a server of 10) under the boundary, the figure holds at +1
        assertEquals(1, signal.observe(reading(19.5, 20), 2 * CYCLE).servers());
        assertEquals(1, signal.observe(reading(18.5, 20), 3 * CYCLE).servers());
        assertEquals(0, signal.observe(reading(17.5, 20), 4 * CYCLE).servers(), "2.5 slots under: past the margin");
        // on a boundary the readings alternate: the figure does not
        int changes = 0;
        double last = 0;
        for (int i = 0; i < 20; i++) {
            double s = signal.observe(reading(i % 2 == 0 ? 20.4 : 19.6, 20), (5 + i) * CYCLE).servers();
            changes += s != last ? 1 : 0;
            last = s;
        }
        assertEquals(1, changes, "up once, then held");
        // the pool's slots changed (a server added): the reading as it is
        assertEquals(-1, signal.observe(reading(19.5, 30), 30 * CYCLE).servers());
    }

    /** A held +1 goes as soon as the median reading has every class meeting its target as measured (its need capped at the slots). */
    @Test
    void serversAskedFor_areNotHeld_onceEveryClassMeetsItsTarget() {
        CapacitySignal signal = new CapacitySignal(0);
        assertEquals(1, signal.observe(reading(20.3, 20), 0).servers());
        assertEquals(1, signal.observe(reading(19.5, 20), CYCLE).servers(), "within the margin: held");
        CapacityDeficit.Result met = new CapacityDeficit.Result("p", 20, 20, 0, 0, Map.of(), 10, true);
        assertEquals(0, signal.observe(met, 2 * CYCLE).servers(), "every class met: not held");
        assertEquals(1, signal.observe(reading(20.3, 20), 3 * CYCLE).servers(), "and it rises again at once when one misses");
    }
}
