package io.slagate.gateway.auth;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keys JWTs are checked against: a JWKS from a file or a URL, fetched at start, every refresh period and
 * (at most once a period) when a token names a key id the set does not hold — a key the issuer has just
 * rotated in. Fetches run off the request path; concurrent ones are one fetch. A failed fetch keeps the keys
 * held, and says so.
 */
final class JwksKeys {
    private static final Logger LOG = LoggerFactory.getLogger(JwksKeys.class);
    private static final int MAX_BYTES = 1 << 20;
    /** Reads a JWKS file: a thread of its own, so that a check waiting for a fetch never waits for its own pool. */
    private static final Executor FILES = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "slagate-jwks-file");
        t.setDaemon(true);
        return t;
    });

    private final String source;
    private final LongSupplier clock;
    private final long minIntervalNanos;
    private final HttpClient http;
    private volatile Map<String, JWK> byId = Map.of();
    private volatile List<JWK> all = List.of();
    private final AtomicLong fetches = new AtomicLong();
    private long lastUnknownFetchNanos;
    private boolean unknownFetched;
    private CompletableFuture<Void> inFlight;

    /** Told the keys a fetch no longer holds: tokens they signed must stop now, not at their cache entry's end. */
    private volatile Consumer<Set<JWK>> onRemoved = removed -> { };

    void onRemoved(Consumer<Set<JWK>> listener) {
        this.onRemoved = listener;
    }

    JwksKeys(String source, LongSupplier clock, Duration minInterval) {
        this.source = source;
        this.clock = clock;
        this.minIntervalNanos = minInterval.toNanos();
        this.http = source.startsWith("http") ? HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER).build() : null;
    }

    /** The key {@code kid} names (null: the set's only key, for a token without one), or null. */
    JWK key(String kid) {
        if (kid == null) {
            List<JWK> keys = all;
            return keys.size() == 1 ? keys.get(0) : null;
        }
        return byId.get(kid);
    }

    /** Whether {@code key} is in the set now. */
    boolean holds(JWK key) {
        return all.contains(key);
    }

    /** Fetches now, or joins the fetch under way. */
    synchronized CompletableFuture<Void> refresh() {
        if (inFlight != null) {
            return inFlight;
        }
        CompletableFuture<Void> f = fetch().thenAccept(this::use).exceptionally(e -> {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            LOG.warn("JWKS {} could not be fetched ({}); the {} key(s) held stay in force", source, cause.toString(), all.size());
            return null;
        });
        inFlight = f;
        f.whenComplete((v, e) -> {
            synchronized (this) {
                inFlight = null;
            }
        });
        return f;
    }

    /**
     * For a key id the set does not hold: a fetch, unless another unknown key id caused one within the period
     * (then false at once), so that tokens with invented key ids cannot make the gateway hammer the issuer.
     */
    synchronized CompletableFuture<Boolean> refreshForUnknown() {
        long now = clock.getAsLong();
        if (inFlight == null && unknownFetched && now - lastUnknownFetchNanos < minIntervalNanos) {
            return CompletableFuture.completedFuture(false);
        }
        if (inFlight == null) {
            unknownFetched = true;
            lastUnknownFetchNanos = now;
        }
        return refresh().thenApply(v -> true);
    }

    private CompletableFuture<String> fetch() {
        fetches.incrementAndGet();
        if (http == null) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    Path p = Path.of(source);
                    if (Files.size(p) > MAX_BYTES) {
                        throw new IllegalStateException("over " + MAX_BYTES + " bytes");
                    }
                    return Files.readString(p, StandardCharsets.UTF_8);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, FILES);
        }
        HttpRequest get = HttpRequest.newBuilder(URI.create(source)).timeout(Duration.ofSeconds(10)).GET().build();
        return http.sendAsync(get, HttpResponse.BodyHandlers.ofString()).thenApply(r -> {
            if (r.statusCode() != 200) {
                throw new IllegalStateException("HTTP " + r.statusCode());
            }
            if (r.body().length() > MAX_BYTES) {
                throw new IllegalStateException("over " + MAX_BYTES + " characters");
            }
            return r.body();
        });
    }

    private void use(String json) {
        try {
            List<JWK> keys = JWKSet.parse(json).getKeys().stream().filter(k -> !k.isPrivate()).toList();
            Map<String, JWK> ids = new HashMap<>();
            keys.forEach(k -> {
                if (k.getKeyID() != null) {
                    ids.put(k.getKeyID(), k);
                }
            });
            Set<JWK> removed = new HashSet<>(all);
            keys.forEach(removed::remove);
            all = keys;
            byId = Map.copyOf(ids);
            if (!removed.isEmpty()) {
                LOG.info("JWKS {}: {} key(s) withdrawn; tokens they signed are refused from now on", source, removed.size());
                onRemoved.accept(removed);
            }
        } catch (java.text.ParseException e) {
            throw new IllegalStateException("not a JWK set: " + e.getMessage(), e);
        }
    }

    long fetches() {
        return fetches.get();
    }

    int size() {
        return all.size();
    }
}
