package io.slagate.console;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Failed-login throttling per user name and per client address: after {@value #FREE_FAILURES}
 * failures in a row, each further attempt must wait 2^(n−5) s, at most 15 minutes; a success
 * clears the count. Bounded: at most {@value #MAX_KEYS} keys are tracked (the oldest go first), so
 * a flood of invented names cannot exhaust memory.
 */
public final class LoginThrottle {
    static final int FREE_FAILURES = 5;
    static final int MAX_KEYS = 10_000;
    private static final long MAX_WAIT_NANOS = 15L * 60 * 1_000_000_000L;

    private record Failures(int count, long lastNanos) {
    }

    private final Map<String, Failures> failures = new ConcurrentHashMap<>();
    private final LongSupplier clock;

    public LoginThrottle(LongSupplier clock) {
        this.clock = clock;
    }

    /** Seconds the key must still wait before it may try again; 0 if it may try now. */
    public long waitSeconds(String key) {
        Failures f = failures.get(key);
        if (f == null || f.count() < FREE_FAILURES) {
            return 0;
        }
        long wait = Math.min(MAX_WAIT_NANOS, (1L << Math.min(30, f.count() - FREE_FAILURES)) * 1_000_000_000L);
        long left = f.lastNanos() + wait - clock.getAsLong();
        return left <= 0 ? 0 : (left + 999_999_999L) / 1_000_000_000L;
    }

    public void failed(String key) {
        if (failures.size() >= MAX_KEYS && !failures.containsKey(key)) {
            failures.entrySet().stream().min((a, b) -> Long.compare(a.getValue().lastNanos(), b.getValue().lastNanos()))
                    .ifPresent(oldest -> failures.remove(oldest.getKey()));
        }
        failures.merge(key, new Failures(1, clock.getAsLong()), (a, b) -> new Failures(a.count() + 1, b.lastNanos()));
    }

    public void succeeded(String key) {
        failures.remove(key);
    }
}
