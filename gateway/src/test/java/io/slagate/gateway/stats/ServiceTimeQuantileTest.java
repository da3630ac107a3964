package io.slagate.gateway.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The windowed service-time quantile on values whose quantile is known. */
class ServiceTimeQuantileTest {
    private static final long MS = 1_000_000L;

    @Test
    void quantileOverTheWindow_largestWithFewSamples_oldIntervalsLeave() {
        ServiceTimeQuantile q = new ServiceTimeQuantile(0.999, 2);
        assertEquals(0, q.nanos(), "nothing measured yet");
        for (int i = 1; i <= 100; i++) {
            q.record(i * MS); // 1..100 ms
        }
        q.rotate();
        // 100 samples cannot resolve 99.9%: the largest, within the histogram's 10% precision
        assertEquals(100 * MS, q.nanos(), 10 * MS);
        for (int i = 0; i < 5000; i++) {
            q.record(10 * MS);
        }
        q.record(2000 * MS);
        q.rotate();
        // 5,201 samples over the window: the 99.9th percentile is 100 ms territory (the 6th largest), not the 2 s outlier
        assertEquals(95 * MS, q.nanos(), 10 * MS);
        q.rotate(); // the 1..100 ms interval leaves the window: 5,000 of the 5,001 left are 10 ms
        assertEquals(10 * MS, q.nanos(), MS);
        q.rotate(); // and the 10 ms one: nothing left, the estimate stays
        assertEquals(10 * MS, q.nanos(), MS);
        q.record(3 * MS);
        q.rotate();
        assertEquals(3 * MS, q.nanos(), MS);
    }
}
