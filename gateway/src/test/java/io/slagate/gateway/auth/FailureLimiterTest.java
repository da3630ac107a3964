package io.slagate.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Failed attempts limited per client and per claimed name, reserved before the work, on a fake clock. */
class FailureLimiterTest {
    private static final long S = 1_000_000_000L;
    /** An arbitrary, large reading of the clock: differences of readings must not overflow. */
    private static final long T0 = Long.MAX_VALUE - 5 * S;

    @Test
    void aClientPastItsBurst_isRefused_andRecoversAtTheRate_whateverItKnockedMeanwhile() {
        FailureLimiter f = new FailureLimiter(1, 3);
        for (int i = 0; i < 3; i++) {
            assertEquals(FailureLimiter.CLIENT, f.reserve("10.0.0.1", null, T0));
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals(FailureLimiter.REFUSED, f.reserve("10.0.0.1", null, T0), "the burst of 3 is spent");
            assertTrue(!f.failedAtOnce("10.0.0.1", T0), "a malformed attempt past the burst charges nothing");
        }
        assertEquals(FailureLimiter.CLIENT, f.reserve("10.0.0.1", null, T0 + S),
                "a second later one more: a thousand refused attempts added no debt");
        assertEquals(FailureLimiter.REFUSED, f.reserve("10.0.0.1", null, T0 + S));
        assertEquals(FailureLimiter.CLIENT, f.reserve("10.0.0.2", null, T0), "another client owes nothing");
    }

    @Test
    void aSuccess_givesBackItsReservation() {
        FailureLimiter f = new FailureLimiter(1, 2);
        for (int i = 0; i < 10; i++) {
            int r = f.reserve("10.0.0.1", "acme", T0);
            assertEquals(i == 0 ? FailureLimiter.CLIENT_AND_NAME : FailureLimiter.CLIENT, r,
                    "attempt " + i + ": once the client proved the name, only the client's own limit applies to it");
            f.succeeded("10.0.0.1", "acme", r);
        }
        int r = f.reserve("10.0.0.3", "acme", T0);
        f.cancelled("10.0.0.3", "acme", r); // never checked: the pool was full
        assertEquals(FailureLimiter.CLIENT_AND_NAME, f.reserve("10.0.0.3", "acme", T0));
    }

    @Test
    void concurrentReservations_neverPassTheBurst() throws Exception {
        FailureLimiter f = new FailureLimiter(1, 10);
        AtomicInteger taken = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        Thread[] threads = new Thread[8];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 100; i++) {
                    if (f.reserve("10.0.0.1", "gold", T0) != FailureLimiter.REFUSED) {
                        taken.incrementAndGet();
                    }
                }
            });
            threads[t].start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(10, taken.get(), "800 concurrent attempts, a burst of 10 in flight");
    }

    @Test
    void aNameIsLimitedAcrossClients_butNotForAClientThatProvedIt() {
        FailureLimiter f = new FailureLimiter(1, 3);
        int r = f.reserve("customer-office", "gold-customer", T0 - S);
        f.succeeded("customer-office", "gold-customer", r); // the customer, yesterday
        int guesses = 0;
        for (int i = 0; i < 100; i++) {
            if (f.reserve("attacker-" + i, "gold-customer", T0) != FailureLimiter.REFUSED) {
                guesses++;
            }
        }
        assertEquals(3, guesses, "a hundred addresses buy the name's burst, no more");
        assertEquals(FailureLimiter.REFUSED, f.reserve("new-laptop", "gold-customer", T0), "a client that never proved the name waits");
        assertEquals(FailureLimiter.CLIENT, f.reserve("customer-office", "gold-customer", T0),
                "where the customer proved itself, the flood against its name does not lock it out");
    }

    @Test
    void aHundredThousandInventedNamesAndClients_stayBounded_andNobodyInheritsAnothersDebt() {
        FailureLimiter f = new FailureLimiter(1, 3);
        for (int i = 0; i < 150_000; i++) {
            f.reserve("2001:db8:" + Integer.toHexString(i) + "::/64", "invented-" + i, T0);
            f.reserve("2001:db8:" + Integer.toHexString(i) + "::/64", "invented-" + i, T0);
        }
        assertTrue(f.trackedNames() <= FailureLimiter.MAX_KEYS, f.trackedNames() + " names");
        assertTrue(f.trackedClients() <= FailureLimiter.MAX_KEYS, f.trackedClients() + " clients");
        assertEquals(FailureLimiter.CLIENT_AND_NAME, f.reserve("192.0.2.1", "acme", T0),
                "a new client past the bound starts with nothing owed: the table forgets, it never shares a cell");
        f.sweep(T0 + 3600 * S);
        assertEquals(0, f.trackedNames() + f.trackedClients(), "recovered cells are forgotten");
    }

    @Test
    void oneClientAlone_cannotSpendAName_whoseBudgetIsLarger() {
        FailureLimiter f = new FailureLimiter(1, 10, 10, 100); // the defaults
        for (int i = 0; i < 1000; i++) {
            f.reserve("attacker", "gold-customer", T0 + i * S / 100); // ten seconds of knocking, a hundred a second
        }
        assertEquals(FailureLimiter.CLIENT_AND_NAME, f.reserve("customer-new-laptop", "gold-customer", T0 + 10 * S),
                "the attacker's own limit kept it to 20 of the name's 200");
    }

    @Test
    void aClient_hasAtMostTwoChecksInFlight() {
        FailureLimiter f = new FailureLimiter(1, 10);
        assertTrue(f.startCheck("c") && f.startCheck("c"));
        assertTrue(!f.startCheck("c"), "a third waits for one of them");
        assertTrue(f.startCheck("other"), "another client's share is its own");
        f.endCheck("c");
        assertTrue(f.startCheck("c"));
    }
}
