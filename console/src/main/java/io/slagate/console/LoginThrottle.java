package io.slagate.console;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Throttles password guessing without letting a third party lock the operator out.
 *
 * <ul>
 *   <li>Per (account, client address): an attempt is counted <em>before</em> its password is checked,
 *       in one atomic step, so concurrent guesses cannot all slip through while the first ones are
 *       being checked: of any number sent at once, at most {@code freeFailures} are checked. After
 *       that each further attempt waits 2^(n − free) s, at most 15 minutes; a success clears the pair.
 *       The same account from another address is a different pair: guessing from one address never
 *       locks the operator out at another.</li>
 *   <li>Globally: at most {@link #CHECKS_PER_SECOND} password checks a second (burst {@link #CHECK_BURST})
 *       from pairs that have failed before, so a swarm of addresses cannot burn the CPU on hashing;
 *       beyond it an attempt is told to retry in a second — a delay, never a lockout. An attempt
 *       from a pair with no failure is never held by it.</li>
 *   <li>Bounded: at most {@value #MAX_KEYS} pairs are tracked (the oldest go first).</li>
 * </ul>
 */
public final class LoginThrottle {
    static final int DEFAULT_FREE_FAILURES = 5;
    static final int MAX_KEYS = 10_000;
    static final double CHECKS_PER_SECOND = 20;
    static final double CHECK_BURST = 40;
    private static final long MAX_WAIT_NANOS = 15L * 60 * 1_000_000_000L;

    /** {@code attempts} counted so far (the one being checked included); {@code lastNanos} the latest. */
    private record Attempts(int attempts, long lastNanos) {
    }

    private final Map<String, Attempts> pairs = new ConcurrentHashMap<>();
    private final LongSupplier clock;
    private final int freeFailures;
    private double tokens = CHECK_BURST;
    private long tokensAt;

    public LoginThrottle(LongSupplier clock) {
        this(clock, DEFAULT_FREE_FAILURES);
    }

    public LoginThrottle(LongSupplier clock, int freeFailures) {
        this.clock = clock;
        this.freeFailures = freeFailures;
        this.tokensAt = clock.getAsLong();
    }

    /**
     * Decides whether an attempt of {@code account} from {@code address} may check its password now,
     * and counts it if so. Returns 0 when it may, else the seconds to wait.
     */
    public long attempt(String account, String address) {
        String key = account + "\u0000" + address;
        long now = clock.getAsLong();
        long[] wait = {0};
        boolean failedBefore = pairs.containsKey(key);
        if (failedBefore && !takeGlobalToken(now)) {
            return 1;
        }
        if (!failedBefore && pairs.size() >= MAX_KEYS) {
            evictOldest();
        }
        pairs.compute(key, (k, a) -> {
            if (a == null) {
                return new Attempts(1, now);
            }
            long left = a.attempts() < freeFailures ? 0 : a.lastNanos() + waitNanos(a.attempts()) - now;
            if (left > 0) {
                wait[0] = (left + 999_999_999L) / 1_000_000_000L;
                return a; // refused: not counted, the wait does not grow by being asked
            }
            return new Attempts(a.attempts() + 1, now);
        });
        return wait[0];
    }

    private long waitNanos(int attempts) {
        return Math.min(MAX_WAIT_NANOS, (1L << Math.min(30, attempts - freeFailures)) * 1_000_000_000L);
    }

    private synchronized boolean takeGlobalToken(long now) {
        tokens = Math.min(CHECK_BURST, tokens + (now - tokensAt) / 1e9 * CHECKS_PER_SECOND);
        tokensAt = now;
        if (tokens < 1) {
            return false;
        }
        tokens -= 1;
        return true;
    }

    private void evictOldest() {
        pairs.entrySet().stream().min((a, b) -> Long.compare(a.getValue().lastNanos(), b.getValue().lastNanos()))
                .ifPresent(oldest -> pairs.remove(oldest.getKey()));
    }

    /** The password was right: the pair starts afresh. */
    public void succeeded(String account, String address) {
        pairs.remove(account + "\u0000" + address);
    }
}
