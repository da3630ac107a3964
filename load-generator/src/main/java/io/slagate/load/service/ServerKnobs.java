package io.slagate.load.service;

import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One synthetic server's tunable settings (the backend knobs), read and set at run time through its
 * {@code /admin/knobs} endpoint: its worker pool (requests executing at once; the rest wait inside the server)
 * and a contention knee: past {@code contentionKnee} requests executing, each takes longer by
 * (1 + ((n − k) / k)²), as a database's lock contention stretches work, so that throughput falls again past a
 * point and a tuner has an optimum to find rather than a bound to run into. 0 turns either off. The contention may be
 * confined to some operations (writes that take locks, e.g. {@code buyShares}), counted among themselves: then reads
 * never stretch, so the best pool differs between a read-heavy and a write-heavy workload. With {@code processors}
 * set, the requests executing share that many processors ({@link ProcessorSharing}) instead of each taking its own
 * service time whatever the load: a CPU-bound server, slower for every request the more it holds. With
 * {@code connectionCost} (percent), every request is slower by that much per worker past the knee, busy or idle: a
 * database whose every statement scans its open connections (a snapshot over each backend's state), so that a pool too
 * large costs every request whatever the load, and one too small queues.
 */
public final class ServerKnobs {
    /** The Axis2 configuration-context property that holds a server's knobs. */
    public static final String PROPERTY = "slagate.serverKnobs";
    public static final int MAX_WORKERS = 10_000;

    /** A semaphore whose permits can be taken away as well as added. */
    private static final class Pool extends Semaphore {
        Pool(int permits) {
            super(permits, true);
        }

        void shrink(int by) {
            reducePermits(by);
        }
    }

    private final Pool pool = new Pool(0);
    private final AtomicInteger executing = new AtomicInteger();
    private final AtomicInteger contendingExecuting = new AtomicInteger();
    /** The operations that contend (empty: every one). */
    private volatile Set<String> contending = Set.of();
    private final AtomicInteger peak = new AtomicInteger();
    private volatile int workers;
    private volatile int contentionKnee;
    private volatile int processors;
    private volatile int connectionCost;
    private final ProcessorSharing sharing = new ProcessorSharing(1_000_000);

    public ServerKnobs(int workers, int contentionKnee) {
        workers(workers);
        contentionKnee(contentionKnee);
    }

    public int workers() {
        return workers;
    }

    /**
     * Resizes the pool; requests executing go on, and a smaller pool takes effect as they finish. 0 (unbounded) only
     * for a server that started unbounded: a pool cannot be dropped while requests hold its permits.
     */
    public synchronized void workers(int n) {
        if (n < 0 || n > MAX_WORKERS || (n == 0 && workers > 0)) {
            throw new IllegalArgumentException("workers must be from 1 to " + MAX_WORKERS + ": " + n);
        }
        int before = workers;
        if (n > before) {
            pool.release(n - before);
        } else if (n < before) {
            pool.shrink(before - n);
        }
        workers = n;
    }

    public int contentionKnee() {
        return contentionKnee;
    }

    public void contentionKnee(int k) {
        if (k < 0 || k > MAX_WORKERS) {
            throw new IllegalArgumentException("contentionKnee must be from 0 (none) to " + MAX_WORKERS + ": " + k);
        }
        contentionKnee = k;
    }

    public int processors() {
        return processors;
    }

    /** Makes the executing requests share {@code p} processors (0: each takes its own service time, as a sleep would). */
    public void processors(int p) {
        if (p < 0 || p > MAX_WORKERS) {
            throw new IllegalArgumentException("processors must be from 0 (no sharing) to " + MAX_WORKERS + ": " + p);
        }
        processors = p;
    }

    public int connectionCost() {
        return connectionCost;
    }

    /** Makes every request {@code percent}% slower per worker past the knee (0: none). */
    public void connectionCost(int percent) {
        if (percent < 0 || percent > 1000) {
            throw new IllegalArgumentException("connectionCost must be from 0 (none) to 1000 percent: " + percent);
        }
        connectionCost = percent;
    }

    /** How much longer each request takes with a pool of {@code w} workers, {@code percent}% a worker past the knee {@code k}. */
    public static double poolStretch(int w, int k, int percent) {
        return k > 0 && w > k ? 1 + percent / 100.0 * (w - k) : 1;
    }

    /** Confines the contention to these operations, counted among themselves (empty: every operation contends). */
    public void contendingOperations(Set<String> operations) {
        contending = Set.copyOf(operations);
    }

    /** Whether {@code operation} is subject to the contention knee. */
    public boolean contends(String operation) {
        Set<String> c = contending;
        return c.isEmpty() || c.contains(operation);
    }

    /** How much longer each request takes with {@code n} executing past a contention knee {@code k} (0: none). */
    public static double stretch(int n, int k) {
        return k > 0 && n > k ? 1 + Math.pow((n - k) / (double) k, 2) : 1;
    }

    public int executing() {
        return executing.get();
    }

    /** The most requests that executed at once since the last call (then reset). */
    public int takePeak() {
        return peak.getAndSet(executing.get());
    }

    /** Runs one request's work: after a free worker when the pool is bounded, stretched by the contention past the knee. */
    public void perform(ServiceTime time, String operation) {
        boolean bounded = workers > 0;
        if (bounded) {
            pool.acquireUninterruptibly();
        }
        int n = executing.incrementAndGet();
        peak.accumulateAndGet(n, Math::max);
        boolean contends = contends(operation);
        int m = contends ? contendingExecuting.incrementAndGet() : 0;
        try {
            double stretch = contends ? stretch(m, contentionKnee) : 1;
            int cost = connectionCost;
            if (cost > 0) {
                stretch = poolStretch(workers, contentionKnee, cost); // the pool's cost stands in for the executing contention
            }
            int p = processors;
            if (p > 0) {
                sharing.perform((long) (time.drawNanos(operation) * stretch), p);
            } else {
                time.perform(operation, stretch);
            }
        } finally {
            if (contends) {
                contendingExecuting.decrementAndGet();
            }
            executing.decrementAndGet();
            if (bounded) {
                pool.release();
            }
        }
    }
}
