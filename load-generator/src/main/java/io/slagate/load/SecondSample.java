package io.slagate.load;

import java.util.Collection;
import java.util.Locale;

/**
 * One class's measurements over one second of the run: a row of the CSV. Times in milliseconds;
 * NaN where nothing completed. {@code weight} and {@code queue} come from the gateway's /stats
 * (NaN / -1 when not read).
 */
public record SecondSample(double second, int phase, boolean warmup, String className, double load, int clients,
                           long completed, double throughput, double meanMs, double p50Ms, double p95Ms,
                           double p99Ms, double maxMs, long errors, int inFlight, double weight, int queue) {
    public static final String CSV_HEADER =
            "second,phase,warmup,class,load,clients,completed,throughput,mean_ms,p50_ms,p95_ms,p99_ms,max_ms,errors,in_flight,weight,queue";

    /** Completion-weighted mean response time over samples (NaN when nothing completed). */
    public static double weightedMeanMs(Collection<SecondSample> samples) {
        double sum = 0;
        long n = 0;
        for (SecondSample s : samples) {
            if (s.completed() > 0) {
                sum += s.meanMs() * s.completed();
                n += s.completed();
            }
        }
        return n > 0 ? sum / n : Double.NaN;
    }

    public String csv() {
        return String.join(",", fmt(second), String.valueOf(phase), String.valueOf(warmup), className, fmt(load),
                String.valueOf(clients), String.valueOf(completed), fmt(throughput), fmt(meanMs), fmt(p50Ms),
                fmt(p95Ms), fmt(p99Ms), fmt(maxMs), String.valueOf(errors), String.valueOf(inFlight), fmt(weight),
                String.valueOf(queue));
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
    }
}
