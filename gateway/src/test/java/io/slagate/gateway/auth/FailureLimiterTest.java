package io.slagate.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import org.junit.jupiter.api.Test;

/** Failed attempts limited per address and per claimed name, on a fake clock. */
class FailureLimiterTest {
    private static final long S = 1_000_000_000L;

    @Test
    void anAddressPastItsBurst_isRefused_andRecoversAtTheRate() {
        FailureLimiter f = new FailureLimiter(1, 3);
        long now = 10 * S;
        for (int i = 0; i < 3; i++) {
            assertTrue(f.allows("10.0.0.1", "gold", now));
            f.failed("10.0.0.1", "gold", now);
        }
        assertFalse(f.allows("10.0.0.1", "gold", now), "the burst of 3 is spent");
        assertTrue(f.allows("10.0.0.1", "gold", now + S), "one more a second later");
    }

    @Test
    void aFloodAgainstAName_doesNotLockOutAClientThatNeverFailed() {
        FailureLimiter f = new FailureLimiter(1, 3);
        long now = 10 * S;
        for (int i = 0; i < 100; i++) {
            f.failed("attacker-" + (i % 10), "gold-customer", now); // ten addresses, one name
        }
        assertFalse(f.allows("attacker-1", "gold-customer", now));
        assertTrue(f.allows("customer-office", "gold-customer", now), "the real customer's address has not failed");
        f.failed("customer-office", "gold-customer", now); // a typo: from now on the name's limit applies to it too
        assertFalse(f.allows("customer-office", "gold-customer", now));
    }

    @Test
    void aHundredThousandInventedNames_andAddresses_stayBounded() {
        FailureLimiter f = new FailureLimiter(1, 3);
        long now = 10 * S;
        for (int i = 0; i < 100_000; i++) {
            f.failed("192.0.2." + (i % 200), "invented-" + i, now);
        }
        for (int i = 0; i < 100_000; i++) {
            f.failed("2001:db8::" + Integer.toHexString(i), "x", now);
        }
        assertTrue(f.trackedNames() <= FailureLimiter.MAX_KEYS, f.trackedNames() + " names");
        assertTrue(f.trackedAddresses() <= FailureLimiter.MAX_KEYS, f.trackedAddresses() + " addresses");
        assertFalse(f.allows("2001:db8::ffffff", null, now), "addresses past the bound share one cell, spent by the flood");
        f.sweep(now + 3600 * S);
        assertEquals(0, f.trackedNames() + f.trackedAddresses(), "recovered cells are forgotten");
    }
}
