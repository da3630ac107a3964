package io.slagate.experiment;

import io.slagate.bus.message.DecisionMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Every decision the resource manager publishes during a run, at the control cycle's own resolution (the load
 * generator samples the weights once a second, four cycles at the short scale): its time and premium's share of
 * the slots in units of {@code total} (10 for the paper's N_s), each version once.
 */
final class DecisionTrace implements AutoCloseable {
    /** One decision: when the manager made it and premium's weight w_P in units of the slots. */
    record Point(long millis, double premiumWeight) {
    }

    private final List<Point> points = new ArrayList<>();
    /** Each decision's flows as CSV rows: what the manager saw, which model it used and what it predicted. */
    private final List<String> rows = new ArrayList<>();
    private long lastVersion = Long.MIN_VALUE;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "decision-trace");
        t.setDaemon(true);
        return t;
    });

    DecisionTrace(Supplier<DecisionMessage> decisions, String premium, double total) {
        timer.scheduleWithFixedDelay(() -> {
            DecisionMessage d = decisions.get();
            if (d == null || d.version() == lastVersion) {
                return;
            }
            lastVersion = d.version();
            double p = 0;
            double all = 0;
            for (DecisionMessage.FlowDecision f : d.flows()) {
                all += f.weight();
                p += f.className().equals(premium) ? f.weight() : 0;
            }
            if (all > 0) {
                synchronized (points) {
                    points.add(new Point(d.timestampMillis(), total * p / all));
                    for (DecisionMessage.FlowDecision f : d.flows()) {
                        rows.add(String.format(Locale.ROOT, "%d,%d,%s,%s,%.4f,%.5f,%.3f,%.3f,%.5f,%.4f,%.3f,%.3f",
                                d.timestampMillis(), d.version(), f.className(), f.model(), f.arrivalRate(), f.observedSeconds(),
                                total * f.previousWeight() / all, total * f.weight() / all, f.predictedSeconds(), f.utility(),
                                f.modelGain(), f.modelError()));
                    }
                }
            }
        }, 10, 10, TimeUnit.MILLISECONDS);
    }

    List<Point> points() {
        synchronized (points) {
            return List.copyOf(points);
        }
    }

    /**
     * Cycles from the first decision at or after {@code fromMillis} (the first that can see a change made then) until
     * premium's weight stays within {@code band} of {@code target} up to {@code toMillis}: 0 when that first decision
     * already does; −1 when the weight never settles there (or no decision was made).
     */
    static int settleCycles(List<Point> trace, long fromMillis, long toMillis, double target, double band) {
        return settleCycles(trace, fromMillis, toMillis, List.of(target), band);
    }

    /** As {@link #settleCycles(List, long, long, double, double)}, within {@code band} of the nearest of {@code targets}. */
    static int settleCycles(List<Point> trace, long fromMillis, long toMillis, List<Double> targets, double band) {
        List<Point> in = trace.stream().filter(p -> p.millis() >= fromMillis && p.millis() < toMillis).toList();
        int settledFrom = -1;
        for (int i = 0; i < in.size(); i++) {
            double w = in.get(i).premiumWeight();
            if (targets.stream().mapToDouble(t -> Math.abs(w - t)).min().orElse(Double.POSITIVE_INFINITY) > band) {
                settledFrom = -1;
            } else if (settledFrom < 0) {
                settledFrom = i;
            }
        }
        return settledFrom;
    }

    /** The settling band around a best static weight: ±max(1, 15%) (one slot: the optimum is flat and measured with noise). */
    static double band(double bestWeight) {
        return Math.max(1, 0.15 * bestWeight);
    }

    /** Premium's weights in a span, as "5 6 6 7 …" (for the results file: how the weights moved, cycle by cycle). */
    static String weights(List<Point> trace, long fromMillis, long toMillis, int most) {
        StringBuilder s = new StringBuilder();
        int n = 0;
        for (Point p : trace) {
            if (p.millis() >= fromMillis && p.millis() < toMillis && n++ < most) {
                s.append(s.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.1f", p.premiumWeight()));
            }
        }
        return n > most ? s + " …" : s.toString();
    }

    /** The decisions' flows as CSV, a header first; weights in units of {@code total}. */
    String csv() {
        synchronized (points) {
            return "millis,version,class,model,arrivals_per_s,observed_s,previous_weight,weight,predicted_s,utility,gain,model_error\n"
                    + String.join("\n", rows) + "\n";
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
