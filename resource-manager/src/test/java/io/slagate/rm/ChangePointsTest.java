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

    /** A report whose window and last interval counted {@code arrivals} and {@code completions} per interval. */
    private static StatsMessage served(long seq, double windowArrivals, double windowCompletions, long arrivals, long completions) {
        FlowStatsMessage.Interval last = new FlowStatsMessage.Interval(INTERVAL, arrivals, completions, 0, 0.05, 0.025, 0.025);
        return new StatsMessage(BusMessage.SCHEMA, "gw1", seq, 0, WINDOW, 1, List.of(new FlowStatsMessage("premium",
                windowArrivals / INTERVAL, windowCompletions / INTERVAL, 0, 0.05, 0.025, 0.025, 0, 0, 5, Double.NaN, Double.NaN, 0,
                last)), List.of(new ServerStatusMessage("s1", 10, 0, true)));
    }

    /**
     * 15 closed-loop clients join 5 that sent 12 requests an interval: each sends at once, so the interval they join in
     * counts 15 arrivals beyond its completions, and from then on arrivals and completions are alike again at 48. The
     * gateway's window carries that backlog for its 6 intervals (15 short of 303 arrivals at 6, just under the overload
     * test's 5%, and more at fewer intervals); the estimate carries it at the change only.
     */
    @Test
    void aClosedPopulationThatGrew_isEstimatedServedFromTheReportAfterTheChange() {
        ChangePoints c = new ChangePoints();
        for (int i = 0; i < 12; i++) {
            c.observe(served(i, 12, 12, 12, 12));
        }
        ChangePoints.Seen at = c.observe(served(12, 12 + 63 / 6.0, 12 + 48 / 6.0, 63, 48));
        assertEquals(Set.of("premium"), at.changed());
        FlowStatsMessage f = at.stats().flows().get(0);
        assertEquals(63 / INTERVAL, f.arrivalRate(), 1e-9, "at the change, the interval that showed it");
        for (int k = 2; k <= 6; k++) {
            // the window's mean per interval: the first interval after the change, k − 1 at 48, the rest before it at 12
            double windowArrivals = (63 + 48 * (k - 1) + 12 * (6 - k)) / 6.0;
            double windowCompletions = (48 * k + 12 * (6 - k)) / 6.0;
            f = c.observe(served(11 + k, windowArrivals, windowCompletions, 48, 48)).stats().flows().get(0);
            assertTrue(k == 6 || windowCompletions < 0.95 * windowArrivals, "the window alone reads overload " + k + " intervals after");
            assertEquals(48 / INTERVAL, f.arrivalRate(), 1e-9, k + " intervals after: the rate since the transition");
            assertEquals(f.arrivalRate(), f.throughput(), 1e-9, k + " intervals after: served");
        }
        StatsMessage after = served(18, 48, 48, 48, 48);
        assertSame(after, c.observe(after).stats(), "the window past the transition passes as it came");
    }

    /** A flood's backlog grows in every interval: the estimate after the change still reads arrivals beyond completions. */
    @Test
    void aFlood_staysOverloadedInTheEstimateAfterTheChange() {
        ChangePoints c = new ChangePoints();
        for (int i = 0; i < 12; i++) {
            c.observe(served(i, 12, 12, 12, 12));
        }
        assertEquals(Set.of("premium"), c.observe(served(12, 16, 14, 40, 28)).changed());
        for (int k = 2; k <= 6; k++) {
            FlowStatsMessage f = c.observe(served(11 + k, 16, 14, 40, 28)).stats().flows().get(0);
            assertEquals(40 / INTERVAL, f.arrivalRate(), 1e-9);
            assertEquals(28 / INTERVAL, f.throughput(), 1e-9);
        }
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

    /** A report of two flows, premium and basic, each of whose last interval counted the given arrivals and answers. */
    private static StatsMessage pair(long seq, long premium, long basic) {
        List<FlowStatsMessage> flows = new java.util.ArrayList<>();
        for (Object[] f : new Object[][] {{"premium", premium}, {"basic", basic}}) {
            long n = (Long) f[1];
            FlowStatsMessage.Interval last = new FlowStatsMessage.Interval(INTERVAL, n, n, 0, 0.05, 0.025, 0.025);
            flows.add(new FlowStatsMessage((String) f[0], 48, 48, 0, 0.05, 0.025, 0.025, 0, 0, 5, Double.NaN, Double.NaN, 0, last));
        }
        return new StatsMessage(BusMessage.SCHEMA, "gw1", seq, 0, WINDOW, 1, flows, List.of(new ServerStatusMessage("s1", 10, 0, true)));
    }

    /**
     * Basic's arrivals go from 12 to 24 an interval: 3.2 standard deviations of the Poisson count (pooled rate 52/s over
     * 0.25 s, with the earlier rate's own error), short of the 4.5 a watch over every report needs. Alone that is no
     * change; at the report where premium's arrivals jumped past any doubt it is, and basic is estimated from that
     * interval too. A rise of half as much (18, 1.6 standard deviations) is no change even then.
     */
    @Test
    void aChangeOfOneFlow_testsTheGatewaysOtherFlowsAtTheLowerLevelOfAGivenPoint() {
        ChangePoints alone = new ChangePoints(), beside = new ChangePoints(), small = new ChangePoints();
        for (int i = 0; i < 12; i++) {
            for (ChangePoints c : List.of(alone, beside, small)) {
                assertTrue(c.observe(pair(i, 12, 12)).changed().isEmpty());
            }
        }
        assertTrue(alone.observe(pair(12, 12, 24)).changed().isEmpty(), "basic's rise alone is within a watch's noise");
        ChangePoints.Seen both = beside.observe(pair(12, 40, 24));
        assertEquals(Set.of("premium", "basic"), both.changed());
        assertTrue(both.fell().isEmpty(), "both rose");
        assertEquals(24 / INTERVAL, both.stats().flows().get(1).arrivalRate(), 1e-9, "basic from the interval since the change");
        assertEquals(INTERVAL, both.spans().get("basic"), 1e-9);
        ChangePoints.Seen one = small.observe(pair(12, 40, 18));
        assertEquals(Set.of("premium"), one.changed(), "a rise of 1.6 standard deviations is no change of basic");
        assertEquals(48, one.stats().flows().get(1).arrivalRate(), 1e-9, "basic as its report gave it");
    }

    @Test
    void aFlowWhoseArrivalsFellAtItsChange_isNamedAsFallen_untilItsWindowHoldsOnlyTheNewLoad() {
        ChangePoints c = new ChangePoints();
        for (int i = 0; i < 12; i++) {
            c.observe(served(i, 40, 40, 40, 40));
        }
        ChangePoints.Seen at = c.observe(served(12, 34, 40, 4, 40)); // a population that shrank: 4 arrive, the backlog answers
        assertEquals(Set.of("premium"), at.changed());
        assertEquals(Set.of("premium"), at.fell());
        assertEquals(Set.of("premium"), c.observe(served(13, 28, 33, 5, 8)).fell(), "still estimated since the change");
        ChangePoints.Seen later = null;
        for (int k = 0; k < 8; k++) {
            later = c.observe(served(14 + k, 5, 5, 5, 5));
        }
        assertTrue(later.fell().isEmpty() && later.spans().isEmpty(), "the window past the change passes as it came");
    }

    /**
     * A broken or hostile gateway names one class twice in a report: both entries share the class's history, and neither
     * is estimated over no interval (a rate of 0/0 would be refused, and the flow kept at its weight for nothing).
     */
    @Test
    void aClassNamedTwiceInOneReport_getsFiniteFigures() {
        ChangePoints c = new ChangePoints();
        for (int i = 0; i < 12; i++) {
            c.observe(served(i, 12, 12, 12, 12));
        }
        for (int k = 0; k < 3; k++) {
            FlowStatsMessage.Interval step = new FlowStatsMessage.Interval(INTERVAL, 60, 60, 0, 0.05, 0.025, 0.025);
            FlowStatsMessage f = new FlowStatsMessage("premium", 48, 48, 0, 0.05, 0.025, 0.025, 0, 0, 5, Double.NaN, Double.NaN, 0, step);
            ChangePoints.Seen seen = c.observe(new StatsMessage(BusMessage.SCHEMA, "gw1", 20 + k, 0, WINDOW, 1, List.of(f, f),
                    List.of(new ServerStatusMessage("s1", 10, 0, true))));
            for (FlowStatsMessage out : seen.stats().flows()) {
                assertTrue(Double.isFinite(out.arrivalRate()) && Double.isFinite(out.throughput()), k + ": " + out);
            }
        }
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
        // at 3 deviations (2.7e-3 two-sided), by the same integration: 9.22 at 3, 3.96 at 10, 3.42 at 20
        assertEquals(9.22, ChangePoints.tCritical(3, ChangePoints.Z_JOINT), 0.01);
        assertEquals(3.96, ChangePoints.tCritical(10, ChangePoints.Z_JOINT), 0.01);
        assertEquals(3.42, ChangePoints.tCritical(20, ChangePoints.Z_JOINT), 0.01);
        assertEquals(3.0, ChangePoints.tCritical(100_000, ChangePoints.Z_JOINT), 0.01);
    }
}
