package io.slagate.gateway.auth;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.slagate.config.AtomicFiles;
import io.slagate.config.AuthenticationSettings;
import io.slagate.config.ConfigCheck;
import io.slagate.config.SlagateConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Proves the customer of a request before anything keys on it: a TLS client certificate, HTTP Basic against
 * an htpasswd file, a JWT bearer token or an API key, whichever of the configured mechanisms the request
 * carries. A credential verified lately is found in the cache by its digest (a warm request costs a hash and
 * a lookup); a bcrypt or signature check runs on a small bounded pool, never an event loop, and its answer
 * comes back through the caller's callback. Failed attempts are limited per client address and per claimed
 * name, so a flood of wrong passwords is refused unchecked.
 */
public final class Authenticator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);
    /** Credentials longer than this are refused unread. */
    static final int MAX_CREDENTIAL = 8192;
    private static final String CERT_CUSTOMER = Authenticator.class.getName() + ".certificate";

    public enum Outcome {
        /** The customer is proven. */
        VERIFIED,
        /** No credentials, and they are optional. */
        ANONYMOUS,
        /** Credentials missing (and required) or wrong: 401. */
        REFUSED,
        /** Too many failures from this address (or for this name from it): refused unchecked. */
        THROTTLED,
        /** The checking pool is full: the gateway's own overload, not the client's fault. */
        BUSY
    }

    /**
     * What a request proved: its outcome, and its customer when {@link Outcome#VERIFIED}; or, with no outcome yet, the
     * slow check that will decide it ({@link #pending}), to be run by {@link #await}.
     */
    public record Result(Outcome outcome, String customer, SlowCheck slow) {
        static final Result ANONYMOUS = new Result(Outcome.ANONYMOUS, null, null);
        static final Result REFUSED = new Result(Outcome.REFUSED, null, null);
        static final Result THROTTLED = new Result(Outcome.THROTTLED, null, null);
        static final Result BUSY = new Result(Outcome.BUSY, null, null);

        static Result verified(String customer) {
            return new Result(Outcome.VERIFIED, customer, null);
        }

        /** Whether a slow check must run first: hand it to {@link #await}. */
        public boolean pending() {
            return slow != null;
        }
    }

    /** A check run on the checking pool: its result, or null when it hands one to {@code done} later itself. */
    interface SlowCheck {
        Result run(Consumer<Result> done);
    }

    private final AuthenticationSettings settings;
    private final LongSupplier clock;
    private final CredentialCache cache;
    private final FailureLimiter failures;
    private final ThreadPoolExecutor checks;
    private final Credentials credentials;
    private final JwksKeys jwks;
    private final JwtCheck jwt;
    private final Counter[] outcomes = new Counter[Outcome.values().length];
    private final Counter slowChecks;

    /**
     * The gateway's authenticator, or null when no mechanism is configured; then, if the classification or the quotas
     * name customers, a warning that those names are claimed, not proven.
     */
    public static Authenticator of(SlagateConfig config, MeterRegistry registry, LongSupplier nanoClock) {
        AuthenticationSettings a = config.gateway().authentication();
        if (a.on()) {
            return new Authenticator(a, registry, config.gateway().id(), nanoClock);
        }
        if (ConfigCheck.namesCustomers(config)) {
            LOG.warn("customer names are claimed, not proven: the classification or quotas name customers, and without "
                    + "gateway.authentication any client can send any name (docs/GATEWAY.md, Authentication)");
        }
        return null;
    }

    public Authenticator(AuthenticationSettings settings, MeterRegistry registry, String gatewayId, LongSupplier nanoClock) {
        this.settings = settings;
        this.clock = nanoClock;
        this.cache = new CredentialCache(settings.cacheEntries(), settings.cacheTtl().toNanos());
        this.failures = new FailureLimiter(settings.failureRate(), settings.failureBurst());
        AtomicInteger n = new AtomicInteger();
        this.checks = new ThreadPoolExecutor(settings.workers(), settings.workers(), 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(256), r -> {
                    Thread t = new Thread(r, "slagate-" + gatewayId + "-auth-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        this.credentials = new Credentials(settings.htpasswd() == null ? null : Path.of(settings.htpasswd()),
                settings.apiKeys() == null ? null : Path.of(settings.apiKeys()));
        this.jwks = settings.jwt() == null ? null : new JwksKeys(settings.jwt().jwks(), nanoClock, settings.jwt().refresh());
        this.jwt = settings.jwt() == null ? null : new JwtCheck(settings.jwt(), System::currentTimeMillis);
        for (Outcome o : Outcome.values()) {
            outcomes[o.ordinal()] = Counter.builder("slagate.authentication").tag("gateway", gatewayId)
                    .tag("outcome", o.name().toLowerCase()).description("Requests by what their credentials proved")
                    .register(registry);
        }
        slowChecks = Counter.builder("slagate.authentication.checks").tag("gateway", gatewayId)
                .description("bcrypt and signature checks run (a cached credential needs none)").register(registry);
        Gauge.builder("slagate.authentication.cached", cache, CredentialCache::size).tag("gateway", gatewayId)
                .description("Verified credentials cached").register(registry);
        if (jwks != null) {
            FunctionCounter.builder("slagate.authentication.jwks.fetches", jwks, JwksKeys::fetches).tag("gateway", gatewayId)
                    .description("Fetches of the JWKS").register(registry);
        }
        credentials.reload(true);
        if (jwks != null) {
            jwks.refresh().join(); // a failure is logged; tokens are refused until a fetch succeeds
        }
    }

    /** Watches the credential files, sweeps the failure counts and refreshes the JWKS, on {@code timer}. */
    public void start(ScheduledExecutorService timer) {
        timer.scheduleWithFixedDelay(() -> {
            if (credentials.reload(false)) {
                cache.clear();
            }
            failures.sweep(clock.getAsLong());
        }, 1, 1, TimeUnit.SECONDS);
        if (jwks != null) {
            long refresh = settings.jwt().refresh().toMillis();
            timer.scheduleWithFixedDelay(jwks::refresh, refresh, refresh, TimeUnit.MILLISECONDS);
        }
    }

    /** The digest of an API key as the API key file holds it (lower-case hex SHA-256), for tools that write the file. */
    public static String apiKeyDigest(String key) {
        return CredentialKey.hex(key);
    }

    /** Reads the credential files again and forgets every cached credential: a revocation holds from the next request. */
    public void reload() {
        credentials.reload(true);
        cache.clear();
    }

    /**
     * Puts a console's change in force: each configured file whose given text differs is replaced (all at once,
     * owner-only) and everything is read again. A null text, or a mechanism this gateway does not use, is left alone.
     *
     * @return whether a file changed
     */
    public boolean replaceFiles(String htpasswd, String apiKeys) throws IOException {
        boolean changed = replace(settings.htpasswd(), htpasswd) | replace(settings.apiKeys(), apiKeys);
        if (changed) {
            reload();
        }
        return changed;
    }

    private static boolean replace(String file, String text) throws IOException {
        if (file == null || text == null) {
            return false;
        }
        Path path = Path.of(file);
        if (Files.isReadable(path) && Files.readString(path, StandardCharsets.UTF_8).equals(text)) {
            return false;
        }
        AtomicFiles.write(path, text, true);
        return true;
    }

    /**
     * What {@code request} proves, on the request path: a cached credential, an API key or a certificate at once,
     * without allocating for a cached one; a credential that needs bcrypt or a signature check comes back
     * {@link Result#pending}, for {@link #await}.
     */
    public Result check(Request request) {
        Result r = decide(request);
        if (!r.pending()) {
            counted(r);
        }
        return r;
    }

    /**
     * Runs a pending result's check on the checking pool; {@code later} gets the outcome (on a checking thread).
     * Null when the check was taken, or {@link Outcome#BUSY} at once when the pool is full.
     */
    public Result await(Result pending, Consumer<Result> later) {
        Consumer<Result> done = r -> {
            counted(r);
            later.accept(r);
        };
        try {
            checks.execute(() -> {
                slowChecks.increment();
                Result r;
                try {
                    r = pending.slow().run(done);
                } catch (RuntimeException e) {
                    LOG.warn("a credential check failed: {}", e.toString());
                    r = Result.REFUSED;
                }
                if (r != null) {
                    done.accept(r);
                }
            });
            return null;
        } catch (RejectedExecutionException full) {
            counted(Result.BUSY);
            return Result.BUSY;
        }
    }

    private Result decide(Request request) {
        if (settings.clientCertificate() != null) {
            Result r = certificate(request);
            if (r != null) {
                return r;
            }
        }
        HttpFields headers = request.getHeaders();
        String authorization = headers.get(HttpHeader.AUTHORIZATION);
        if (authorization != null) {
            boolean basic = credentials.basic() != null && authorization.regionMatches(true, 0, "Basic ", 0, 6);
            if (basic || jwt != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
                return authorization(authorization, basic, request);
            }
        }
        if (credentials.apiKeys() != null) {
            String key = headers.get(settings.apiKeyHeader());
            if (key != null) {
                return apiKey(key, request);
            }
        }
        return settings.mode() == AuthenticationSettings.Mode.REQUIRED ? Result.REFUSED : Result.ANONYMOUS;
    }

    /** The customer of the connection's client certificate (read once per connection), or null: none was presented. */
    private Result certificate(Request request) {
        Object known = request.getConnectionMetaData().getAttribute(CERT_CUSTOMER);
        if (known instanceof String customer) {
            return customer.isEmpty() ? Result.REFUSED : Result.verified(customer);
        }
        if (!(request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE) instanceof EndPoint.SslSessionData ssl)) {
            return null;
        }
        X509Certificate[] chain = ssl.peerCertificates();
        if (chain == null || chain.length == 0) {
            return null;
        }
        String customer = ClientCertificates.customer(chain[0], settings.clientCertificate());
        request.getConnectionMetaData().setAttribute(CERT_CUSTOMER, customer == null ? "" : customer);
        return customer == null ? Result.REFUSED : Result.verified(customer);
    }

    /** An Authorization header (Basic or Bearer): from the cache when verified lately, else checked. */
    private Result authorization(String authorization, boolean basic, Request request) {
        if (authorization.length() > MAX_CREDENTIAL) {
            return refused(Request.getRemoteAddr(request), null);
        }
        long now = clock.getAsLong();
        CredentialKey key = CredentialKey.of(authorization);
        Result cached = cache.get(key, now);
        if (cached != null) {
            return cached;
        }
        String address = Request.getRemoteAddr(request); // only on a miss: a string made per call
        return basic ? basic(authorization, key, now, address) : bearer(authorization, key, now, address);
    }

    private Result basic(String authorization, CredentialKey key, long now, String address) {
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return refused(address, null);
        }
        int colon = decoded.indexOf(':');
        if (colon <= 0) {
            return refused(address, null);
        }
        String user = decoded.substring(0, colon);
        String password = decoded.substring(colon + 1);
        if (!failures.allows(address, user, now)) {
            return Result.THROTTLED;
        }
        long generation = cache.generation();
        Credentials.Basic basic = credentials.basic();
        return new Result(null, null, done -> {
            if (Bcrypt.verify(password, basic.hashes().get(user), basic.dummy())) {
                Result verified = Result.verified(user);
                cache.put(key, verified, clock.getAsLong(), Long.MAX_VALUE, generation);
                return verified;
            }
            failures.failed(address, user, clock.getAsLong());
            return Result.REFUSED;
        });
    }

    private Result bearer(String authorization, CredentialKey key, long now, String address) {
        if (!failures.allows(address, null, now)) {
            return Result.THROTTLED;
        }
        String token = authorization.substring(7).trim();
        long generation = cache.generation();
        return new Result(null, null, done -> {
            JwtCheck.Verdict v = jwt.check(token, jwks);
            if (!v.unknownKey()) {
                return bearerVerdict(v, key, address, generation);
            }
            // a key rotated in since the last fetch: one fetch (at most one a refresh period), then checked again
            jwks.refreshForUnknown().whenComplete((fetched, e) -> done.accept(
                    bearerVerdict(Boolean.TRUE.equals(fetched) ? jwt.check(token, jwks) : v, key, address, generation)));
            return null;
        });
    }

    private Result bearerVerdict(JwtCheck.Verdict v, CredentialKey key, String address, long generation) {
        long now = clock.getAsLong();
        if (v.customer() == null) {
            failures.failed(address, null, now);
            return Result.REFUSED;
        }
        long left = v.notAfterMillis() - System.currentTimeMillis();
        Result verified = Result.verified(v.customer());
        cache.put(key, verified, now, now + Math.max(0, left) * 1_000_000L, generation);
        return verified;
    }

    private Result apiKey(String key, Request request) {
        String customer = key.length() > MAX_CREDENTIAL ? null : credentials.apiKeys().get(CredentialKey.hex(key));
        if (customer != null) {
            return Result.verified(customer);
        }
        String address = Request.getRemoteAddr(request);
        return failures.allows(address, null, clock.getAsLong()) ? refused(address, null) : Result.THROTTLED;
    }

    private Result refused(String address, String name) {
        failures.failed(address, name, clock.getAsLong());
        return Result.REFUSED;
    }

    private void counted(Result r) {
        outcomes[r.outcome().ordinal()].increment();
    }

    /** Requests counted with {@code outcome}. */
    public long count(Outcome outcome) {
        return (long) outcomes[outcome.ordinal()].count();
    }

    /** The WWW-Authenticate challenges of a 401, one per mechanism a client can answer in a header. */
    public List<String> challenges() {
        List<String> c = new ArrayList<>();
        if (settings.htpasswd() != null) {
            c.add("Basic realm=\"" + settings.realm() + "\", charset=\"UTF-8\"");
        }
        if (settings.jwt() != null) {
            c.add("Bearer realm=\"" + settings.realm() + "\"");
        }
        if (c.isEmpty()) {
            c.add("ApiKey realm=\"" + settings.realm() + "\"");
        }
        return c;
    }

    int cachedCredentials() {
        return cache.size();
    }

    FailureLimiter failures() {
        return failures;
    }

    long jwksFetches() {
        return jwks == null ? 0 : jwks.fetches();
    }

    @Override
    public void close() {
        checks.shutdownNow();
    }
}
