package io.slagate.gateway.auth;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Credentials verified lately, by digest: a warm request is one hash and one lookup, no bcrypt and no
 * signature check. Bounded (a full cache is emptied rather than grown: what it held is checked again), each
 * entry believed until its expiry (the TTL, or a token's own expiry if sooner), and emptied whenever the
 * credentials change, so that a revoked credential fails on the next request. Lock-free.
 */
final class CredentialCache {
    private record Entry(Authenticator.Result result, long expiresNanos) {
    }

    private final ConcurrentHashMap<CredentialKey, Entry> entries = new ConcurrentHashMap<>();
    private final int max;
    private final long ttlNanos;
    /** Moves on at every {@link #clear}: a check that began before a revocation cannot cache its verdict after it. */
    private final AtomicLong generation = new AtomicLong();

    CredentialCache(int max, long ttlNanos) {
        this.max = max;
        this.ttlNanos = ttlNanos;
    }

    /** What {@code key} proved (kept whole, so that a hit allocates nothing), or null when not cached or its time is up. */
    Authenticator.Result get(CredentialKey key, long now) {
        Entry e = entries.get(key);
        if (e == null) {
            return null;
        }
        if (now - e.expiresNanos >= 0) {
            entries.remove(key, e);
            return null;
        }
        return e.result;
    }

    /** Read before the credentials a check uses, and given back to {@link #put}. */
    long generation() {
        return generation.get();
    }

    /**
     * {@code key} proves {@code result} until the TTL, or until {@code notAfterNanos} when that is sooner; not kept
     * when the cache was cleared since {@code checkedAt} (the check read credentials that are no longer in force).
     */
    void put(CredentialKey key, Authenticator.Result result, long now, long notAfterNanos, long checkedAt) {
        if (entries.size() >= max) {
            entries.clear();
        }
        long expires = now + ttlNanos;
        Entry e = new Entry(result, notAfterNanos - expires < 0 ? notAfterNanos : expires);
        entries.put(key, e);
        if (generation.get() != checkedAt) {
            entries.remove(key, e);
        }
    }

    /** Forgets every credential: the next request of each is checked against the credentials in force. */
    void clear() {
        generation.incrementAndGet();
        entries.clear();
    }

    int size() {
        return entries.size();
    }
}
