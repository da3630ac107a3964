package io.slagate.gateway.auth;

import io.slagate.config.AuthenticationSettings;
import io.slagate.gateway.auth.Authenticator.Result;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * JWT bearer tokens: from the cache when verified lately, else checked against the JWKS on the checking pool, with a
 * failure reserved for the client first. A token signed by a key the JWKS withdraws is forgotten at that refresh.
 */
final class BearerCheck {
    /** Where the token starts: after {@code Bearer} and its one space. */
    private static final int TOKEN = 7;

    private final AuthenticationSettings.JwtSettings settings;
    private final FailureLimiter failures;
    private final CredentialCache cache;
    private final LongSupplier clock;
    private final JwksKeys jwks;
    private final JwtCheck jwt;

    BearerCheck(AuthenticationSettings.JwtSettings settings, FailureLimiter failures, CredentialCache cache, LongSupplier clock) {
        this.settings = settings;
        this.failures = failures;
        this.cache = cache;
        this.clock = clock;
        this.jwks = new JwksKeys(settings.jwks(), clock, settings.refresh());
        this.jwt = new JwtCheck(settings, System::currentTimeMillis);
        jwks.onRemoved(cache::forgetSignedBy);
    }

    /** The first fetch of the JWKS, waited for: a failure is logged, and tokens are refused until one succeeds. */
    void start() {
        jwks.refresh().join();
    }

    void schedule(ScheduledExecutorService timer) {
        long refresh = settings.refresh().toMillis();
        timer.scheduleWithFixedDelay(jwks::refresh, refresh, refresh, TimeUnit.MILLISECONDS);
    }

    /** {@code Bearer}, one space, then a compact JWS: three base64url parts. Anything else is refused unread. */
    static boolean wellFormed(String authorization) {
        if (authorization.length() <= TOKEN || authorization.charAt(6) != ' ') {
            return false;
        }
        int dots = 0;
        for (int i = TOKEN; i < authorization.length(); i++) {
            char c = authorization.charAt(i);
            if (c == '.') {
                dots++;
            } else if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                return false;
            }
        }
        return dots == 2;
    }

    /** The token's verdict from the cache, or its check, pending; {@link Result#THROTTLED} when its client's failures are spent. */
    Result check(String authorization, Supplier<String> client, long now) {
        CredentialKey key = CredentialKey.of('J', authorization, TOKEN);
        Result cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        String address = client.get(); // only on a miss
        int reserved = failures.reserve(address, null, now);
        if (reserved == FailureLimiter.REFUSED) {
            return Result.THROTTLED;
        }
        String token = authorization.substring(TOKEN);
        long generation = cache.generation();
        return Result.pending(SlowCheck.of(key, generation, address, later -> {
            JwtCheck.Verdict v = jwt.check(token, jwks);
            if (!v.unknownKey()) {
                return verdict(v, address, reserved);
            }
            // a key rotated in since the last fetch: one fetch (at most one a refresh period), then checked again
            jwks.refreshForUnknown().whenComplete((fetched, e) -> later.accept(
                    verdict(Boolean.TRUE.equals(fetched) ? jwt.check(token, jwks) : v, address, reserved)));
            return null;
        }, () -> failures.cancelled(address, null, reserved)));
    }

    private CredentialCache.Verdict verdict(JwtCheck.Verdict v, String address, int reserved) {
        if (v.customer() == null) {
            return CredentialCache.Verdict.of(Result.REFUSED); // the reserved failure stays charged
        }
        if (!jwks.holds(v.key())) {
            return CredentialCache.Verdict.of(Result.REFUSED); // its key was withdrawn while the check ran
        }
        failures.cancelled(address, null, reserved);
        long left = v.notAfterMillis() - System.currentTimeMillis();
        return new CredentialCache.Verdict(Result.verified(v.customer()), clock.getAsLong() + Math.max(0, left) * 1_000_000L, v.key());
    }

    long fetches() {
        return jwks.fetches();
    }
}
