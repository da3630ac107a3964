package io.slagate.gateway.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A class with deadlines serves each lane earliest latest-admission first; a fake clock, the test completes requests. */
class EarliestDeadlineFirstTest {
    /** Near the top of nanoTime's range, so that expiries compared without overflow care would sort wrongly. */
    private final AtomicLong now = new AtomicLong(Long.MAX_VALUE - 2_000_000_000L);
    private final List<Waiting> admitted = new ArrayList<>();
    private final List<Waiting> expired = new ArrayList<>();

    final class Waiting extends QueuedRequest {
        final long admitByMillis;
        ServerSlots server;

        Waiting(String customer, long admitByMillis) {
            super(0, now.get(), customer);
            this.admitByMillis = admitByMillis;
            admitBy(now.get() + admitByMillis * 1_000_000);
        }

        @Override
        protected void onAdmitted(ServerSlots s) {
            server = s;
            admitted.add(this);
        }

        @Override
        protected void onExpired() {
            expired.add(this);
        }
    }

    private QueueManager manager(String fairness, String deadline) {
        SlagateConfig cfg = ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 1 } ]
                classes: [ { name: p, target: 1s, queueTimeout: 10s, fairness: %s %s } ]
                """.formatted(fairness, deadline), "t");
        return QueueManager.create(cfg, new Allocation(1, new double[] {1}, new int[] {1}), now::get);
    }

    private Waiting completeNext(QueueManager qm) {
        Waiting running = admitted.get(admitted.size() - 1);
        qm.release(running.server, 0);
        return admitted.get(admitted.size() - 1);
    }

    @Test
    void withDeadlines_theMostUrgentWaitingRequestGoesFirst_tiesInArrivalOrder() {
        QueueManager qm = manager("none", ", deadline: 1h");
        assertNull(qm.offer(new Waiting(null, 5_000))); // takes the one slot
        long[] admitBy = {900, 300, 700, 300, 100, 2_000};
        List<Waiting> queued = new ArrayList<>();
        for (long ms : admitBy) {
            Waiting w = new Waiting(null, ms);
            queued.add(w);
            assertNull(qm.offer(w));
        }
        List<Waiting> order = new ArrayList<>();
        for (int i = 0; i < admitBy.length; i++) {
            order.add(completeNext(qm));
        }
        assertEquals(List.of(queued.get(4), queued.get(1), queued.get(3), queued.get(2), queued.get(0), queued.get(5)), order);
    }

    @Test
    void withoutDeadlines_theLaneStaysFirstComeFirstServed() {
        QueueManager qm = manager("none", "");
        assertNull(qm.offer(new Waiting(null, 5_000)));
        Waiting late = new Waiting(null, 900);
        Waiting early = new Waiting(null, 100);
        qm.offer(late);
        qm.offer(early);
        assertEquals(late, completeNext(qm), "no deadline: the class's own admitBy is not read, arrival order rules");
        assertEquals(early, completeNext(qm));
    }

    /** The sweep stops at the first entry still in time, yet expires every overdue one, exactly once, across customers' lanes. */
    @Test
    void sweep_expiresExactlyTheOverdue_inEveryCustomersLane() {
        QueueManager qm = manager("customers", ", deadline: 1h");
        assertNull(qm.offer(new Waiting("a", 60_000)));
        Random rnd = new Random(3);
        List<Waiting> all = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Waiting w = new Waiting(i % 2 == 0 ? "a" : "b", 1 + rnd.nextInt(1_000));
            all.add(w);
            qm.offer(w);
        }
        now.addAndGet(500_000_000L);
        int n = qm.expireOverdue();
        long overdue = all.stream().filter(w -> w.admitByMillis <= 500).count();
        assertEquals(overdue, n);
        assertEquals(overdue, expired.size());
        assertEquals(expired.stream().distinct().count(), expired.size());
        assertEquals(all.size() - overdue, qm.counts().waiting(0));
        for (int i = 0; i < all.size() - overdue; i++) {
            assertEquals(true, completeNext(qm).admitByMillis > 500, "an overdue request is never admitted");
        }
        for (String customer : List.of("a", "b")) { // lanes take turns: the order holds within each customer's
            long previous = 0;
            for (Waiting w : admitted.subList(1, admitted.size())) {
                if (w.customer().equals(customer)) {
                    assertEquals(true, w.admitByMillis >= previous, "customer " + customer + " served most urgent first");
                    previous = w.admitByMillis;
                }
            }
        }
    }

    /**
     * A customer that marks every request the most urgent (a hostile or careless X-Request-Deadline) orders only its own
     * lane: another customer's request, far less urgent, still takes the next turn, and the flood is served behind it.
     */
    @Test
    void aCustomerClaimingUrgency_ordersOnlyItsOwnLane() {
        QueueManager qm = manager("customers", ", deadline: 1h");
        assertNull(qm.offer(new Waiting("flood", 60_000)));
        for (int i = 0; i < 50; i++) {
            assertNull(qm.offer(new Waiting("flood", 5)));
        }
        Waiting patient = new Waiting("patient", 50_000);
        assertNull(qm.offer(patient));
        Waiting first = completeNext(qm);
        Waiting second = completeNext(qm);
        assertEquals(true, first == patient || second == patient, "the other customer's turn comes among the first two");
        int flood = 0;
        for (int i = 0; i < 49; i++) {
            flood += completeNext(qm).customer().equals("flood") ? 1 : 0;
        }
        assertEquals(49, flood, "the flood is still served, each in its turn");
    }
}
