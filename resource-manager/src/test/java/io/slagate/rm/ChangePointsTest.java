package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Change points on reports whose answer is known: seeded Poisson counts and exponential-ish response times, a window
 * of 6 intervals of 0.25 s (the experiments' short scale).
 */
class ChangePointsTest {
    private static final double INTERVAL = 0.25;
    private static final double WINDOW = 1.5;

    private static long poisson(Random r, double mean) {
        // Knuth's product of uniforms: exact for the small means of one interval
        double l = Math.exp(-mean);
        long k = 0;
        double p = r.nextDouble();
        while (p > l) {
            k++;
            p *= r.nextDouble();
        }
        return k;
    }

    /** A report whose window figures are {@code windowRate} and whose last interval counted {@code arrivals}. */
    private static StatsMessage report(long seq, double windowRate, long arrivals, double response, double weight) {
        FlowStatsMessage.Interval last = new FlowStatsMessage.Interval(INTERVAL, arrivals, arrivals, 0, response, response / 2,
                response / 2);
        return new StatsMessage(BusMessage.SCHEMA, "gw1", seq, 0, WINDOW, 1, List.of(new FlowStatsMessage("premium", windowRate,
                windowRate, 0, 0.05, 0.025, 0.025, 0, 0, weight, Double.NaN, Double.NaN, 0, last)),
                List.of(new ServerStatusMessage("s1", 10, 0, true)));
    }

    /** Response times of one interval's mean: n answers of an exponential with the given mean, averaged. */
    private static double meanResponse(Random r, long n, double mean) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += -mean * Math.log(1 - r.nextDouble());
        }
        return n == 0 ? 0 : sum / n;
    }

    @Test
    void aSteadyLoad_raisesAlmostNoAlarm() {
        Random r = new Random(11);
        ChangePoints c = new ChangePoints();
        int alarms = 0;
        for (int i = 0; i < 20_000; i++) {
            long n = poisson(r, 12); // 48 requests per second
            alarms += c.observe(report(i, 48, n, meanResponse(r, n, 0.05), 5)).changed().size();
        }
        // two tests (arrivals and response time) at 4.5 standard deviations: ~7e-6 each under the null
        assertTrue(alarms <= 2, alarms + " alarms in 20,000 steady reports");
    }

    @Test
    void aStepOfTheArrivals_isSeenWithinTwoReports_andEstimatedFromTheIntervalsAfterIt() {
        Random r = new Random(5);
        ChangePoints c = new ChangePoints();
        for (int i = 0; i < 12; i++) {
            long n = poisson(r, 12);
            assertTrue(c.observe(report(i, 48, n, 0.05, 5)).changed().isEmpty());
        }
        int seenAt = -1;
        ChangePoints.Seen seen = null;
        for (int i = 0; i < 2 && seenAt < 0; i++) {
            seen = c.observe(report(12 + i, 48 + 20 * (i + 1), 28, 0.05, 5)); // 112 per second, the window still mostly 48
            seenAt = seen.changed().contains("premium") ? i : -1;
        }
        assertTrue(seenAt >= 0, "a step from 12 to 28 per interval is seen within two reports");
        FlowStatsMessage f = seen.stats().flows().get(0);
        assertEquals(112, f.arrivalRate(), 1e-9, "the rate since the change, not the window's mix");
        assertEquals((seenAt + 1) * INTERVAL, seen.spans().get("premium"), 1e-9);
    }

    @Test
    void onceTheWindowHoldsOnlyTheNewLoad_theReportPassesAsItCame() {
        ChangePoints c = new ChangePoints();
        for (int i = 0; i < 12; i++) {
            c.observe(report(i, 48, 12, 0.05, 5));
        }
        int reports = 0;
        StatsMessage s;
        ChangePoints.Seen seen;
        do {
            s = report(100 + reports, 112, 28, 0.05, 5);
            seen = c.observe(s);
            reports++;
        } while (seen.stats() != s && reports < 20);
        assertSame(s, seen.stats());
        assertTrue(reports <= 7, "within the window's 6 intervals of the change, not " + reports);
        assertTrue(seen.spans().isEmpty());
    }

    @Test
    void aResponseTimeStep_isAChangeOnlyWhereTheShareHeld() {
        Random r = new Random(3);
        ChangePoints held = new ChangePoints();
        ChangePoints moved = new ChangePoints();
        for (int i = 0; i < 12; i++) {
            double t = meanResponse(r, 12, 0.05);
            held.observe(report(i, 48, 12, t, 5));
            moved.observe(report(i, 48, 12, t, 5));
        }
        Set<String> a = held.observe(report(12, 48, 12, 0.25, 5)).changed(); // the plant slowed 5x at the same share
        Set<String> b = moved.observe(report(12, 48, 12, 0.25, 3)).changed(); // the controller cut the share: its own doing
        assertEquals(Set.of("premium"), a);
        assertTrue(b.isEmpty());
    }

    @Test
    void anImplausibleInterval_isPassedAsItCameAndTestsNothing() {
        ChangePoints c = new ChangePoints();
        for (int i = 0; i < 12; i++) {
            c.observe(report(i, 48, 12, 0.05, 5));
        }
        FlowStatsMessage.Interval broken = new FlowStatsMessage.Interval(INTERVAL, -1_000_000, 5, 0, Double.NaN, 0, 0);
        StatsMessage s = new StatsMessage(BusMessage.SCHEMA, "gw1", 99, 0, WINDOW, 1, List.of(new FlowStatsMessage("premium", 48,
                48, 0, 0.05, 0.025, 0.025, 0, 0, 5, Double.NaN, Double.NaN, 0, broken)), List.of());
        ChangePoints.Seen seen = c.observe(s);
        assertSame(s, seen.stats());
        assertTrue(seen.changed().isEmpty());
        assertTrue(c.observe(report(100, 48, 12, 0.05, 5)).changed().isEmpty(), "the broken interval left no trace");
    }

    /** A gateway whose intervals do not fit its window (a nanosecond in a 1.5 s window, or longer than it) tests nothing. */
    @Test
    void anIntervalThatDoesNotFitItsWindow_isPassedAsItCame() {
        ChangePoints c = new ChangePoints();
        for (int i = 0; i < 12; i++) {
            c.observe(report(i, 48, 12, 0.05, 5));
        }
        for (double seconds : new double[] {1e-9, WINDOW / ChangePoints.MAX_WINDOW_INTERVALS / 2, 2 * WINDOW}) {
            FlowStatsMessage.Interval odd = new FlowStatsMessage.Interval(seconds, 1_000, 1_000, 0, 5.0, 2.5, 2.5);
            StatsMessage s = new StatsMessage(BusMessage.SCHEMA, "gw1", 99, 0, WINDOW, 1, List.of(new FlowStatsMessage("premium",
                    48, 48, 0, 0.05, 0.025, 0.025, 0, 0, 5, Double.NaN, Double.NaN, 0, odd)), List.of());
            ChangePoints.Seen seen = c.observe(s);
            assertSame(s, seen.stats(), seconds + " s: the report as it came");
            assertTrue(seen.changed().isEmpty(), seconds + " s: a thousand requests in it are no change");
        }
        assertTrue(c.observe(report(100, 48, 12, 0.05, 5)).changed().isEmpty(), "the odd intervals left no trace");
    }

    @Test
    void theCriticalValue_isStudentsTAtTheSameTail() {
        // t at two-sided 6.8e-6 (4.5 sd), from numerical integration of Student's density: 8.51 at 10, 5.44 at 30
        assertEquals(8.51, ChangePoints.tCritical(10), 0.01);
        assertEquals(5.44, ChangePoints.tCritical(30), 0.05, "the expansion past the table");
        assertEquals(6.03, ChangePoints.tCritical(20), 0.01);
        assertEquals(4.5, ChangePoints.tCritical(100_000), 0.01);
    }
}
