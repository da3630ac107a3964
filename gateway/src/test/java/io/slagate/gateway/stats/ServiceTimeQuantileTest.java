package io.slagate.gateway.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The windowed work quantile on values whose answer is computed independently. */
class ServiceTimeQuantileTest {
    private static final long MS = 1_000_000L;

    @Test
    void fewSamples_theLargest() {
        ServiceTimeQuantile q = new ServiceTimeQuantile(0.005, 2);
        assertEquals(0, q.nanos(), "nothing measured yet");
        for (int i = 1; i <= 100; i++) {
            q.record(i * MS); // 1..100 ms: the largest alone is 2% of the work; 10 samples above the 90th percentile
        }
        q.rotate();
        assertEquals(100 * MS, q.nanos(), 10 * MS);
    }

    /**
     * Exponential service of mean m: the work beyond s is (s/m + 1)·e^(−s/m) of all the work, which is
     * 0.001 at s ≈ 9.23 m (solved by hand) — beyond the largest of 2,000 samples (about 8.2 m), so the tail is extrapolated.
     */
    @Test
    void exponentialService_theWorkQuantileBeyondTheSamples() {
        ServiceTimeQuantile q = new ServiceTimeQuantile(0.001, 1);
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < 2000; i++) {
            q.record((long) (-Math.log(1 - rnd.nextDouble()) * 10 * MS));
        }
        q.rotate();
        assertEquals(92.3 * MS, q.nanos(), 0.12 * 92.3 * MS);
    }

    @Test
    void oldIntervalsLeaveTheWindow_andAnEmptyWindowKeepsTheEstimate() {
        ServiceTimeQuantile q = new ServiceTimeQuantile(0.005, 2);
        q.record(50 * MS);
        q.rotate();
        q.record(3 * MS);
        q.rotate();
        assertEquals(50 * MS, q.nanos(), 5 * MS);
        q.rotate(); // the 50 ms interval leaves
        assertEquals(3 * MS, q.nanos(), MS);
        q.rotate(); // nothing left: the estimate stays
        assertEquals(3 * MS, q.nanos(), MS);
    }
}
