package io.slagate.rm;

import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.StatsMessage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tells a change in a flow's load or plant from the statistics window's inertia. Each report carries the last
 * reporting interval's counts beside the window's averages; per flow this keeps the intervals since the last change
 * and tests, at every report, whether the newest one or two differ from those before them:
 *
 * <ul>
 *   <li>arrivals, as counts: under no change the recent count is the earlier rate times the recent span, with the
 *       Poisson variance, or the variance the earlier intervals show where they vary more (bursty clients);</li>
 *   <li>the mean response time, only where the flow's share did not move over those intervals (a move of the
 *       controller's own changes it, and is no news): against the spread of the earlier intervals' means, a spread
 *       itself estimated from few intervals, so judged as Student's t at the same tail probability.</li>
 * </ul>
 *
 * A test beyond {@value #Z} standard deviations is a change (about one false alarm per 10⁵ tests, a day of cycles for
 * a few flows); at a report where one flow changed, the gateway's other flows are tested at that point at
 * {@value #Z_JOINT} (a class held to few slots shows its clients' change weakly: they queue rather than send). At a
 * change the intervals before it are dropped, and until the window has filled with intervals after the one
 * the change began in, the flow's rates and times are those of the intervals since the change, not the window's,
 * which still mostly holds the load before. At the report that shows the change they are the intervals that showed it
 * (the manager acts at once); from the next report on, those after the first: the interval a change began in mixes
 * the loads before and after, and a closed population that grew queued its new clients' first requests in it, a
 * backlog that is no arrival rate and would read as overload (arrivals beyond completions) as long as it is counted.
 * The manager's thread only.
 */
final class ChangePoints {
    /** How many standard deviations a difference must reach to count as a change. */
    static final double Z = 4.5;
    /**
     * The same for a flow of a gateway at whose report another of its flows changed: a test at one given point, not a
     * watch over every report, so a conventional level is enough (each statistic 2.7e-3 a side; over the two statistics
     * and the newest one or two intervals, about one false alarm in a hundred such tests). Flows behind
     * one gateway share its clients' changes (a population that grew sends more of every class), and a flow that
     * shows its change weakly (a class held to few slots queues its new clients rather than sending more) would
     * otherwise be decided on a window of the old load beside its neighbour's new one.
     */
    static final double Z_JOINT = 3;
    /** The fewest intervals before the tested ones: with fewer, nothing is known to differ from. */
    static final int MIN_BEFORE = 2;
    /** The fewest intervals before the tested ones whose spread says how much a response time varies by itself. */
    static final int MIN_SPREAD = 4;
    /** The fewest requests expected in the tested intervals: below it a count says nothing. */
    static final double MIN_COUNT = 5;
    /**
     * The most intervals a window may span (a reporting interval at least 1/120 of the window): a report whose interval
     * is shorter, or longer than its window, is passed as it came, so a gateway cannot make its history grow unbounded.
     */
    static final int MAX_WINDOW_INTERVALS = 120;

    /** One interval as the flow's report gave it, with the share in force then. */
    record Interval(FlowStatsMessage.Interval figures, double weight) {
    }

    /** A flow's intervals since its last change, oldest first, and whether one was detected within the window. */
    private static final class History {
        final Deque<Interval> intervals = new ArrayDeque<>();
        boolean sinceChange;
        /** Whether the arrivals since the change are fewer a second than before it (a load that fell). */
        boolean fell;
    }

    /**
     * A report as the manager keeps it, the seconds each flow estimated since its change spans, the classes whose
     * flows changed at this report, and the classes estimated since a change whose arrivals fell at it.
     */
    record Seen(StatsMessage stats, Map<String, Double> spans, Set<String> changed, Set<String> fell) {
        Seen(StatsMessage stats, Map<String, Double> spans, Set<String> changed) {
            this(stats, spans, changed, Set.of());
        }
    }

    private final Map<String, History> flows = new HashMap<>();

    /** Takes over {@code other}'s histories (a reconfigured manager keeps what it saw). */
    void keep(ChangePoints other) {
        flows.putAll(other.flows);
    }

    /** Forgets a gateway's flows (it left or went silent). */
    void forget(String gatewayId) {
        flows.keySet().removeIf(k -> k.startsWith(gatewayId + '\u0000'));
    }

    /**
     * The report with each flow that changed within its window estimated from the intervals since the change, and the
     * classes whose flows changed at this report. Flows without a plausible last interval (or one that does not fit its
     * window: {@link #MAX_WINDOW_INTERVALS}) are passed as they came.
     */
    Seen observe(StatsMessage s) {
        List<FlowStatsMessage> out = new ArrayList<>(s.flows().size());
        Set<String> changed = new LinkedHashSet<>();
        Map<String, Double> spans = new HashMap<>();
        Set<String> fell = new HashSet<>();
        History[] histories = new History[s.flows().size()];
        int[] windows = new int[histories.length];
        int[] recents = test(s, histories, windows);
        for (int x = 0; x < histories.length; x++) {
            FlowStatsMessage f = s.flows().get(x);
            History h = histories[x];
            if (h == null) {
                out.add(f);
                continue;
            }
            int window = windows[x];
            int recent = recents[x];
            if (recent > 0) {
                List<Interval> all = List.copyOf(h.intervals);
                h.fell = rate(all.subList(all.size() - recent, all.size())) < rate(all.subList(0, all.size() - recent));
                while (h.intervals.size() > recent) {
                    h.intervals.removeFirst();
                }
                h.sinceChange = true;
                changed.add(f.className());
            }
            if (h.sinceChange && h.intervals.size() > window) {
                h.sinceChange = false; // the window holds only the intervals after the one the change began in
            }
            if (h.sinceChange) {
                // at the change, the intervals that showed it; after it, those after the one it began in: that one holds
                // the transition (a closed population's new clients, each sending at once, queued in it without a
                // completion yet, which read as overload for as long as it stays in the estimate)
                List<Interval> since = List.copyOf(h.intervals);
                List<Interval> used = recent > 0 ? since : since.subList(1, since.size());
                out.add(estimate(f, used));
                spans.put(f.className(), seconds(used));
                if (h.fell) {
                    fell.add(f.className());
                }
            } else {
                out.add(f);
            }
        }
        StatsMessage kept = spans.isEmpty() ? s : new StatsMessage(s.schema(), s.gatewayId(), s.sequence(), s.timestampMillis(),
                s.windowSeconds(), s.allocationVersion(), out, s.servers(), s.flashCrowd(), s.quotaDemand(), s.sla());
        return new Seen(kept, spans, changed, fell);
    }

    /**
     * Adds each flow's last interval to its history ({@code histories} and {@code windows} filled per flow; null where the
     * interval is passed as it came) and tests it: every flow at {@value #Z}, then, where one changed, the others at
     * {@value #Z_JOINT}. Per flow, how many of its newest intervals changed (0: none).
     */
    private int[] test(StatsMessage s, History[] histories, int[] windows) {
        int[] recents = new int[histories.length];
        Set<History> taken = Collections.newSetFromMap(new IdentityHashMap<>());
        boolean any = false;
        for (int x = 0; x < histories.length; x++) {
            FlowStatsMessage f = s.flows().get(x);
            FlowStatsMessage.Interval last = f.lastInterval();
            if (last == null || !last.plausible() || !(s.windowSeconds() > 0) || last.seconds() > s.windowSeconds()
                    || s.windowSeconds() / last.seconds() > MAX_WINDOW_INTERVALS) {
                continue;
            }
            History h = flows.computeIfAbsent(s.gatewayId() + '\u0000' + f.className(), k -> new History());
            if (!taken.add(h)) {
                continue; // the class named again in one report: its history takes one interval a report, the first
            }
            windows[x] = (int) Math.max(1, Math.round(s.windowSeconds() / last.seconds()));
            histories[x] = h;
            h.intervals.addLast(new Interval(last, f.weight()));
            while (h.intervals.size() > 2 * windows[x]) {
                h.intervals.removeFirst();
            }
            recents[x] = changedAt(List.copyOf(h.intervals), Z);
            any |= recents[x] > 0;
        }
        for (int x = 0; any && x < histories.length; x++) {
            if (histories[x] != null && recents[x] == 0) {
                recents[x] = changedAt(List.copyOf(histories[x].intervals), Z_JOINT);
            }
        }
        return recents;
    }

    /** How many of the newest intervals differ from those before them (1 or 2, the stronger), or 0 for no change. */
    static int changedAt(List<Interval> in) {
        return changedAt(in, Z);
    }

    /** As {@link #changedAt(List)}, a difference beyond {@code z} standard deviations counting as a change. */
    static int changedAt(List<Interval> in, double z) {
        int best = 0;
        double strongest = z;
        for (int recent = 1; recent <= 2; recent++) {
            if (in.size() - recent < MIN_BEFORE) {
                break;
            }
            List<Interval> before = in.subList(0, in.size() - recent);
            List<Interval> after = in.subList(in.size() - recent, in.size());
            double d = Math.max(Math.abs(arrivalsZ(before, after)), Math.abs(responseZ(before, after, z)));
            if (d > strongest) {
                strongest = d;
                best = recent;
            }
        }
        return best;
    }

    /** The recent arrivals' distance from what the earlier rate predicts for their span, in standard deviations. */
    static double arrivalsZ(List<Interval> before, List<Interval> after) {
        double beforeSeconds = seconds(before);
        long beforeCount = arrivals(before);
        double afterSeconds = seconds(after);
        long afterCount = arrivals(after);
        double pooledRate = (beforeCount + afterCount) / (beforeSeconds + afterSeconds);
        double expected = pooledRate * afterSeconds;
        if (expected < MIN_COUNT && afterCount < MIN_COUNT) {
            return 0;
        }
        // the variance of a count per second: Poisson's, or the earlier intervals' own where they vary more
        double perSecondVariance = pooledRate;
        if (before.size() >= MIN_SPREAD) {
            double rate = beforeCount / beforeSeconds;
            double sum = 0;
            for (Interval i : before) {
                double d = i.figures().arrivals() - rate * i.figures().seconds();
                sum += d * d / i.figures().seconds();
            }
            perSecondVariance = Math.max(perSecondVariance, sum / (before.size() - 1));
        }
        double variance = perSecondVariance * afterSeconds * (1 + afterSeconds / beforeSeconds);
        return variance > 0 ? (afterCount - beforeCount / beforeSeconds * afterSeconds) / Math.sqrt(variance) : 0;
    }

    /**
     * The recent mean response time's distance from the earlier intervals', in standard deviations of their own spread;
     * 0 where the share moved over these intervals, too few earlier intervals answered, or too few answers are recent.
     */
    static double responseZ(List<Interval> before, List<Interval> after) {
        return responseZ(before, after, Z);
    }

    /** As {@link #responseZ(List, List)}, on the scale of a test at {@code z} ({@value #Z} or {@value #Z_JOINT}). */
    static double responseZ(List<Interval> before, List<Interval> after, double z) {
        double w = after.get(after.size() - 1).weight();
        for (List<Interval> part : List.of(before, after)) {
            for (Interval i : part) {
                if (Math.abs(i.weight() - w) > 1e-9 * Math.max(1, Math.abs(w))) {
                    return 0;
                }
            }
        }
        List<Interval> answered = before.stream().filter(i -> i.figures().completions() > 0).toList();
        long afterAnswers = after.stream().mapToLong(i -> i.figures().completions()).sum();
        if (answered.size() < MIN_SPREAD || afterAnswers < MIN_COUNT) {
            return 0;
        }
        double mean = weightedMean(answered);
        double sum = 0;
        for (Interval i : answered) {
            double d = i.figures().meanResponseSeconds() - mean;
            sum += d * d;
        }
        double spread = Math.sqrt(sum / (answered.size() - 1));
        // a plant that answered alike in every interval has no spread to measure by: a twentieth of its level stands in
        spread = Math.max(spread, 0.05 * mean);
        double afterMean = weightedMean(after.stream().filter(i -> i.figures().completions() > 0).toList());
        double t = (afterMean - mean) / (spread * Math.sqrt(1.0 / after.size() + 1.0 / answered.size()));
        return t * z / tCritical(answered.size() - 1, z); // the spread is itself estimated: on z's scale, as Student's t
    }

    /** Student's t at the two-sided tail of {@value #Z} normal deviations (6.8e-6), for 3 to 20 degrees of freedom. */
    private static final double[] T_CRITICAL = {68.70, 30.60, 19.35, 14.48, 11.88, 10.30, 9.25, 8.51, 7.97, 7.55, 7.22, 6.95,
        6.73, 6.54, 6.38, 6.25, 6.13, 6.03};
    /** The same at {@value #Z_JOINT} normal deviations (2.7e-3). */
    private static final double[] T_CRITICAL_JOINT = {9.22, 6.62, 5.51, 4.90, 4.53, 4.28, 4.09, 3.96, 3.85, 3.76, 3.69, 3.64,
        3.59, 3.54, 3.51, 3.48, 3.45, 3.42};

    /**
     * Student's t at the tail probability of {@value #Z} standard normal deviations for {@code df} ≥ 3 degrees of
     * freedom: tabulated to 20, beyond by the Cornish–Fisher expansion (within 1% there).
     */
    static double tCritical(int df) {
        return tCritical(df, Z);
    }

    /** As {@link #tCritical(int)}, at the tail of {@code z} normal deviations: {@value #Z} or {@value #Z_JOINT}. */
    static double tCritical(int df, double z) {
        if (df < 3) {
            throw new IllegalArgumentException("at least 3 degrees of freedom, not " + df);
        }
        if (z != Z && z != Z_JOINT) {
            throw new IllegalArgumentException("tabulated at " + Z + " and " + Z_JOINT + " deviations, not " + z);
        }
        if (df <= 20) {
            return (z == Z ? T_CRITICAL : T_CRITICAL_JOINT)[df - 3];
        }
        double z3 = z * z * z;
        double z5 = z3 * z * z;
        return z + (z3 + z) / (4.0 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96.0 * df * df);
    }

    /** Arrivals a second over {@code in}. */
    private static double rate(List<Interval> in) {
        double seconds = seconds(in);
        return seconds > 0 ? arrivals(in) / seconds : 0;
    }

    private static double seconds(List<Interval> in) {
        return in.stream().mapToDouble(i -> i.figures().seconds()).sum();
    }

    private static long arrivals(List<Interval> in) {
        return in.stream().mapToLong(i -> i.figures().arrivals()).sum();
    }

    private static double weightedMean(List<Interval> in) {
        double sum = 0;
        long n = 0;
        for (Interval i : in) {
            sum += i.figures().meanResponseSeconds() * i.figures().completions();
            n += i.figures().completions();
        }
        return n > 0 ? sum / n : 0;
    }

    /** The flow's rates and times over the intervals since its change. */
    private static FlowStatsMessage estimate(FlowStatsMessage f, List<Interval> since) {
        double seconds = 0;
        long arrivals = 0;
        long completions = 0;
        long rejections = 0;
        double response = 0;
        double queueing = 0;
        double service = 0;
        for (Interval i : since) {
            FlowStatsMessage.Interval x = i.figures();
            seconds += x.seconds();
            arrivals += x.arrivals();
            completions += x.completions();
            rejections += x.rejections();
            response += x.meanResponseSeconds() * x.completions();
            queueing += x.meanQueueingSeconds() * x.completions();
            service += x.meanServiceSeconds() * x.completions();
        }
        if (completions == 0) {
            // nothing answered since the change: the rates are new, the times are the window's until an answer comes
            return f.withFigures(arrivals / seconds, 0, rejections / seconds, f.meanResponseSeconds(), f.meanQueueingSeconds(),
                    f.meanServiceSeconds());
        }
        return f.withFigures(arrivals / seconds, completions / seconds, rejections / seconds, response / completions,
                queueing / completions, service / completions);
    }
}
