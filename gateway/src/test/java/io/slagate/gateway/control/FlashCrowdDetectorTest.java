package io.slagate.gateway.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The detector on synthetic arrival series, ticked every 250 ms by a fake clock. */
class FlashCrowdDetectorTest {
    private static final long TICK = 250_000_000L;

    /** Runs {@code rates} (requests/s of class 0 per tick; class 1 steady at 10/s) and returns every event with its tick. */
    private static List<long[]> run(FlashCrowdDetector d, double[] rates) {
        List<long[]> out = new ArrayList<>();
        long now = 1_000_000_000_000L;
        double[] acc = new double[2];
        for (int t = 0; t < rates.length; t++) {
            now += TICK;
            acc[0] += rates[t] * 0.25;
            acc[1] += 10 * 0.25;
            for (FlashCrowdDetector.Event e : d.tick(now, new long[] {(long) acc[0], (long) acc[1]})) {
                out.add(new long[] {t, e.classIndex(), e.raised() ? 1 : 0});
            }
        }
        return out;
    }

    private static double[] series(int ticks, IntToDoubleFunction rate) {
        double[] r = new double[ticks];
        for (int t = 0; t < ticks; t++) {
            r[t] = rate.applyAsDouble(t);
        }
        return r;
    }

    @Test
    void aTenfoldStep_raisesWithinASecond_andEndsSecondsAfterTheCrowdLeaves() {
        FlashCrowdDetector d = new FlashCrowdDetector(2, 5, 5, Duration.ofMinutes(2));
        // 40 s at 20/s, then 200/s for 60 s, then 20/s again
        double[] rates = series(480, t -> t < 160 ? 20 : t < 400 ? 200 : 20);
        List<long[]> events = run(d, rates);
        assertEquals(2, events.size(), "one rise, one end, for class 0 only");
        long raisedAt = events.get(0)[0];
        assertEquals(1, events.get(0)[2]);
        assertTrue(raisedAt >= 160 && raisedAt <= 164, "raised " + (raisedAt - 160) + " ticks after the step");
        long endedAt = events.get(1)[0];
        assertEquals(0, events.get(1)[2]);
        assertTrue(endedAt >= 400 + 12 && endedAt <= 400 + 20, "ended " + (endedAt - 400) + " ticks after the crowd left");
        assertEquals(20, d.usualRate(0), 2, "the crowd did not become the usual rate");
    }

    @Test
    void aSlowRamp_andNoise_raiseNothing() {
        FlashCrowdDetector d = new FlashCrowdDetector(2, 5, 5, Duration.ofMinutes(2));
        // five-fold over 100 s: the usual rate follows it
        assertTrue(run(d, series(400, t -> 20 + 80.0 * t / 400)).isEmpty());
        Random rnd = new Random(3);
        FlashCrowdDetector noisy = new FlashCrowdDetector(2, 5, 5, Duration.ofMinutes(2));
        // Poisson-like noise around 30/s, up to twice the mean in a tick
        assertTrue(run(noisy, series(800, t -> 30 * (0.2 + 1.6 * rnd.nextDouble()))).isEmpty());
    }

    @Test
    void anIdleClass_ismeasuredAgainstMinRate() {
        FlashCrowdDetector d = new FlashCrowdDetector(2, 5, 5, Duration.ofMinutes(2));
        // idle, then 20/s: below 5 × minRate (25/s), no alarm; then 100/s: an alarm
        List<long[]> events = run(d, series(200, t -> t < 40 ? 0 : t < 120 ? 20 : 100));
        assertEquals(1, events.size());
        assertTrue(events.get(0)[0] >= 120 && events.get(0)[0] <= 124);
    }

    @Test
    void aClassFirstTraffic_isNoCrowd_butASurgeAfterItsWarmUpIs() {
        FlashCrowdDetector d = new FlashCrowdDetector(2, 5, 5, Duration.ofMinutes(2));
        // idle, then 300/s from tick 20 (a gateway's first traffic): nothing for 10 s; later 3000/s: an alarm
        List<long[]> events = run(d, series(200, t -> t < 20 ? 0 : t < 120 ? 300 : 3000));
        assertEquals(1, events.size(), "only the later surge");
        assertTrue(events.get(0)[0] >= 120 && events.get(0)[0] <= 124);
    }

    @Test
    void aSurgeThatStays_becomesTheNewNormal_afterMaxDuration() {
        FlashCrowdDetector d = new FlashCrowdDetector(2, 5, 5, Duration.ofSeconds(20));
        List<long[]> events = run(d, series(400, t -> t < 40 ? 20 : 200));
        assertEquals(2, events.size());
        assertEquals(0, events.get(1)[2]);
        assertTrue(events.get(1)[0] - events.get(0)[0] >= 80 && events.get(1)[0] - events.get(0)[0] <= 81, "ended at max duration");
        assertFalse(d.alarmed(0));
        assertEquals(200, d.usualRate(0), 20);
    }
}
