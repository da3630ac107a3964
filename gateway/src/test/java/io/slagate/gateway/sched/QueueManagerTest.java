package io.slagate.gateway.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.locality.LocalityLearner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The scheduler driven deterministically: a fake clock, and the test decides when requests complete. */
class QueueManagerTest {
    /** An arbitrary, large clock origin, so that code comparing nanos without overflow care fails. */
    private final AtomicLong now = new AtomicLong(Long.MAX_VALUE - 1_000_000_000_000L);
    private final List<TestRequest> running = new ArrayList<>();
    private final List<TestRequest> admittedOrder = new ArrayList<>();

    final class TestRequest extends QueuedRequest {
        ServerSlots server;
        int admissions;
        int expirations;

        TestRequest(int classIndex) {
            super(classIndex, now.get());
        }

        TestRequest(int classIndex, String customer) {
            super(classIndex, now.get(), customer);
        }

        @Override
        protected void onAdmitted(ServerSlots s) {
            server = s;
            admissions++;
            running.add(this);
            admittedOrder.add(this);
        }

        @Override
        protected void onExpired() {
            expirations++;
        }
    }

    private static SlagateConfig config(String scheduler, int capacity, String... classes) {
        StringBuilder y = new StringBuilder("gateway: { scheduler: " + scheduler + " }\nservers:\n  - { id: s1, url: \"http://127.0.0.1:1\", concurrency: "
                + capacity + " }\nclasses:\n");
        for (String c : classes) {
            y.append("  - { name: ").append(c).append(", target: 1s, queueBound: 100000, queueTimeout: 10s }\n");
        }
        return ConfigLoader.parse(y.toString(), "test");
    }

    private QueueManager manager(SlagateConfig cfg, double... weights) {
        int[] caps = cfg.servers().stream().mapToInt(s -> s.concurrency()).toArray();
        return QueueManager.create(cfg, new Allocation(1, weights, caps), now::get);
    }

    private void completeRandom(QueueManager qm, Random rnd) {
        TestRequest r = running.remove(rnd.nextInt(running.size()));
        qm.release(r.server, r.classIndex());
    }

    /** Keeps every class backlogged and returns the mean executing mix seen after each decision. */
    private double[] saturatedMix(QueueManager qm, int classes, int decisions, long seed) {
        Random rnd = new Random(seed);
        for (int c = 0; c < classes; c++) {
            for (int i = 0; i < 50; i++) {
                assertNull(qm.offer(new TestRequest(c)));
            }
        }
        double[] sum = new double[classes];
        for (int d = 0; d < decisions; d++) {
            completeRandom(qm, rnd);
            for (int c = 0; c < classes; c++) {
                if (qm.counts().waiting(c) < 20) {
                    qm.offer(new TestRequest(c));
                }
                sum[c] += qm.counts().executing(c);
            }
        }
        double total = 0;
        for (double s : sum) {
            total += s;
        }
        for (int c = 0; c < classes; c++) {
            sum[c] /= total;
        }
        return sum;
    }

    /** Thousands of customers each with a request: one lane each while they wait; every lane is freed once idle. */
    @Test
    void fairLanes_thousandsOfCustomers_idleLanesFreedBySweep() {
        QueueManager qm = manager(config("wrr", 1, "premium"), 1);
        int customers = 5_000;
        for (int i = 0; i < customers; i++) {
            qm.offer(new TestRequest(0, "customer-" + i));
        }
        assertEquals(customers, qm.customers(0), "a lane per customer");
        assertEquals(customers - 1, qm.counts().waiting(0));
        for (int i = 0; i < customers; i++) { // one slot: each release admits the next customer's request
            TestRequest r = running.remove(0);
            qm.release(r.server, 0);
        }
        assertEquals(0, qm.counts().waiting(0));
        assertEquals(customers, admittedOrder.size(), "every request admitted exactly once");
        qm.expireOverdue();
        assertEquals(0, qm.customers(0), "idle lanes dropped: an idle customer costs nothing");
    }

