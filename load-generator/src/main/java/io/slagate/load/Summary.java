package io.slagate.load;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The run's JSON summary: per class, after the warm-up, throughput and response-time statistics in
 * milliseconds, errors by kind, the answers within the class's target where one is given; and the balance of requests
 * sent and answered (lost must be 0).
 */
public record Summary(double durationSeconds, double measuredSeconds, Map<String, ClassSummary> classes,
                      long sent, long answered, long lost) {
    public record ClassSummary(long completed, double throughput, double meanMs, double p50Ms, double p95Ms,
                               double p99Ms, double maxMs, Map<String, Long> errors, Double targetMs,
                               int maxInFlight, long sent, long answered, Long withinTarget) {
    }

    /** @param measuredSeconds the time the measured (post-warm-up) answers were collected in */
    static Summary of(LoadSpec spec, List<ClassState> states, double durationSeconds, double measuredSeconds) {
        double measured = Math.max(1e-9, measuredSeconds);
        Map<String, ClassSummary> out = new LinkedHashMap<>();
        long sent = 0;
        long answered = 0;
        for (ClassState c : states) {
            Histogram h = c.total;
            long n = h.getTotalCount();
            Map<String, Long> errors = new TreeMap<>();
            c.errors.forEach((k, v) -> errors.put(k, v.sum()));
            out.put(c.spec.name(), new ClassSummary(n, n / measured,
                    n > 0 ? h.getMean() / 1000 : Double.NaN,
                    n > 0 ? h.getValueAtPercentile(50) / 1000.0 : Double.NaN,
                    n > 0 ? h.getValueAtPercentile(95) / 1000.0 : Double.NaN,
                    n > 0 ? h.getValueAtPercentile(99) / 1000.0 : Double.NaN,
                    n > 0 ? h.getMaxValue() / 1000.0 : Double.NaN, errors,
                    c.spec.target() == null ? null : (double) c.spec.target().toMillis(), c.maxInFlight.get(),
                    c.sent.get(), c.answered.get(),
                    // answers within the class's target as the clients timed them (to the histogram's 3 digits)
                    c.spec.target() == null || n == 0 ? null : h.getCountBetweenValues(0, c.spec.target().toNanos() / 1000)));
            sent += c.sent.get();
            answered += c.answered.get();
        }
        return new Summary(durationSeconds, measured, out, sent, answered, sent - answered);
    }
}
