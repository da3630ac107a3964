package io.slagate.gateway.sched;

import io.slagate.config.SchedulerMode;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue manager's admission (section III-A): per pool, while a server has a free slot under its cap and a class
 * is backlogged, the class the selector chooses (weighted round-robin, FCFS or static priority, a surging class held
 * to its share) has its oldest request admitted to that server.
 *
 * <p>Scheduling runs in a serialized loop: any thread that changes the state (an arrival, a completion, a new
 * allocation) calls {@link #run}, which bumps {@code wip}; the thread that moved it from 0 runs passes until no change
 * is left unprocessed, so exactly one thread at a time makes admission decisions and the others return at once.
 */
final class Admission {
    private static final Logger LOG = LoggerFactory.getLogger(QueueManager.class);

    private final ClassQueue[] queues;
    private final int[][] poolQueues;
    private final ClassCounts counts;
    private final CapTable caps;
    private final PoolTopology pools;
    private final ClassSelector selector;
    private final SurgeShares surge;
    private final boolean perClassQueues;
    private final AtomicInteger wip = new AtomicInteger();

    // Touched only inside the serialized scheduling loop.
    private final boolean[][] scratchBacklogged;
    private final int[][] scratchExecuting;

    Admission(QueueLayout layout, SchedulerMode mode, ClassQueue[] queues, ClassCounts counts, CapTable caps, PoolTopology pools) {
        this.queues = queues;
        this.poolQueues = layout.poolQueues;
        this.counts = counts;
        this.caps = caps;
        this.pools = pools;
        this.perClassQueues = mode != SchedulerMode.FCFS;
        this.surge = new SurgeShares(layout.classCount, perClassQueues);
        this.selector = switch (mode) {
            case WRR -> new WeightedRoundRobinSelector(layout.classCount);
            case PRIORITY -> new PrioritySelector();
            case FCFS -> ClassSelector.FIRST_BACKLOGGED;
        };
        int poolCount = layout.pools();
        scratchBacklogged = new boolean[poolCount][];
        scratchExecuting = new int[poolCount][];
        for (int p = 0; p < poolCount; p++) {
            scratchBacklogged[p] = new boolean[poolQueues[p].length];
            scratchExecuting[p] = new int[poolQueues[p].length];
        }
    }

    /** Runs the scheduler, or has the thread running it make one more pass. */
    void run() {
        if (wip.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            try {
                schedulePass();
            } catch (RuntimeException e) {
                LOG.error("scheduling pass failed; continuing", e);
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    private void schedulePass() {
        Allocation a = caps.allocation();
        for (int p = 0; p < poolQueues.length; p++) {
            int[] qs = poolQueues[p];
            boolean[] backlogged = scratchBacklogged[p];
            int[] exec = scratchExecuting[p];
            while (true) {
                ServerSlots server = pools.pick(p, a);
                if (server == null) {
                    break;
                }
                boolean any = false;
                for (int i = 0; i < qs.length; i++) {
                    backlogged[i] = queues[qs[i]].backlogged();
                    any |= backlogged[i];
                    exec[i] = perClassQueues ? counts.executing.get(qs[i]) : 0;
                }
                if (!any) {
                    break;
                }
                int capacity = pools.capacity(p, a);
                int i = selector.select(qs, backlogged, exec, a, capacity);
                while (i >= 0 && surge.overShare(qs, i, exec, a, capacity)) {
                    backlogged[i] = false; // a surging class at its share: the slot waits for another class
                    i = selector.select(qs, backlogged, exec, a, capacity);
                }
                if (i < 0) {
                    break;
                }
                if (!server.tryAcquire(a.cap(server.index()))) {
                    continue; // a retry took the slot since pickServer looked; pick again
                }
                QueuedRequest r = queues[qs[i]].pollForAdmission();
                if (r == null) {
                    server.release(); // the sweeper expired it meanwhile
                    continue;
                }
                server = pools.byRequestType(p, r.requestType(), server, a);
                counts.waiting.decrementAndGet(r.classIndex());
                counts.executing.incrementAndGet(r.classIndex());
                try {
                    r.onAdmitted(server);
                } catch (RuntimeException e) {
                    LOG.error("admitting a request of class {} failed", r.classIndex(), e);
                }
            }
        }
    }

    /** While {@code on}, class {@code c} gets no more concurrent slots than its share ({@link SurgeShares}). */
    void protect(int c, boolean on) {
        surge.protect(c, on);
    }
}