    @Test
    void wrr_integerWeights_executingMixFollowsWeights() {
        QueueManager qm = manager(config("wrr", 10, "p", "b"), 8, 2);
        double[] mix = saturatedMix(qm, 2, 50_000, 1);
        assertEquals(0.8, mix[0], 0.01);
        assertEquals(0.2, mix[1], 0.01);
    }

    @Test
    void wrr_fractionalWeights_longRunSharesFollowWeights() {
        QueueManager qm = manager(config("wrr", 10, "p", "b"), 8.3, 1.7);
        double[] mix = saturatedMix(qm, 2, 100_000, 2);
        assertEquals(0.83, mix[0], 0.01);
        assertEquals(0.17, mix[1], 0.01);
    }

    @Test
    void wrr_threeClassesFractional_sharesFollowWeights() {
        QueueManager qm = manager(config("wrr", 20, "a", "b", "c"), 10.5, 6.25, 3.25);
        double[] mix = saturatedMix(qm, 3, 100_000, 3);
        assertEquals(10.5 / 20, mix[0], 0.01);
        assertEquals(6.25 / 20, mix[1], 0.01);
        assertEquals(3.25 / 20, mix[2], 0.01);
    }

    @Test
    void wrr_underContention_eachClassKeepsItsGuaranteedShare() {
        QueueManager qm = manager(config("wrr", 10, "p", "b"), 6.5, 3.5);
        Random rnd = new Random(4);
        for (int i = 0; i < 30; i++) {
            qm.offer(new TestRequest(0));
            qm.offer(new TestRequest(1));
        }
        for (int d = 0; d < 20_000; d++) {
            // contention: both queues stay non-empty (an idle class may lose a slot to work conservation)
            for (int c = 0; c < 2; c++) {
                while (qm.counts().waiting(c) < 1 + rnd.nextInt(3)) {
                    qm.offer(new TestRequest(c));
                }
            }
            completeRandom(qm, rnd);
            assertTrue(qm.counts().executing(0) >= 6 || qm.counts().waiting(0) == 0, "class p below its 6 guaranteed slots");
            assertTrue(qm.counts().executing(1) >= 3 || qm.counts().waiting(1) == 0, "class b below its 3 guaranteed slots");
            assertEquals(10, qm.counts().executingTotal());
        }
    }

    @Test
    void wrr_workConserving_loneClassGetsEverySlot() {
        QueueManager qm = manager(config("wrr", 10, "p", "b"), 9, 1);
        for (int i = 0; i < 15; i++) {
            qm.offer(new TestRequest(1));
        }
        assertEquals(10, qm.counts().executing(1), "the small-weight class must use idle capacity");
        assertEquals(5, qm.counts().waiting(1));
        qm.offer(new TestRequest(0));
        assertEquals(1, qm.counts().waiting(0), "no slot is free: it waits");
        completeRandom(qm, new Random(5));
        assertEquals(1, qm.counts().executing(0), "the freed slot goes to the class below its share");
    }

