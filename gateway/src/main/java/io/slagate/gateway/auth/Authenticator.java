package io.slagate.gateway.auth;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.slagate.config.AuthenticationSettings;
import io.slagate.config.ConfigCheck;
import io.slagate.config.SlagateConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Proves the customer of a request before anything keys on it: a TLS client certificate, HTTP Basic against
 * an htpasswd file, a JWT bearer token, an API key or a WS-Security UsernameToken, whichever of the configured
 * mechanisms the request carries. A credential verified lately is found in the cache by its canonical form (a
 * warm request costs a hash and a lookup); a bcrypt or signature check runs on a small bounded pool, never an
 * event loop, and its answer comes back through the caller's callback. Failed attempts are limited per client and
 * per claimed name, reserved before any work; successful password checks per customer.
 */
public final class Authenticator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);
    /** Credentials longer than this are refused unread. */
    static final int MAX_CREDENTIAL = 8192;
    /** Checks that may wait for a worker; beyond, {@link Outcome#BUSY}. */
    static final int QUEUE = 256;

    public enum Outcome {
        /** The customer is proven. */
        VERIFIED,
        /** No credentials, and they are optional. */
        ANONYMOUS,
        /** Credentials missing (and required), malformed or wrong: 401. */
        REFUSED,
        /** Too many failures from this client (or for this name), or too many checks for this customer: refused unchecked. */
        THROTTLED,
        /** The checking pool is full: the gateway's own overload, not the client's fault. */
        BUSY
    }

    /**
     * What a request proved: its outcome, and its customer when {@link Outcome#VERIFIED}; or, with no outcome yet, the
     * slow check that will decide it ({@link #pending}), to be run by {@link #await}; or {@link #IN_BODY}: the only
     * credential it may carry is in its SOAP header.
     */
    public record Result(Outcome outcome, String customer, SlowCheck slow) {
        static final Result ANONYMOUS = new Result(Outcome.ANONYMOUS, null, null);
        static final Result REFUSED = new Result(Outcome.REFUSED, null, null);
        static final Result THROTTLED = new Result(Outcome.THROTTLED, null, null);
        static final Result BUSY = new Result(Outcome.BUSY, null, null);
        /** Read the body's SOAP header, then ask {@link Authenticator#checkToken}. */
        public static final Result IN_BODY = new Result(null, null, null);

        static Result verified(String customer) {
            return new Result(Outcome.VERIFIED, customer, null);
        }

        static Result pending(SlowCheck slow) {
            return new Result(null, null, slow);
        }

        /** Whether a slow check must run first: hand it to {@link #await}. */
        public boolean pending() {
            return slow != null;
        }

        /** Whether the credential is to be looked for in the body. */
        public boolean inBody() {
            return this == IN_BODY;
        }
    }

    private final AuthenticationSettings settings;
    private final LongSupplier clock;
    private final CredentialCache cache;
    private final FailureLimiter failures;
    /** Successful password checks per customer. */
    private final CellRates successes;
    private final ClientAddress clients;
    private final ThreadPoolExecutor checks;
    private final Credentials credentials;
    private final PasswordCheck passwords;
    private final BearerCheck bearer;
    private final CertificateCheck certificates;
    private final Counter[] outcomes = new Counter[Outcome.values().length];
    private final Counter slowChecks;

    /**
     * The gateway's authenticator, or null when no mechanism is configured; then, if the classification or the quotas
     * name customers, a warning that those names are claimed, not proven.
     */
    public static Authenticator of(SlagateConfig config, MeterRegistry registry, LongSupplier nanoClock) {
        AuthenticationSettings a = config.gateway().authentication();
        if (a.on()) {
            return new Authenticator(a, new ClientAddress(config.gateway().clients().trustedProxies()),
                    CertificateCheck.trustStore(config.gateway().tls()), registry, config.gateway().id(), nanoClock);
        }
        if (ConfigCheck.namesCustomers(config)) {
            LOG.warn("customer names are claimed, not proven: the classification or quotas name customers, and without "
                    + "gateway.authentication any client can send any name (docs/GATEWAY.md, Authentication)");
        }
        return null;
    }

    Authenticator(AuthenticationSettings settings, ClientAddress clients, List<java.security.cert.X509Certificate> trusted,
                  MeterRegistry registry, String gatewayId, LongSupplier nanoClock) {
        this.settings = settings;
        this.clock = nanoClock;
        this.clients = clients;
        this.cache = new CredentialCache(settings.cacheEntries(), settings.cacheTtl().toNanos(), nanoClock);
        this.failures = new FailureLimiter(settings.failures().rate(), settings.failures().burst(), settings.nameFailures().rate(),
                settings.nameFailures().burst());
        AtomicInteger n = new AtomicInteger();
        this.checks = new ThreadPoolExecutor(settings.workers(), settings.workers(), 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE), r -> {
                    Thread t = new Thread(r, "slagate-" + gatewayId + "-auth-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        this.credentials = new Credentials(settings.htpasswd() == null ? null : Path.of(settings.htpasswd()),
                settings.apiKeys() == null ? null : Path.of(settings.apiKeys()));
        this.successes = new CellRates(settings.successes().rate(), settings.successes().burst(), FailureLimiter.MAX_KEYS);
        this.passwords = new PasswordCheck(credentials, failures, successes, cache, nanoClock);
        this.bearer = settings.jwt() == null ? null : new BearerCheck(settings.jwt(), failures, cache, nanoClock);
        this.certificates = settings.clientCertificate() == null ? null
                : new CertificateCheck(settings.clientCertificate(), settings.revocation(), trusted);
        for (Outcome o : Outcome.values()) {
            outcomes[o.ordinal()] = Counter.builder("slagate.authentication").tag("gateway", gatewayId)
                    .tag("outcome", o.name().toLowerCase()).description("Requests by what their credentials proved")
                    .register(registry);
        }
        slowChecks = Counter.builder("slagate.authentication.checks").tag("gateway", gatewayId)
                .description("bcrypt and signature checks run (a cached credential needs none)").register(registry);
        Gauge.builder("slagate.authentication.cached", cache, CredentialCache::size).tag("gateway", gatewayId)
                .description("Verified credentials cached").register(registry);
        if (bearer != null) {
            FunctionCounter.builder("slagate.authentication.jwks.fetches", bearer, BearerCheck::fetches).tag("gateway", gatewayId)
                    .description("Fetches of the JWKS").register(registry);
        }
        credentials.reload(true);
        if (bearer != null) {
            bearer.start(); // a failure is logged; tokens are refused until a fetch succeeds
        }
    }

    /** Watches the credential files, sweeps the failure counts and refreshes the JWKS, on {@code timer}. */
    public void start(ScheduledExecutorService timer) {
        timer.scheduleWithFixedDelay(() -> {
            try {
                Credentials.Change c = credentials.reload(false);
                if (c.any()) {
                    cache.forget(c.names());
                }
                if (certificates != null) {
                    certificates.reload();
                }
                failures.sweep(clock.getAsLong());
                successes.sweep(clock.getAsLong());
            } catch (RuntimeException e) { // the watch must outlive one bad reading: a thrown task is never run again
                LOG.warn("the credential watch failed once ({}); it goes on", e.toString());
            }
        }, 1, 1, TimeUnit.SECONDS);
        if (bearer != null) {
            bearer.schedule(timer);
        }
    }

    /** The digest of an API key as the API key file holds it (lower-case hex SHA-256), for tools that write the file. */
    public static String apiKeyDigest(String key) {
        return CredentialKey.hex(key);
    }

    /**
     * The bcrypt cost a tool should write a new entry of an htpasswd file holding {@code hashes} at: the file's dearest
     * entry's, and never below the library's default; one cost for a whole file keeps every check as long as any other.
     */
    public static int bcryptCost(Collection<String> hashes) {
        return Math.max(Bcrypt.DEFAULT_COST, Bcrypt.fileCost(hashes.stream().filter(h -> Bcrypt.problem("", h) == null).toList()));
    }

    /**
     * Reads the credential files again and forgets the cached credentials of every customer whose entry changed or went:
     * a revocation holds from the next request.
     */
    public void reload() {
        cache.forget(credentials.reload(true).names());
    }

    /**
     * Puts a console's change in force: each configured file whose given text differs is replaced (all at once,
     * owner-only) and everything is read again. A null text, or a mechanism this gateway does not use, is left alone.
     *
     * @return whether a file changed
     */
    public boolean replaceFiles(String htpasswd, String apiKeys) throws IOException {
        boolean changed = CredentialFiles.replace(settings.htpasswd(), htpasswd) | CredentialFiles.replace(settings.apiKeys(), apiKeys);
        if (changed) {
            reload();
        }
        return changed;
    }

    /**
     * What {@code request} proves, on the request path: a cached credential, an API key or a certificate at once,
     * without allocating for a cached one; a credential that needs bcrypt or a signature check comes back
     * {@link Result#pending}, for {@link #await}; {@link Result#IN_BODY} when only the body may hold one.
     */
    public Result check(Request request) {
        Result r = decide(request);
        if (!r.pending() && !r.inBody()) {
            counted(r);
        }
        return r;
    }

    /**
     * What a request's UsernameToken proves ({@code null}: it carries none), once its SOAP header is read: like
     * {@link #check}, a result at once or pending.
     */
    public Result checkToken(Request request, String user, String password) {
        Result r;
        if (user == null) {
            // required, and none anywhere: a body was read for nothing, which its client pays for as for a wrong credential
            r = settings.mode() == AuthenticationSettings.Mode.REQUIRED ? malformed(request) : Result.ANONYMOUS;
        } else {
            CredentialKey key = CredentialKey.of("U" + user + '\0' + password);
            Result cached = cache.get(key);
            r = cached != null ? cached : passwords.check(clients.of(request), user, password, key, clock.getAsLong());
        }
        if (!r.pending()) {
            counted(r);
        }
        return r;
    }

    /** A request's security header could not be read: a malformed credential, charged to its client. */
    public Result malformedToken(Request request) {
        Result r = malformed(request);
        counted(r);
        return r;
    }

    /**
     * Runs a pending result's check on the checking pool, or joins the same check under way; {@code later} gets the
     * outcome (on a checking thread). Null when the check was taken, or {@link Outcome#BUSY} at once when the pool is full.
     */
    public Result await(Result pending, Consumer<Result> later) {
        SlowCheck slow = pending.slow();
        CompletableFuture<CredentialCache.Verdict> mine = new CompletableFuture<>();
        CompletableFuture<CredentialCache.Verdict> running = cache.claim(slow.key(), mine);
        if (running != null) {
            slow.abandoned(); // the same credential is being checked: its verdict is this request's too, at no charge
            running.whenComplete((v, e) -> deliver(v, later));
            return null;
        }
        if (!failures.startCheck(slow.client())) {
            return refusedAtOnce(slow, mine, Result.THROTTLED); // its own checks fill its share of the queue
        }
        try {
            checks.execute(() -> {
                try {
                    run(slow, mine);
                } finally {
                    failures.endCheck(slow.client());
                }
            });
        } catch (RejectedExecutionException full) {
            failures.endCheck(slow.client());
            return refusedAtOnce(slow, mine, Result.BUSY);
        }
        mine.whenComplete((v, e) -> {
            cache.settle(slow.key(), mine, slow.generation());
            deliver(v, later);
        });
        return null;
    }

    /** A claimed check that will not run: what it reserved given back, its entry left, {@code r} for it and any that joined. */
    private Result refusedAtOnce(SlowCheck slow, CompletableFuture<CredentialCache.Verdict> mine, Result r) {
        slow.abandoned();
        mine.complete(CredentialCache.Verdict.of(r));
        cache.settle(slow.key(), mine, slow.generation());
        counted(r);
        return r;
    }

    private void run(SlowCheck slow, CompletableFuture<CredentialCache.Verdict> mine) {
        slowChecks.increment();
        CredentialCache.Verdict v;
        try {
            v = slow.run(mine::complete);
        } catch (RuntimeException e) {
            LOG.warn("a credential check failed: {}", e.toString());
            v = CredentialCache.Verdict.of(Result.REFUSED);
        }
        if (v != null) {
            mine.complete(v);
        }
    }

    private void deliver(CredentialCache.Verdict v, Consumer<Result> later) {
        Result r = v == null ? Result.BUSY : v.result();
        counted(r);
        later.accept(r);
    }

    private Result decide(Request request) {
        if (certificates != null) {
            Result r = certificates.check(request);
            if (r != null) {
                return r;
            }
        }
        HttpFields headers = request.getHeaders();
        String authorization = headers.get(HttpHeader.AUTHORIZATION);
        if (authorization != null && twice(headers, HttpHeader.AUTHORIZATION.asString())) {
            return malformed(request); // which one a server would read is anybody's guess
        }
        if (authorization != null) {
            if (settings.passwords() && scheme(authorization, "Basic")) {
                return basic(authorization, request);
            }
            if (bearer != null && scheme(authorization, "Bearer")) {
                return authorization.length() > MAX_CREDENTIAL || !BearerCheck.wellFormed(authorization) ? malformed(request)
                        : bearer.check(authorization, () -> clients.of(request), clock.getAsLong());
            }
        }
        if (credentials.apiKeys() != null) {
            String key = headers.get(settings.apiKeyHeader());
            if (key != null) {
                return twice(headers, settings.apiKeyHeader()) ? malformed(request) : apiKey(key, request);
            }
        }
        if (settings.wsSecurity().usernameToken() && request.getLength() != 0 && "POST".equals(request.getMethod())) {
            return Result.IN_BODY;
        }
        return settings.mode() == AuthenticationSettings.Mode.REQUIRED ? Result.REFUSED : Result.ANONYMOUS;
    }

    /** Whether {@code name} stands more than once among {@code headers}: only asked of a request that has it once. */
    private static boolean twice(HttpFields headers, String name) {
        int n = 0;
        for (HttpField f : headers) {
            if (f.is(name) && ++n > 1) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code authorization} names {@code scheme} (in any case), followed by whatever: a malformed one is refused, not ignored. */
    private static boolean scheme(String authorization, String scheme) {
        int n = scheme.length();
        return authorization.regionMatches(true, 0, scheme, 0, n)
                && (authorization.length() == n || authorization.charAt(n) == ' ' || authorization.charAt(n) == '\t');
    }

    /** HTTP Basic, canonical only: from the cache when verified lately, else checked. */
    private Result basic(String authorization, Request request) {
        if (authorization.length() > MAX_CREDENTIAL || !BasicCredential.isBasic(authorization) || !BasicCredential.canonical(authorization)) {
            return malformed(request);
        }
        CredentialKey key = CredentialKey.of('B', authorization, BasicCredential.TOKEN);
        Result cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        BasicCredential.UserPass up = BasicCredential.decode(authorization);
        if (up == null) {
            return malformed(request);
        }
        return passwords.check(clients.of(request), up.user(), up.password(), key, clock.getAsLong());
    }

    private Result apiKey(String key, Request request) {
        String customer = key.length() > MAX_CREDENTIAL ? null : credentials.apiKeys().get(CredentialKey.hex(key));
        return customer != null ? Result.verified(customer) : malformed(request);
    }

    /** A credential refused without a check (malformed, or an unknown API key): charged to its client, unless its burst is spent. */
    private Result malformed(Request request) {
        return failures.failedAtOnce(clients.of(request), clock.getAsLong()) ? Result.REFUSED : Result.THROTTLED;
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

    /** The authentication settings in force. */
    public AuthenticationSettings settings() {
        return settings;
    }

    int cachedCredentials() {
        return cache.size();
    }

    FailureLimiter failures() {
        return failures;
    }

    long jwksFetches() {
        return bearer == null ? 0 : bearer.fetches();
    }

    @Override
    public void close() {
        checks.shutdownNow();
    }
}
