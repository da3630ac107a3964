package io.slagate.gateway.control;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Tells a flash crowd from a class's usual ups and downs (Patia's trend analysis,
 * reduced to what a gateway can decide within a second): per class, the arrival rate over the last
 * second against the usual rate, an exponentially weighted mean over about ten seconds that stops
 * learning while the alarm holds (a crowd must not become the yardstick it is measured by).
 *
 * <p>The alarm rises when the last second's rate is at least {@code factor} × max(usual, minRate), and
 * ends when the rate falls below half of that threshold for {@value #CLEAR_SECONDS} s, or after
 * {@code maxDuration}: then the surge is the new normal and becomes the usual rate. A class's first
 * {@value #WARM_UP_SECONDS} s of traffic raise nothing (a gateway's start is not a crowd). Driven by
 * {@link #tick} with the cumulative arrival counts and the time: no clock of its own.
 */
public final class FlashCrowdDetector {
    /** A change of state of one class. */
    public record Event(int classIndex, boolean raised, double rate, double usual) {
    }

    static final double CLEAR_SECONDS = 3;
    /** A class's first arrivals are no crowd: its usual rate is learned for this long before it may raise the alarm. */
    static final double WARM_UP_SECONDS = 10;
    private static final double USUAL_TAU_SECONDS = 10;
    private static final long SECOND = 1_000_000_000L;

    private final double factor;
    private final double minRate;
    private final long maxDurationNanos;
    private final int classes;
    /** Per class, (time, cumulative count, usual rate then) samples of the last second or so, oldest first. */
    private final List<double[]>[] samples;
    private final double[] usual;
    private final boolean[] alarmed;
    private final long[] since;
    private final long[] calmSince;
    private final long[] firstSeen;
    private long lastTick = Long.MIN_VALUE;

    @SuppressWarnings("unchecked")
    public FlashCrowdDetector(int classes, double factor, double minRate, Duration maxDuration) {
        this.classes = classes;
        this.factor = factor;
        this.minRate = minRate;
        this.maxDurationNanos = maxDuration.toNanos();
        this.samples = new List[classes];
        this.usual = new double[classes];
        this.alarmed = new boolean[classes];
        this.since = new long[classes];
        this.calmSince = new long[classes];
        this.firstSeen = new long[classes];
        Arrays.fill(firstSeen, Long.MIN_VALUE);
        for (int c = 0; c < classes; c++) {
            samples[c] = new ArrayList<>();
            usual[c] = Double.NaN;
        }
    }

    /**
     * @param nowNanos the time
     * @param arrived  per class, requests arrived so far (cumulative)
     * @return the classes whose alarm rose or ended at this tick
     */
    public List<Event> tick(long nowNanos, long[] arrived) {
        List<Event> events = new ArrayList<>();
        double dt = lastTick == Long.MIN_VALUE ? 0 : (nowNanos - lastTick) / 1e9;
        lastTick = nowNanos;
        for (int c = 0; c < classes; c++) {
            if (firstSeen[c] == Long.MIN_VALUE && arrived[c] > 0) {
                firstSeen[c] = nowNanos;
            }
            boolean warm = firstSeen[c] != Long.MIN_VALUE && nowNanos - firstSeen[c] >= (long) (WARM_UP_SECONDS * SECOND);
            List<double[]> s = samples[c];
            s.add(new double[] {nowNanos, arrived[c], usual[c]});
            while (s.size() > 2 && nowNanos - (long) s.get(1)[0] >= SECOND) {
                s.remove(0); // keep the newest sample at least a second old as the window's start
            }
            double[] first = s.get(0);
            double span = (nowNanos - (long) first[0]) / 1e9;
            if (span < 0.5) {
                continue; // not a second's worth yet
            }
            double rate = (arrived[c] - first[1]) / span;
            // measured against the usual rate from before this window: a step must not raise its own yardstick
            double before = Double.isNaN(first[2]) ? usual[c] : first[2];
            double threshold = factor * Math.max(Double.isNaN(before) ? 0 : before, minRate);
            if (!alarmed[c]) {
                if (warm && !Double.isNaN(usual[c]) && rate >= threshold) {
                    alarmed[c] = true;
                    since[c] = nowNanos;
                    calmSince[c] = Long.MIN_VALUE;
                    events.add(new Event(c, true, rate, usual[c]));
                } else {
                    double a = Double.isNaN(usual[c]) ? 1 : 1 - Math.exp(-dt / USUAL_TAU_SECONDS);
                    usual[c] = Double.isNaN(usual[c]) ? rate : usual[c] + a * (rate - usual[c]);
                }
                continue;
            }
            boolean calm = rate < threshold / 2;
            if (calm && calmSince[c] == Long.MIN_VALUE) {
                calmSince[c] = nowNanos;
            } else if (!calm) {
                calmSince[c] = Long.MIN_VALUE;
            }
            boolean over = calm && nowNanos - calmSince[c] >= (long) (CLEAR_SECONDS * SECOND);
            boolean tooLong = nowNanos - since[c] >= maxDurationNanos;
            if (over || tooLong) {
                alarmed[c] = false;
                events.add(new Event(c, false, rate, usual[c]));
                if (tooLong) {
                    usual[c] = rate; // the new normal, from now and as the yardstick of the window in progress
                    s.forEach(x -> x[2] = rate);
                }
            }
        }
        return events;
    }

    public boolean alarmed(int c) {
        return alarmed[c];
    }

    public double usualRate(int c) {
        return usual[c];
    }
}