    @Test
    void fcfs_admitsInArrivalOrderAcrossClasses() {
        QueueManager qm = manager(config("fcfs", 1, "p", "b"), 9, 1);
        TestRequest first = new TestRequest(1);
        qm.offer(first);
        List<TestRequest> order = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            TestRequest r = new TestRequest(i % 2);
            order.add(r);
            qm.offer(r);
        }
        Random rnd = new Random(6);
        for (int i = 0; i < 10; i++) {
            completeRandom(qm, rnd);
        }
        assertEquals(order, admittedOrder.subList(1, 11));
    }

    @Test
    void priority_firstClassAlwaysBeforeLater() {
        QueueManager qm = manager(config("priority", 1, "p", "b"), 1, 1);
        qm.offer(new TestRequest(1));
        for (int i = 0; i < 5; i++) {
            qm.offer(new TestRequest(1));
            qm.offer(new TestRequest(0));
        }
        Random rnd = new Random(7);
        for (int i = 0; i < 5; i++) {
            completeRandom(qm, rnd);
            assertEquals(0, admittedOrder.get(admittedOrder.size() - 1).classIndex());
        }
        completeRandom(qm, rnd);
        assertEquals(1, admittedOrder.get(admittedOrder.size() - 1).classIndex());
    }

    @Test
    void caps_smallerAllocation_neverBlocksAndHoldsNewCap() {
        SlagateConfig cfg = ConfigLoader.parse("""
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 6 }
                  - { id: s2, url: "http://127.0.0.1:2", concurrency: 4 }
                classes:
                  - { name: p, target: 1s, queueBound: 1000 }
                """, "t");
        QueueManager qm = manager(cfg, 1);
        for (int i = 0; i < 30; i++) {
            qm.offer(new TestRequest(0));
        }
        assertEquals(6, qm.server(0).outstanding());
        assertEquals(4, qm.server(1).outstanding());
        qm.setAllocation(new Allocation(2, new double[] {1}, new int[] {2, 1}));
        assertEquals(10, qm.counts().executingTotal(), "requests already out simply finish");
        Random rnd = new Random(8);
        int[] newCaps = {2, 1};
        for (int i = 0; i < 20; i++) {
            int[] before = {qm.server(0).outstanding(), qm.server(1).outstanding()};
            completeRandom(qm, rnd);
            for (int s = 0; s < 2; s++) {
                int after = qm.server(s).outstanding();
                assertTrue(after <= Math.max(newCaps[s], before[s]), "a new request went to a server at its new cap");
            }
        }
        assertTrue(qm.server(0).outstanding() <= 2 && qm.server(1).outstanding() <= 1);
        assertEquals(3, qm.counts().executingTotal(), "N_g = 2 + 1 once the old requests drained");
    }

    @Test
    void rotation_serverOut_getsNoSlots_andCapacityMovesToOthers() {
        SlagateConfig cfg = ConfigLoader.parse("""
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 3 }
                  - { id: s2, url: "http://127.0.0.1:2", concurrency: 3 }
                classes:
                  - { name: p, target: 1s }
                """, "t");
        QueueManager qm = manager(cfg, 1);
        qm.setInRotation(0, false);
        for (int i = 0; i < 5; i++) {
            qm.offer(new TestRequest(0));
        }
        assertEquals(0, qm.server(0).outstanding());
        assertEquals(3, qm.server(1).outstanding());
        qm.setInRotation(0, true);
        assertEquals(2, qm.server(0).outstanding());
    }

    /**
     * The controller zeroes a down server's caps; when the server answers its probe again, this
     * gateway's share from before the outage is back at once (its queued requests go out now, not after
     * the next control cycle), the rotation change is announced, and the next allocation rules again.
     */
    @Test
    void rotation_serverBack_getsItsShareFromBeforeTheOutageAtOnce() {
        SlagateConfig cfg = ConfigLoader.parse("""
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 4 }
                  - { id: s2, url: "http://127.0.0.1:2", concurrency: 4 }
                classes:
                  - { name: p, target: 1s }
                """, "t");
        QueueManager qm = manager(cfg, 1);
        AtomicInteger announced = new AtomicInteger();
        qm.onRotationChange(announced::incrementAndGet);
        qm.setAllocation(new Allocation(2, new double[] {1}, new int[] {2, 1})); // this gateway's share of s1: 2
        qm.setInRotation(0, false);
        qm.setAllocation(new Allocation(3, new double[] {1}, new int[] {0, 1})); // the controller saw s1 down
        for (int i = 0; i < 4; i++) {
            qm.offer(new TestRequest(0));
        }
        assertEquals(1, qm.server(1).outstanding());
        assertEquals(0, qm.server(0).outstanding());
        qm.setInRotation(0, true);
        assertEquals(2, qm.server(0).outstanding(), "s1 takes its share of the queue at once");
        assertEquals(2, qm.caps().allocation().caps()[0]);
        assertEquals(3, qm.caps().allocation().version(), "provisional, under the allocation in force");
        assertEquals(2, announced.get(), "out and back, each announced");
        qm.setAllocation(new Allocation(4, new double[] {1}, new int[] {3, 1}));
        assertEquals(3, qm.caps().allocation().caps()[0], "the next allocation rules");
    }

    @Test
    void reassign_movesSlotToAnotherServer_withinCaps() {
        SlagateConfig cfg = ConfigLoader.parse("""
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 1 }
                  - { id: s2, url: "http://127.0.0.1:2", concurrency: 1 }
                classes:
                  - { name: p, target: 1s }
                """, "t");
        QueueManager qm = manager(cfg, 1);
        TestRequest r = new TestRequest(0);
        qm.offer(r);
        ServerSlots first = r.server;
        ServerSlots other = qm.reassign(first, 0L);
        assertTrue(other != null && other != first);
        assertEquals(0, first.outstanding());
        assertEquals(1, other.outstanding());
        qm.offer(new TestRequest(0));
        assertEquals(1, first.outstanding(), "the freed slot was offered to the next request");
        assertNull(qm.reassign(other, 0L), "no free slot left anywhere");
    }

    @Test
    void reassign_skipsServersAlreadyTried() {
        SlagateConfig cfg = ConfigLoader.parse("""
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 1 }
                  - { id: s2, url: "http://127.0.0.1:2", concurrency: 1 }
                classes:
                  - { name: p, target: 1s }
                """, "t");
        QueueManager qm = manager(cfg, 1);
        TestRequest r = new TestRequest(0);
        qm.offer(r);
        long triedBoth = 0b11;
        assertNull(qm.reassign(r.server, triedBoth), "every server of the pool was tried once");
        assertEquals(1, r.server.outstanding(), "a refused reassignment keeps the slot");
    }

    @Test
    void bound_fullQueue_rejectsWithQueueFull() {
        SlagateConfig cfg = ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 1 } ]
                classes: [ { name: p, target: 1s, queueBound: 2 } ]
                """, "t");
        QueueManager qm = manager(cfg, 1);
        assertNull(qm.offer(new TestRequest(0)));
        assertNull(qm.offer(new TestRequest(0)));
        assertNull(qm.offer(new TestRequest(0)));
        assertEquals(Rejection.QUEUE_FULL, qm.offer(new TestRequest(0)));
        assertEquals(2, qm.counts().waiting(0));
    }

    @Test
    void timeout_expiresOverdueOnly_exactlyOnce() {
        SlagateConfig cfg = ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 1 } ]
                classes: [ { name: p, target: 1s, queueTimeout: 100ms } ]
                """, "t");
        QueueManager qm = manager(cfg, 1);
        TestRequest running0 = new TestRequest(0);
        qm.offer(running0);
        TestRequest old = new TestRequest(0);
        qm.offer(old);
        now.addAndGet(60_000_000);
        TestRequest young = new TestRequest(0);
        qm.offer(young);
        now.addAndGet(50_000_000);
        assertEquals(1, qm.expireOverdue());
        assertEquals(1, old.expirations);
        assertEquals(0, young.expirations);
        assertEquals(0, qm.expireOverdue());
        qm.release(running0.server, 0);
        assertEquals(1, young.admissions, "the next slot skips the expired entry");
        assertEquals(0, old.admissions);
        assertEquals(0, qm.counts().waiting(0));
    }

    /**
     * The queueTimeout knob: the manager shortens a class's timeout from 10 s to 1 s. A request already waiting
     * keeps its 10 s; one queued after it gets 1 s and is expired at 1 s although the older one is still ahead of it
     * (the sweep scans past the head while old deadlines remain); 0 brings back the configured timeout. Each request
     * ends exactly once.
     */
    @Test
    void queueTimeout_changedByTheManager_appliesToNewRequests_andExpiresThemBehindOlderOnes() {
        SlagateConfig cfg = ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 1 } ]
                classes: [ { name: p, target: 1s, queueTimeout: 10s }, { name: q, target: 1s, queueTimeout: 10s } ]
                """, "t");
        QueueManager qm = manager(cfg, 1, 1);
        TestRequest running0 = new TestRequest(0);
        qm.offer(running0);
        TestRequest before = new TestRequest(0);
        qm.offer(before);
        qm.timeouts().set(new long[] {1_000_000_000L, 0});
        assertEquals(1_000_000_000L, qm.timeouts().nanos(0));
        assertEquals(10_000_000_000L, qm.timeouts().nanos(1), "a class not named keeps its configured timeout");
        TestRequest after = new TestRequest(0);
        qm.offer(after);
        now.addAndGet(1_100_000_000L);
        assertEquals(1, qm.expireOverdue(), "the new request's 1 s has passed, behind the head's 10 s");
        assertEquals(1, after.expirations);
        assertEquals(0, before.expirations);
        now.addAndGet(9_000_000_000L);
        assertEquals(1, qm.expireOverdue(), "the head's own 10 s");
        assertEquals(1, before.expirations);

        qm.timeouts().set(new long[] {0, 0});
        assertEquals(10_000_000_000L, qm.timeouts().nanos(0), "back to the configured timeout");
        TestRequest later = new TestRequest(0);
        qm.offer(later);
        now.addAndGet(5_000_000_000L);
        assertEquals(0, qm.expireOverdue());
        qm.release(running0.server, 0);
        assertEquals(1, later.admissions);
        assertEquals(0, before.admissions + after.admissions, "an expired request is never admitted");
        assertEquals(0, qm.counts().waiting(0));
    }

    /** FCFS shares one queue among a pool's classes: once their timeouts differ, the sweep scans it whole for good. */
    @Test
    void queueTimeout_differingInASharedFcfsQueue_expiresEachByItsOwn() {
        SlagateConfig cfg = ConfigLoader.parse("""
                gateway: { scheduler: fcfs }
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 1 } ]
                classes: [ { name: p, target: 1s, queueTimeout: 10s }, { name: q, target: 1s, queueTimeout: 10s } ]
                """, "t");
        QueueManager qm = manager(cfg, 1, 1);
        TestRequest running0 = new TestRequest(0);
        qm.offer(running0);
        qm.timeouts().set(new long[] {0, 1_000_000_000L});
        now.addAndGet(20_000_000_000L); // long past the transition
        TestRequest slow = new TestRequest(0);
        qm.offer(slow);
        TestRequest fast = new TestRequest(1);
        qm.offer(fast);
        now.addAndGet(1_100_000_000L);
        assertEquals(1, qm.expireOverdue());
        assertEquals(1, fast.expirations, "q's 1 s, behind p's 10 s in the shared queue");
        assertEquals(0, slow.expirations);
    }

    /**
     * Locality dispatch chooses only among servers with a free slot: under contention each class keeps its
     * WRR guarantee and no server goes over its cap, while, at low load, a type goes to its group's server.
     */
    @Test
    void locality_keepsCapsAndClassShares_andSendsATypeToItsServer() {
        SlagateConfig cfg = ConfigLoader.parse("""
                gateway: { loadBalancing: locality }
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 5 }
                  - { id: s2, url: "http://127.0.0.1:2", concurrency: 5 }
                classes:
                  - { name: p, target: 1s, queueBound: 100000, queueTimeout: 10s }
                  - { name: b, target: 1s, queueBound: 100000, queueTimeout: 10s }
                """, "test");
        QueueManager qm = manager(cfg, 6.5, 3.5);
        LocalityLearner learner = qm.pools().learner(0);
        int[] types = new int[2];
        for (int i = 0; i < 20; i++) {
            types[0] = learner.learn("/s a");
            learner.workingSet(types[0], "1,2,3");
            types[1] = learner.learn("/s b");
            learner.workingSet(types[1], "50,51");
        }
        qm.pools().remapLocality();
        int homeOfA = learner.map().ranking(types[0])[0];
        int homeOfB = learner.map().ranking(types[1])[0];
        assertTrue(homeOfA != homeOfB);
        for (int t = 0; t < 2; t++) { // one at a time: each goes to its type's server
            TestRequest r = new TestRequest(t);
            r.requestType(types[t]);
            assertNull(qm.offer(r));
            assertEquals(t == 0 ? homeOfA : homeOfB, r.server.index());
            running.remove(r);
            qm.release(r.server, r.classIndex());
        }
        Random rnd = new Random(7);
        for (int i = 0; i < 30; i++) { // both classes backlogged from the start, as WRR's guarantee assumes
            for (int c = 0; c < 2; c++) {
                TestRequest r = new TestRequest(c);
                r.requestType(types[rnd.nextInt(2)]);
                qm.offer(r);
            }
        }
        for (int d = 0; d < 20_000; d++) {
            for (int c = 0; c < 2; c++) {
                while (qm.counts().waiting(c) < 1 + rnd.nextInt(3)) {
                    TestRequest r = new TestRequest(c);
                    r.requestType(types[rnd.nextInt(2)]); // every type in every class
                    qm.offer(r);
                }
            }
            completeRandom(qm, rnd);
            // the first arrivals split the free slots 5:5 (work conservation); completions then restore 6.5:3.5
            if (d >= 100) {
                assertTrue(qm.counts().executing(0) >= 6 || qm.counts().waiting(0) == 0, "class p below its 6 guaranteed slots");
                assertTrue(qm.counts().executing(1) >= 3 || qm.counts().waiting(1) == 0, "class b below its 3 guaranteed slots");
            }
            assertEquals(10, qm.counts().executingTotal());
            assertTrue(qm.server(0).outstanding() <= 5 && qm.server(1).outstanding() <= 5, "a server over its cap");
        }
    }

    /** A flash crowd's protection: the surging class holds at most its share; the idle class's slots wait for it. */
    @Test
    void protection_capsTheSurgingClassAtItsShare_andTheOtherClassFindsASlotAtOnce() {
        QueueManager qm = manager(config("wrr", 10, "p", "b"), 6, 4);
        qm.protectAgainst(1, true);
        for (int i = 0; i < 30; i++) {
            assertNull(qm.offer(new TestRequest(1)));
        }
        assertEquals(4, qm.counts().executing(1), "b at its share, 4 of 10, though p is idle");
        assertEquals(26, qm.counts().waiting(1));
        TestRequest premium = new TestRequest(0);
        assertNull(qm.offer(premium));
        assertEquals(1, premium.admissions, "p's request is admitted at once, on a slot kept for it");
        // a completion of b's gives its slot back to b (still within its share), never above it
        TestRequest done = running.stream().filter(r -> r.classIndex() == 1).findFirst().orElseThrow();
        running.remove(done);
        qm.release(done.server, 1);
        assertEquals(4, qm.counts().executing(1));
        // the crowd is over: work conservation again, b takes what p leaves
        qm.protectAgainst(1, false);
        assertEquals(9, qm.counts().executing(1));
        assertEquals(10, qm.counts().executingTotal());
    }

    /** Pool a with s1, pool b with s2, which may serve a; a class for each. */
    private static final String TWO_POOLS = """
            servers:
              - { id: s1, url: "http://127.0.0.1:1", concurrency: 2, pool: a }
              - { id: s2, url: "http://127.0.0.1:2", concurrency: 2, pool: b, pools: [b, a] }
            classes:
              - { name: ca, target: 1s, pool: a, queueBound: 100000, queueTimeout: 10s }
              - { name: cb, target: 1s, pool: b, queueBound: 100000, queueTimeout: 10s }
            """;

    /** The pools: a movable server serves one pool at a time; moved, it takes the new pool's requests, never the old's. */
    @Test
    void aMovedServer_servesItsNewPoolOnly_andKeepsItsCapAcrossBoth() {
        SlagateConfig cfg = ConfigLoader.parse(TWO_POOLS, "test");
        QueueManager qm = manager(cfg, 1, 1);
        for (int i = 0; i < 4; i++) {
            qm.offer(new TestRequest(0));
        }
        assertEquals(2, qm.counts().executing(0), "pool a has s1's 2 slots only");
        assertTrue(running.stream().allMatch(r -> r.server.id().equals("s1")));
        qm.offer(new TestRequest(1));
        assertEquals(1, qm.counts().executing(1));
        assertEquals("s2", running.get(running.size() - 1).server.id());
        qm.pools().assignPools(Map.of("s2", "a", "s1", "b")); // s1 is not movable: ignored
        assertEquals("a", qm.pools().servingPool(1));
        assertEquals("a", qm.pools().servingPool(0));
        assertEquals(3, qm.counts().executing(0), "s2 takes a's waiting request at once, on its one free slot (cb's still runs there)");
        assertEquals(2, qm.server(1).outstanding(), "s2 holds its cap of 2 across both pools");
        assertTrue(!qm.pools().poolAvailable(1), "pool b has no server now: its requests fail fast");
        assertEquals(1, qm.counts().waiting(0), "of a's four, two on s1, one on s2, one waiting");
    }

    /** A server moved to a pool whose service it does not have is moved back by its own answers. */
    @Test
    void aMovedServerThatAnswersNoSuchService_goesBack_andIsReportedUntilTheManagerAsksForAnotherPool() {
        SlagateConfig cfg = ConfigLoader.parse(TWO_POOLS, "test");
        QueueManager qm = manager(cfg, 1, 1);
        qm.pools().assignPools(Map.of("s2", "a"));
        assertEquals("a", qm.pools().servingPool(1));
        qm.answered(1, 1, 404); // pool b's answer: not the new pool's, says nothing
        qm.answered(1, 0, 404);
        qm.answered(1, 0, 404);
        assertEquals("a", qm.pools().servingPool(1), "two refusals are not yet a verdict");
        assertNull(qm.pools().refusedPool(1));
        qm.answered(1, 0, 405);
        assertEquals("b", qm.pools().servingPool(1), "the third in a row moves it back");
        assertEquals("a", qm.pools().refusedPool(1), "and is reported");
        qm.answered(1, 0, 200); // a late answer from before the verdict changes nothing
        assertEquals("b", qm.pools().servingPool(1));
        qm.pools().assignPools(Map.of("s2", "a")); // the manager has not heard yet
        assertEquals("b", qm.pools().servingPool(1), "an allocation still naming the refused pool is not followed");
        assertEquals("a", qm.pools().refusedPool(1));
        qm.pools().assignPools(Map.of("s2", "b")); // it has reverted the move
        assertNull(qm.pools().refusedPool(1), "reported until the manager asks for another pool");

        QueueManager ok = manager(cfg, 1, 1);
        ok.pools().assignPools(Map.of("s2", "a"));
        ok.answered(1, 0, 404);
        ok.answered(1, 0, 500); // a SOAP fault: the service exists there
        for (int i = 0; i < 5; i++) {
            ok.answered(1, 0, 404);
        }
        assertEquals("a", ok.pools().servingPool(1), "once accepted, later 404s are the service's own answers");
        assertNull(ok.pools().refusedPool(1));
    }
}

