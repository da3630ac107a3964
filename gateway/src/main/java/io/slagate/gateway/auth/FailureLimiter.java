package io.slagate.gateway.auth;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Failed authentication attempts, limited per client address and per claimed name (generic cell rate:
 * {@code burst} failures at once, then {@code rate} a second). Past the limit an attempt is refused without
 * being checked, so a wrong-password flood costs no bcrypt. A name is limited only for addresses that have
 * failed themselves: a client that has not failed is never refused for another's failures, so a flood
 * against a customer's name does not lock that customer out. Both maps are bounded; keys past the bound
 * share one overflow cell, so many addresses together are limited as one.
 */
final class FailureLimiter {
    static final int MAX_KEYS = 100_000;

    private final long intervalNanos;
    private final long toleranceNanos;
    private final ConcurrentHashMap<String, AtomicLong> addresses = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicLong> names = new ConcurrentHashMap<>();
    private final AtomicLong overflow = new AtomicLong(Long.MIN_VALUE);

    FailureLimiter(double ratePerSecond, int burst) {
        this.intervalNanos = Math.max(1, (long) (1e9 / ratePerSecond));
        this.toleranceNanos = intervalNanos * (burst - 1L);
    }

    /** Whether an attempt from {@code address} claiming {@code name} (null: none) may be checked now. */
    boolean allows(String address, String name, long now) {
        AtomicLong a = addresses.get(address);
        if (a == null) {
            return addresses.size() < MAX_KEYS || within(overflow, now);
        }
        if (!within(a, now)) {
            return false;
        }
        AtomicLong n = name == null ? null : names.get(name);
        return n == null || within(n, now);
    }

    /** An attempt from {@code address} claiming {@code name} failed. */
    void failed(String address, String name, long now) {
        charge(cell(addresses, address), now);
        if (name != null) {
            charge(cell(names, name), now);
        }
    }

    private AtomicLong cell(ConcurrentHashMap<String, AtomicLong> map, String key) {
        AtomicLong c = map.get(key);
        if (c != null) {
            return c;
        }
        return map.size() < MAX_KEYS ? map.computeIfAbsent(key, k -> new AtomicLong(Long.MIN_VALUE)) : overflow;
    }

    private boolean within(AtomicLong tat, long now) {
        long t = tat.get();
        return t == Long.MIN_VALUE || t - now <= toleranceNanos;
    }

    private void charge(AtomicLong tat, long now) {
        tat.updateAndGet(t -> (t == Long.MIN_VALUE || t - now < 0 ? now : t) + intervalNanos);
    }

    /** Drops the cells that have fully recovered (nothing to remember of them); run now and then off the request path. */
    void sweep(long now) {
        addresses.values().removeIf(t -> t.get() - now < 0);
        names.values().removeIf(t -> t.get() - now < 0);
    }

    int trackedAddresses() {
        return addresses.size();
    }

    int trackedNames() {
        return names.size();
    }
}
