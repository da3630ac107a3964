package io.slagate.gateway.auth;

import io.slagate.gateway.auth.Authenticator.Result;
import java.util.function.LongSupplier;

/**
 * A name and password checked against the htpasswd file (from HTTP Basic or a WS-Security UsernameToken), under
 * both limits: the failures it might add, reserved before the check ({@link FailureLimiter}), and the successful
 * checks its customer has had lately ({@code successes}), so that neither guesses nor one valid credential buy
 * bcrypt without bound.
 */
final class PasswordCheck {
    private final Credentials credentials;
    private final FailureLimiter failures;
    private final CellRates successes;
    private final CredentialCache cache;
    private final LongSupplier clock;

    PasswordCheck(Credentials credentials, FailureLimiter failures, CellRates successes, CredentialCache cache, LongSupplier clock) {
        this.credentials = credentials;
        this.failures = failures;
        this.successes = successes;
        this.cache = cache;
        this.clock = clock;
    }

    /**
     * The check of {@code user}'s {@code password} from {@code client}, cached under {@code key}: pending (for
     * {@link Authenticator#await}), or {@link Result#THROTTLED} at once when a limit is spent.
     */
    Result check(String client, String user, String password, CredentialKey key, long now) {
        if (!successes.allows(user, now)) {
            return Result.THROTTLED; // the customer's own successful checks used up its budget: its cache entry comes back soon
        }
        int reserved = failures.reserve(client, user, now);
        if (reserved == FailureLimiter.REFUSED) {
            return Result.THROTTLED;
        }
        long generation = cache.generation();
        Credentials.Basic basic = credentials.basic();
        return Result.pending(SlowCheck.of(key, generation, client, later -> {
            if (Bcrypt.verify(password, basic.hashes().get(user), basic.fileCost())) {
                failures.succeeded(client, user, reserved);
                successes.take(user, clock.getAsLong());
                return CredentialCache.Verdict.of(Result.verified(user));
            }
            return CredentialCache.Verdict.of(Result.REFUSED); // the reserved failure stays charged
        }, () -> failures.cancelled(client, user, reserved)));
    }
}
