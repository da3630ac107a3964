package io.slagate.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    void throttle_afterFiveFailures_waitsDoubling_andSuccessClears() {
        LoginThrottle t = new LoginThrottle(() -> now);
        for (int i = 0; i < LoginThrottle.FREE_FAILURES; i++) {
            assertEquals(0, t.waitSeconds("u"));
            t.failed("u");
        }
        assertEquals(1, t.waitSeconds("u"));
        now += 1_000_000_000L;
        assertEquals(0, t.waitSeconds("u"));
        t.failed("u");
        assertEquals(2, t.waitSeconds("u"), "doubles");
        for (int i = 0; i < 40; i++) {
            t.failed("u");
        }
        assertEquals(15 * 60, t.waitSeconds("u"), "capped at 15 minutes");
        t.succeeded("u");
        assertEquals(0, t.waitSeconds("u"));
    }

    @Test
    void throttle_isBounded() {
        LoginThrottle t = new LoginThrottle(() -> now++);
        for (int i = 0; i < LoginThrottle.MAX_KEYS + 500; i++) {
            t.failed("user-" + i);
        }
        assertEquals(0, t.waitSeconds("user-0"), "the oldest keys were dropped");
    }
}
