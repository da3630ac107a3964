package io.slagate.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Password hashing, sessions and login throttling, with an injected clock. */
class SecurityPartsTest {
    private long now = 1_000_000_000_000L;

    @Test
    void hashes_verify_andAreSalted() {
        String a = PasswordHasher.hash("s3cret".toCharArray());
        String b = PasswordHasher.hash("s3cret".toCharArray());
        assertTrue(PasswordHasher.verify("s3cret".toCharArray(), a));
        assertFalse(PasswordHasher.verify("s3cret!".toCharArray(), a));
        assertFalse(a.equals(b), "a random salt per hash");
        assertFalse(PasswordHasher.verify("x".toCharArray(), "garbage"));
    }

    @Test
    void sessions_expireWhenIdle() {
        Sessions s = new Sessions(60_000_000_000L, () -> now);
        Sessions.Session created = s.create("admin", Role.ADMIN);
        now += 59_000_000_000L;
        assertNotNull(s.get(created.token()), "within the timeout");
        now += 59_000_000_000L;
        assertNotNull(s.get(created.token()), "each use resets the idle time");
        now += 61_000_000_000L;
        assertNull(s.get(created.token()), "idle too long");
        assertNull(s.get("forged"));
    }

    @Test
    void throttle_fiveFreeAttempts_thenDoublingWaits_successClears() {
        LoginThrottle t = new LoginThrottle(() -> now, 5);
        for (int i = 0; i < 5; i++) {
            assertEquals(0, t.attempt("admin", "10.0.0.1"), "attempt " + i);
        }
        assertEquals(1, t.attempt("admin", "10.0.0.1"));
        now += 1_000_000_000L;
        assertEquals(0, t.attempt("admin", "10.0.0.1"), "after the wait, one more");
        assertEquals(2, t.attempt("admin", "10.0.0.1"), "doubles");
        for (int i = 0; i < 40; i++) {
            now += 16L * 60 * 1_000_000_000L;
            t.attempt("admin", "10.0.0.1");
        }
        assertEquals(15 * 60, t.attempt("admin", "10.0.0.1"), "capped at 15 minutes");
        t.succeeded("admin", "10.0.0.1");
        assertEquals(0, t.attempt("admin", "10.0.0.1"));
    }

    @Test
    void throttle_guessesFromOneAddress_neverLockTheAccountElsewhere() {
        LoginThrottle t = new LoginThrottle(() -> now, 5);
        for (int i = 0; i < 100; i++) {
            t.attempt("admin", "10.6.6.6");
        }
        assertTrue(t.attempt("admin", "10.6.6.6") > 0);
        assertEquals(0, t.attempt("admin", "127.0.0.2"), "the operator at another address may try at once");
    }

    /** Concurrent guesses: the decision and the count are one step, so no more than the free ones get through. */
    @Test
    void throttle_concurrentAttempts_atMostFreeOnesChecked() throws Exception {
        LoginThrottle t = new LoginThrottle(System::nanoTime, 5);
        AtomicInteger allowed = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Thread th = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                if (t.attempt("admin", "10.0.0.9") == 0) {
                    allowed.incrementAndGet();
                }
            });
            th.start();
            threads.add(th);
        }
        go.countDown();
        for (Thread th : threads) {
            th.join(10_000);
        }
        assertEquals(5, allowed.get());
    }

    @Test
    void throttle_globalRate_delaysRepeatFailersOnly() {
        LoginThrottle t = new LoginThrottle(() -> now, 1_000_000);
        int held = 0;
        for (int i = 0; i < 200; i++) {
            t.attempt("u" + i, "10.0.0.1"); // first attempts: never held by the global rate
        }
        for (int i = 0; i < 200; i++) {
            if (t.attempt("u" + i, "10.0.0.1") > 0) {
                held++;
            }
        }
        assertEquals(200 - (int) LoginThrottle.CHECK_BURST, held, "repeat failers beyond the burst wait");
        assertEquals(0, t.attempt("operator", "10.0.0.1"), "a fresh pair is never held");
        now += 1_000_000_000L;
        assertEquals(0, t.attempt("u0", "10.0.0.1"), "a second later the rate allows more");
    }

    @Test
    void throttle_isBounded() {
        LoginThrottle t = new LoginThrottle(() -> now++, 1);
        t.attempt("user-0", "a");
        assertTrue(t.attempt("user-0", "a") > 0);
        for (int i = 1; i < LoginThrottle.MAX_KEYS + 500; i++) {
            t.attempt("user-" + i, "a");
        }
        assertEquals(0, t.attempt("user-0", "a"), "the oldest pairs were dropped");
    }
}
