package io.slagate.gateway.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * Many threads offering, completing, retrying on another server, expiring and changing the
 * allocation at once, for many customers (per-customer lanes with a lane bound, default lanes, and
 * one FIFO class): no cap is ever exceeded and every request ends exactly once.
 */
class QueueManagerStressTest {
    @Test
    void concurrent_capsNeverExceeded_everyRequestEndsOnce() throws Exception {
        SlagateConfig cfg = ConfigLoader.parse("""
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 5 }
                  - { id: s2, url: "http://127.0.0.1:2", concurrency: 3 }
                  - { id: s3, url: "http://127.0.0.1:3", concurrency: 2 }
                classes:
                  - { name: a, target: 1s, queueBound: 50, queueTimeout: 5ms, customerQueueBound: 10 }
                  - { name: b, target: 1s, queueBound: 50, queueTimeout: 5ms }
                  - { name: c, target: 1s, queueBound: 50, queueTimeout: 5ms, fairness: none }
                """, "t");
        QueueManager qm = QueueManager.create(cfg, new Allocation(1, new double[] {5, 3, 2}, new int[] {5, 3, 2}), System::nanoTime);
        AtomicIntegerArray maxSeen = new AtomicIntegerArray(3);
        AtomicInteger capViolations = new AtomicInteger();
        AtomicInteger ended = new AtomicInteger();
        AtomicInteger doubleEnds = new AtomicInteger();
        ConcurrentLinkedQueue<Object[]> running = new ConcurrentLinkedQueue<>();
        int[][] capsHistory = {{5, 3, 2}, {2, 1, 1}, {5, 3, 2}};

        final class Req extends QueuedRequest {
            final AtomicInteger ends = new AtomicInteger();

            Req(int c, String customer) {
                super(c, System.nanoTime(), customer);
            }

            void end() {
                if (ends.incrementAndGet() > 1) {
                    doubleEnds.incrementAndGet();
                }
                ended.incrementAndGet();
            }

            @Override
            protected void onAdmitted(ServerSlots server) {
                int out = server.outstanding();
                // the cap in force may have just shrunk; the largest cap ever in force bounds it
                if (out > capsHistory[0][server.index()]) {
                    capViolations.incrementAndGet();
                }
                maxSeen.accumulateAndGet(server.index(), out, Math::max);
                running.add(new Object[] {this, server});
            }

            @Override
            protected void onExpired() {
                end();
            }
        }

        int threads = 4;
        int perThread = 20_000;
        AtomicInteger offered = new AtomicInteger();
        AtomicInteger rejected = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                for (int i = 0; i < perThread; i++) {
                    // 20 customers and the anonymous one: lanes come and go under the sweeper while others use them
                    int who = rnd.nextInt(21);
                    Req r = new Req(rnd.nextInt(3), who == 20 ? null : "customer-" + who);
                    offered.incrementAndGet();
                    if (qm.offer(r) != null) {
                        rejected.incrementAndGet();
                        r.end();
                    }
                    Object[] e = running.poll();
                    if (e != null) {
                        Req done1 = (Req) e[0];
                        ServerSlots s = (ServerSlots) e[1];
                        if (rnd.nextInt(10) == 0) {
                            ServerSlots other = qm.reassign(s, 0L); // a "connect failure": retry elsewhere
                            if (other != null) {
                                s = other;
                            }
                        }
                        qm.release(s, done1.classIndex());
                        done1.end();
                    }
                    if (rnd.nextInt(1000) == 0) {
                        int[] caps = capsHistory[rnd.nextInt(3)];
                        qm.setAllocation(new Allocation(2, new double[] {rnd.nextDouble() + 0.1, 1, 2}, caps));
                    }
                    if (rnd.nextInt(100) == 0) {
                        qm.expireOverdue();
                    }
                }
                done.countDown();
            }, "stress-" + t);
            th.start();
        }
        assertTrue(done.await(2, TimeUnit.MINUTES));
        qm.setAllocation(new Allocation(3, new double[] {1, 1, 1}, capsHistory[0]));
        // drain what is left: complete running requests until nothing waits
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ended.get() < offered.get() && System.nanoTime() < deadline) {
            Object[] e = running.poll();
            if (e != null) {
                qm.release((ServerSlots) e[1], ((Req) e[0]).classIndex());
                ((Req) e[0]).end();
            } else {
                qm.expireOverdue();
                Thread.onSpinWait();
            }
        }
        assertEquals(0, capViolations.get());
        assertEquals(0, doubleEnds.get());
        assertEquals(offered.get(), ended.get(), "every request ended exactly once");
        assertEquals(0, qm.counts().executingTotal());
        for (int c = 0; c < 3; c++) {
            assertEquals(0, qm.counts().waiting(c));
        }
        for (int s = 0; s < 3; s++) {
            assertEquals(0, qm.server(s).outstanding());
            assertTrue(maxSeen.get(s) <= capsHistory[0][s]);
        }
    }
}
