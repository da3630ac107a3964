package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import org.junit.jupiter.api.Test;

/** The managers' election on a fake clock: one interval is 1,000 ns, a peer expires after 3. */
class ElectionTest {
    private static final long BEAT = 1_000;
    private static final long EXPIRY = 3 * BEAT;
    private static final long LISTEN = 3 * BEAT / 2;

    @Test
    void alone_activeOnlyOnceItHasListened() {
        Election e = new Election("rm-b", EXPIRY);
        e.listen(0, LISTEN);
        assertFalse(e.update(0));
        assertFalse(e.update(LISTEN - 1), "still listening");
        assertTrue(e.update(LISTEN), "nobody heard: active");
    }

    @Test
    void notOnTheBusYet_neverActive_theListeningCountsFromTheConnection() {
        Election e = new Election("rm-b", EXPIRY);
        e.awaitBus();
        assertFalse(e.update(0));
        assertFalse(e.update(100 * BEAT), "a manager that hears nobody because it is not connected is not alone");
        e.listen(100 * BEAT, LISTEN);
        assertFalse(e.update(100 * BEAT + LISTEN - 1));
        assertTrue(e.update(100 * BEAT + LISTEN));
    }

    @Test
    void startedBesideAnActiveOne_neverPreemptsIt_evenWithASmallerId() {
        Election e = new Election("rm-a", EXPIRY);
        e.listen(0, LISTEN);
        e.heard("rm-z", true, 900); // the active one beats once per interval
        assertFalse(e.update(LISTEN));
        for (long t = 1_900; t < 20_000; t += BEAT) {
            e.heard("rm-z", true, t);
            assertFalse(e.update(t + 500), "a live active manager is not preempted at " + t);
        }
    }

    @Test
    void standby_takesOverWhenTheActiveFallsSilent_afterTheExpiry() {
        Election e = new Election("rm-b", EXPIRY);
        e.listen(0, LISTEN);
        e.heard("rm-a", true, 1_000);
        assertFalse(e.update(LISTEN));
        // rm-a's last beat at 1,000; it is live until 4,000
        assertFalse(e.update(4_000));
        assertTrue(e.update(4_001), "silent for more than the expiry: the standby takes over");
    }

    @Test
    void standby_takesOverAtOnceWhenTheActiveLeaves() {
        Election e = new Election("rm-b", EXPIRY);
        e.listen(0, LISTEN);
        e.heard("rm-a", true, 1_000);
        assertFalse(e.update(LISTEN));
        e.left("rm-a");
        assertTrue(e.update(1_600));
    }

    @Test
    void noActivePeer_theSmallestLiveIdBecomesActive_theOthersWait() {
        Election b = new Election("rm-b", EXPIRY);
        Election c = new Election("rm-c", EXPIRY);
        b.listen(0, LISTEN);
        c.listen(0, LISTEN);
        b.heard("rm-c", false, 500);
        c.heard("rm-b", false, 500);
        assertTrue(b.update(LISTEN));
        assertFalse(c.update(LISTEN), "rm-b is live and smaller");
        c.heard("rm-b", true, 2_000);
        assertFalse(c.update(2_000));
        assertEquals("rm-b", c.deferringTo());
    }

    @Test
    void twoActives_theLargerIdStepsDown_theSmallerStays() {
        Election a = new Election("rm-a", EXPIRY);
        Election b = new Election("rm-b", EXPIRY);
        a.listen(0, LISTEN);
        b.listen(0, LISTEN);
        assertTrue(a.update(LISTEN)); // each alone while listening (a split bus)
        assertTrue(b.update(LISTEN));
        a.heard("rm-b", true, 2_000); // the bus heals
        b.heard("rm-a", true, 2_000);
        assertTrue(a.update(2_000), "the smaller id stays active");
        assertFalse(b.update(2_000), "the larger steps down");
    }

    @Test
    void expiredPeers_areForgotten_andAReturningOneIsHeardAgain() {
        Election b = new Election("rm-b", EXPIRY);
        b.listen(0, LISTEN);
        b.heard("rm-a", true, 1_000);
        assertTrue(b.update(10_000));
        assertEquals(null, b.deferringTo());
        b.heard("rm-a", false, 10_500); // back, and standing by: rm-b, active, stays so
        assertTrue(b.update(10_500));
    }

    /**
     * rm-a is live under account rm1. Account rm2 (another manager's) claims to be rm-a, active, to keep rm-b
     * standing by, and then sends rm-a's leave: neither is believed while rm-a is live; once rm-a has expired,
     * its id is free again.
     */
    @Test
    void anotherManagerAccount_cannotSpeakForALiveManager() {
        Election b = new Election("rm-b", EXPIRY);
        b.listen(0, LISTEN);
        assertTrue(b.heard("rm-a", "rm1", false, 500));
        assertFalse(b.update(LISTEN), "rm-a, smaller and live, takes the place");
        assertFalse(b.heard("rm-a", "rm2", true, 1_000), "rm2 is not rm-a's account");
        assertFalse(b.left("rm-a", "rm2"), "nor may it make rm-a leave");
        assertEquals("rm-a", b.deferringTo());
        assertEquals(null, b.activePeer(), "the forged 'active' was not taken");
        assertTrue(b.update(500 + EXPIRY + 1), "rm-a expired: rm-b takes over");
        assertTrue(b.heard("rm-a", "rm2", false, 500 + EXPIRY + 2), "an expired id is free");
    }
}
