package io.slagate.gateway.auth;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Credentials verified lately, by {@link CredentialKey}: a warm request is one hash and one lookup, no bcrypt and
 * no signature check. Concurrent requests with one credential that is not cached share one check: the first
 * claims the credential's entry with its check's future, the others wait on it. Only verified credentials stay;
 * a refused one leaves as its check ends.
 *
 * <p>Bounded by Caffeine's W-TinyLFU: past the bound, the entries used least often go, and a new entry seen once
 * does not push out one used often, so a run of one-time credentials (valid ones of many customers, or one
 * customer's) cannot flush the warm customers. Each entry is believed until the TTL, or its token's expiry if
 * sooner, and a customer's entries are forgotten when its credentials change, so that a revoked credential fails on the
 * next request, while the other customers stay cached (a change does not send every customer to bcrypt at once).
 */
final class CredentialCache {
    /**
     * A check's verdict, until when it holds (a token's own expiry, or never: the TTL decides), and the key that signed
     * its token (null for a password).
     */
    record Verdict(Authenticator.Result result, long notAfterNanos, Object signer) {
        static Verdict of(Authenticator.Result result) {
            return new Verdict(result, Long.MAX_VALUE, null);
        }
    }

    private final AsyncCache<CredentialKey, Verdict> entries;
    /** Moves on at every {@link #clear}: a check that began before a revocation cannot keep its verdict after it. */
    private final AtomicLong generation = new AtomicLong();

    CredentialCache(int max, long ttlNanos, LongSupplier clock) {
        this.entries = Caffeine.newBuilder().maximumSize(max).ticker(clock::getAsLong).executor(Runnable::run)
                .expireAfter(new Expiry<CredentialKey, Verdict>() {
                    @Override
                    public long expireAfterCreate(CredentialKey key, Verdict v, long now) {
                        if (v.result().outcome() != Authenticator.Outcome.VERIFIED) {
                            return 0; // a refusal is never kept
                        }
                        long untilExpiry = v.notAfterNanos() - now; // a difference of clock readings: no overflow
                        return v.notAfterNanos() == Long.MAX_VALUE ? ttlNanos : Math.max(0, Math.min(ttlNanos, untilExpiry));
                    }

                    @Override
                    public long expireAfterUpdate(CredentialKey key, Verdict v, long now, long left) {
                        return expireAfterCreate(key, v, now);
                    }

                    @Override
                    public long expireAfterRead(CredentialKey key, Verdict v, long now, long left) {
                        return left;
                    }
                }).buildAsync();
    }

    /** What {@code key} proved, or null when it is not cached (or its check is still running: see {@link #claim}). */
    Authenticator.Result get(CredentialKey key) {
        CompletableFuture<Verdict> f = entries.getIfPresent(key);
        if (f == null || !f.isDone() || f.isCompletedExceptionally()) {
            return null;
        }
        Verdict v = f.join();
        return v == null ? null : v.result();
    }

    /** Read before the credentials a check uses, and given back to {@link #settle}. */
    long generation() {
        return generation.get();
    }

    /**
     * Claims {@code key}'s entry for a check that will complete {@code mine}: null when claimed, or the future of the
     * check already running for the same credential, to wait on instead.
     */
    CompletableFuture<Verdict> claim(CredentialKey key, CompletableFuture<Verdict> mine) {
        CompletableFuture<Verdict> running = entries.asMap().putIfAbsent(key, mine);
        if (running == null) {
            return null;
        }
        if (running.isDone()) { // finished since the lookup: a refusal on its way out, or an entry that just expired
            return entries.asMap().replace(key, running, mine) ? null : running;
        }
        return running;
    }

    /**
     * A claimed check ended: its entry stays when it verified and the credentials have not changed since
     * {@code checkedAt}; otherwise it goes.
     */
    void settle(CredentialKey key, CompletableFuture<Verdict> mine, long checkedAt) {
        Verdict v = mine.getNow(null);
        if (v == null || v.result().outcome() != Authenticator.Outcome.VERIFIED || generation.get() != checkedAt) {
            entries.asMap().remove(key, mine);
        }
    }

    /**
     * Forgets the passwords of {@code customers} (changed or revoked): their next request is checked against the
     * credentials in force; every other customer stays cached. A check under way is not kept, whoever's it is.
     */
    void forget(Set<String> customers) {
        generation.incrementAndGet();
        if (!customers.isEmpty()) {
            entries.asMap().values().removeIf(f -> {
                Verdict v = f.getNow(null);
                return v != null && v.signer() == null && customers.contains(v.result().customer());
            });
        }
    }


    /** Forgets the tokens signed by any of {@code signers} (keys withdrawn from the JWKS); a check under way is not kept. */
    void forgetSignedBy(Set<?> signers) {
        generation.incrementAndGet();
        entries.asMap().values().removeIf(f -> {
            Verdict v = f.getNow(null);
            return v != null && v.signer() != null && signers.contains(v.signer());
        });
    }

    int size() {
        entries.synchronous().cleanUp();
        return (int) entries.synchronous().estimatedSize();
    }
}
