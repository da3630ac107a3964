package io.slagate.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Verified credentials: bounded, expiring, one check for concurrent misses, and warm customers kept through a scan. */
class CredentialCacheTest {
    private static final long S = 1_000_000_000L;
    private final AtomicLong now = new AtomicLong(Long.MAX_VALUE - 1000 * S); // large: differences must not overflow

    private static final Authenticator.Result ACME = Authenticator.Result.verified("acme");

    private CredentialCache cache(int max, long ttl) {
        return new CredentialCache(max, ttl, now::get);
    }

    /** Runs a check of {@code key} to its verdict, as the authenticator does. */
    private static void verify(CredentialCache c, CredentialKey key, CredentialCache.Verdict v) {
        CompletableFuture<CredentialCache.Verdict> mine = new CompletableFuture<>();
        long gen = c.generation();
        assertNull(c.claim(key, mine));
        mine.complete(v);
        c.settle(key, mine, gen);
    }

    @Test
    void anEntry_holdsUntilItsTtl_orItsTokensExpiry() {
        CredentialCache c = cache(10, 100 * S);
        CredentialKey a = CredentialKey.of("a");
        verify(c, a, CredentialCache.Verdict.of(ACME));
        now.addAndGet(99 * S);
        assertEquals(ACME, c.get(a));
        now.addAndGet(S);
        assertNull(c.get(a), "the TTL");
        verify(c, a, new CredentialCache.Verdict(ACME, now.get() + 50 * S, null));
        now.addAndGet(50 * S);
        assertNull(c.get(a), "a token's own expiry when sooner");
    }

    @Test
    void aRefusal_isNeverKept_andAConcurrentCheckOfTheSameCredential_isJoined() {
        CredentialCache c = cache(10, 100 * S);
        CredentialKey a = CredentialKey.of("a");
        CompletableFuture<CredentialCache.Verdict> first = new CompletableFuture<>();
        assertNull(c.claim(a, first));
        CompletableFuture<CredentialCache.Verdict> second = new CompletableFuture<>();
        assertEquals(first, c.claim(a, second), "the same credential while its check runs: wait for that check");
        first.complete(CredentialCache.Verdict.of(Authenticator.Result.REFUSED));
        c.settle(a, first, c.generation());
        assertNull(c.get(a));
        assertNull(c.claim(a, second), "refused: the next attempt is checked again");
    }

    @Test
    void aCheckThatSpannedARevocation_isNotBelievedLater() {
        CredentialCache c = cache(10, 100 * S);
        CredentialKey a = CredentialKey.of("a");
        CompletableFuture<CredentialCache.Verdict> mine = new CompletableFuture<>();
        long before = c.generation();
        assertNull(c.claim(a, mine));
        c.forget(java.util.Set.of("someone-else")); // a revocation while the check ran (of whichever customer)
        mine.complete(CredentialCache.Verdict.of(ACME));
        c.settle(a, mine, before);
        assertNull(c.get(a));
    }

    @Test
    void aHundredThousandOneTimeCredentials_stayWithinTheBound_andLeaveTheWarmCustomers() {
        CredentialCache c = cache(1_000, 3600 * S);
        CredentialKey[] warm = new CredentialKey[100];
        for (int i = 0; i < warm.length; i++) {
            warm[i] = CredentialKey.of("warm-" + i);
            verify(c, warm[i], CredentialCache.Verdict.of(Authenticator.Result.verified("customer-" + i)));
        }
        int warmHits = 0;
        for (int i = 0; i < 100_000; i++) {
            verify(c, CredentialKey.of("one-time-" + i), CredentialCache.Verdict.of(ACME));
            CredentialKey w = warm[i % warm.length];
            warmHits += c.get(w) != null ? 1 : 0;
        }
        assertTrue(c.size() <= 1_000, c.size() + " entries");
        int kept = 0;
        for (CredentialKey w : warm) {
            kept += c.get(w) != null ? 1 : 0;
        }
        assertEquals(100, kept, "each warm customer, used all along, is still cached");
        assertTrue(warmHits > 99_000, warmHits + " of 100,000 warm lookups hit");
        assertNotNull(c.get(warm[0]));
    }

    @Test
    void aChangeOfOneCustomer_forgetsItsEntries_andKeepsTheOthersCached() {
        CredentialCache c = cache(10, 100 * S);
        verify(c, CredentialKey.of("acme-1"), CredentialCache.Verdict.of(ACME));
        verify(c, CredentialKey.of("beta-1"), CredentialCache.Verdict.of(Authenticator.Result.verified("beta")));
        verify(c, CredentialKey.of("token"), new CredentialCache.Verdict(ACME, Long.MAX_VALUE, "a signing key"));
        c.forget(java.util.Set.of("acme"));
        assertNull(c.get(CredentialKey.of("acme-1")), "acme's password changed: checked again");
        assertEquals("beta", c.get(CredentialKey.of("beta-1")).customer(), "the others stay: no rush to bcrypt after a change");
        assertEquals(ACME, c.get(CredentialKey.of("token")), "a token is not a password: its key decides");
        c.forgetSignedBy(java.util.Set.of("a signing key"));
        assertNull(c.get(CredentialKey.of("token")));
    }
}
