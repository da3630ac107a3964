package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * JWT bearer tokens over real HTTP, against a JWKS served on loopback: a good token is served as its subject;
 * an expired, wrong-audience, wrong-issuer or wrongly signed token is 401; a token naming a key the set does not
 * hold costs one fetch of the set, then 401 (and a second one within the period costs none); a key rotated in
 * is fetched and accepted.
 */
class JwtAuthenticationTest {
    private TestBackend backend;
    private HttpServer jwksServer;
    private final AtomicInteger jwksHits = new AtomicInteger();
    private final AtomicReference<String> jwks = new AtomicReference<>();
    private Gateway gw;
    private RSAKey k1;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() throws Exception {
        backend = new TestBackend();
        k1 = new RSAKeyGenerator(2048).keyID("k1").generate();
        jwks.set(new JWKSet(k1.toPublicJWK()).toString());
        jwksServer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        jwksServer.createContext("/jwks.json", ex -> {
            jwksHits.incrementAndGet();
            byte[] body = jwks.get().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        jwksServer.start();
        gw = new Gateway(TestConfigs.parse("""
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  authentication:
                    jwt: { jwks: "http://127.0.0.1:%d/jwks.json", issuer: "https://idp.test", audience: slagate, claim: sub }
                servers: [ { id: s1, url: "%s", concurrency: 4 } ]
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                classification:
                  subscriptions: { gold-customer: { "*": gold } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                """.formatted(jwksServer.getAddress().getPort(), backend.url()), "jwt")).start();
    }

    @AfterEach
    void stop() throws Exception {
        gw.stop(Duration.ofSeconds(1));
        jwksServer.stop(0);
        backend.close();
    }

    private static String token(RSAKey key, String subject, String issuer, String audience, long expiresInSeconds) throws Exception {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(subject).issuer(issuer).audience(List.of(audience))
                .expirationTime(new Date(System.currentTimeMillis() + expiresInSeconds * 1000)).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private HttpResponse<String> post(String token) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gw.port() + "/svc")).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "text/xml").header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(Soap.envelope11("getQuote"))).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aGoodToken_isServedAsItsSubject_andBadOnesAre401() throws Exception {
        HttpResponse<String> good = post(token(k1, "gold-customer", "https://idp.test", "slagate", 300));
        assertEquals(200, good.statusCode(), good.body());
        assertEquals("premium", good.headers().firstValue("X-Slagate-Class").orElse(null));

        assertEquals(401, post(token(k1, "gold-customer", "https://idp.test", "slagate", -120)).statusCode(), "expired beyond the skew");
        assertEquals(401, post(token(k1, "gold-customer", "https://idp.test", "other-api", 300)).statusCode(), "wrong audience");
        assertEquals(401, post(token(k1, "gold-customer", "https://evil.test", "slagate", 300)).statusCode(), "wrong issuer");
        RSAKey impostor = new RSAKeyGenerator(2048).keyID("k1").generate();
        assertEquals(401, post(token(impostor, "gold-customer", "https://idp.test", "slagate", 300)).statusCode(),
                "signed by another key under the same key id");
        String good1 = token(k1, "gold-customer", "https://idp.test", "slagate", 300);
        String tampered = good1.substring(0, good1.lastIndexOf('.') - 4) + "AAAA" + good1.substring(good1.lastIndexOf('.'));
        assertEquals(401, post(tampered).statusCode(), "claims changed after signing");
        // HS256 with the RSA public key's bytes as the secret: the algorithm must fit the key
        SignedJWT confused = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(),
                new JWTClaimsSet.Builder().subject("gold-customer").issuer("https://idp.test").audience("slagate")
                        .expirationTime(new Date(System.currentTimeMillis() + 300_000)).build());
        confused.sign(new MACSigner(k1.toPublicJWK().toRSAPublicKey().getEncoded()));
        assertEquals(401, post(confused.serialize()).statusCode(), "an HMAC token keyed by the public key");
        assertEquals(401, post("not.a.jwt").statusCode());
    }

    @Test
    void aRotatedKey_isFetchedAndTaken() throws Exception {
        int atStart = jwksHits.get();
        RSAKey k2 = new RSAKeyGenerator(2048).keyID("k2").generate();
        jwks.set(new JWKSet(List.of(k1.toPublicJWK(), k2.toPublicJWK())).toString()); // the issuer rotates k2 in
        HttpResponse<String> rotated = post(token(k2, "acme", "https://idp.test", "slagate", 300));
        assertEquals(200, rotated.statusCode(), "a key rotated in is fetched and taken");
        assertEquals(atStart + 1, jwksHits.get(), "with one fetch");
    }

    @Test
    void anUnknownKeyId_costsOneFetch_then401() throws Exception {
        int atStart = jwksHits.get();
        RSAKey stranger = new RSAKeyGenerator(2048).keyID("k-stranger").generate();
        assertEquals(401, post(token(stranger, "acme", "https://idp.test", "slagate", 300)).statusCode());
        assertEquals(atStart + 1, jwksHits.get(), "one fetch for the unknown key id");
        assertEquals(401, post(token(stranger, "acme", "https://idp.test", "slagate", 300)).statusCode());
        assertEquals(atStart + 1, jwksHits.get(), "unknown key ids within the refresh period fetch nothing more");
    }

    @Test
    void aKeyWithdrawnFromTheJwks_stopsItsTokensAtTheNextFetch_cachedOrNot() throws Exception {
        String good = token(k1, "gold-customer", "https://idp.test", "slagate", 300);
        assertEquals(200, post(good).statusCode());
        assertEquals(200, post(good).statusCode(), "cached now");
        RSAKey k2 = new RSAKeyGenerator(2048).keyID("k2").generate();
        jwks.set(new JWKSet(k2.toPublicJWK()).toString()); // the issuer withdraws k1 (compromised)
        int atStart = jwksHits.get();
        RSAKey stranger = new RSAKeyGenerator(2048).keyID("k-stranger").generate();
        assertEquals(401, post(token(stranger, "acme", "https://idp.test", "slagate", 300)).statusCode(), "an unknown key id: a fetch");
        assertEquals(atStart + 1, jwksHits.get());
        assertEquals(401, post(good).statusCode(), "the cached token of the withdrawn key is refused from that fetch on");
        assertEquals(200, post(token(k2, "gold-customer", "https://idp.test", "slagate", 300)).statusCode());
    }
}
