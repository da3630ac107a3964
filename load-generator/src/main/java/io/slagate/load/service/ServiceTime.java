package io.slagate.load.service;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The synthetic service's work (section V): each request's service time S is exponential with the
 * operation's mean, spent alternating CPU-bound work and sleep in slices, a fraction {@code cpu} of
 * each slice on the CPU. The CPU part is measured in thread CPU time, so when threads compete for
 * cores the request takes longer — which is what makes throughput level off past the knee (Fig. 7).
 * The sleep part stands for waiting on a back-end database.
 *
 * @param meanByOperation mean service time per operation name; {@code defaultMean} for the others
 * @param cpu             fraction of the service time spent on the CPU, in [0, 1]
 * @param slice           length of one CPU+sleep alternation
 * @param workers         requests the server executes at once (its worker pool; the others wait inside it), 0 for no bound:
 *                        with {@code cpu} 0, a sleep-bound server whose knee is exactly its pool (the second backend)
 */
public record ServiceTime(Map<String, Duration> meanByOperation, Duration defaultMean, double cpu, Duration slice, int workers) {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static volatile long sink;

    public ServiceTime(Map<String, Duration> meanByOperation, Duration defaultMean, double cpu, Duration slice) {
        this(meanByOperation, defaultMean, cpu, slice, 0);
    }

    /** The same work on a server that executes at most {@code n} requests at once. */
    public ServiceTime withWorkers(int n) {
        return new ServiceTime(meanByOperation, defaultMean, cpu, slice, n);
    }

    public ServiceTime {
        if (workers < 0) {
            throw new IllegalArgumentException("workers must be 0 (no bound) or more: " + workers);
        }
        meanByOperation = Map.copyOf(meanByOperation);
        if (!(cpu >= 0 && cpu <= 1)) {
            throw new IllegalArgumentException("cpu fraction must be in [0, 1]: " + cpu);
        }
    }

    /** The paper's service: exponential, mean 1 s, scaled by {@code scale}. */
    public static ServiceTime paper(double scale, double cpu) {
        return of(Duration.ofNanos((long) (1e9 * scale)), cpu);
    }

    /** Every operation with the same mean; ten CPU+sleep alternations per mean service time (at least 1 ms each). */
    public static ServiceTime of(Duration mean, double cpu) {
        return new ServiceTime(Map.of(), mean, cpu, Duration.ofNanos(Math.max(1_000_000, mean.toNanos() / 10)));
    }

    public Duration mean(String operation) {
        return meanByOperation.getOrDefault(operation, defaultMean);
    }

    /** Draws one exponential service time for the operation. */
    public long drawNanos(String operation) {
        double u = ThreadLocalRandom.current().nextDouble();
        return (long) (-Math.log(1 - u) * mean(operation).toNanos());
    }

    /** Spends one request's service time on the calling thread. */
    public void perform(String operation) {
        perform(operation, 1);
    }

    /** Spends one request's service time, {@code stretch} times the drawn one (contention), on the calling thread. */
    public void perform(String operation, double stretch) {
        long total = (long) (drawNanos(operation) * stretch);
        long sliceNanos = slice.toNanos();
        long left = total;
        while (left > 0) {
            long s = Math.min(sliceNanos, left);
            burnCpu((long) (s * cpu));
            long sleep = s - (long) (s * cpu);
            if (sleep > 0) {
                LockSupport.parkNanos(sleep);
            }
            left -= s;
        }
    }

    /** Spends {@code nanos} of the calling thread's CPU time (wall time where the JVM cannot measure it). */
    static void burnCpu(long nanos) {
        if (nanos <= 0) {
            return;
        }
        boolean cpuClock = THREADS.isCurrentThreadCpuTimeSupported();
        long start = cpuClock ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
        long x = 0;
        while (true) {
            for (int i = 0; i < 2_000; i++) {
                x += i * 31L ^ (x >>> 3);
            }
            long now = cpuClock ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
            if (now - start >= nanos) {
                break;
            }
        }
        sink = x; // keeps the loop from being optimized away
    }
}
