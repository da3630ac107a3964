package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import at.favre.lib.crypto.bcrypt.BCrypt;
import io.slagate.gateway.auth.Authenticator.Outcome;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.security.MessageDigest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Customers proven at the gateway over real HTTP: HTTP Basic against a bcrypt htpasswd file and API keys. A
 * wrong password never gets the claimed customer's class or spends its quota; a revoked key fails on the next
 * request; a flood of wrong passwords is refused unchecked while the real customer goes on.
 */
class AuthenticationTest {
    @TempDir
    Path dir;
    private TestBackend backend;
    private Gateway gw;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void backend() throws Exception {
        backend = new TestBackend();
        backend.behave(TestBackend.echo());
    }

    @AfterEach
    void stop() throws Exception {
        if (gw != null) {
            gw.stop(Duration.ofSeconds(1));
        }
        backend.close();
    }

    static String bcrypt(String password) {
        // cost 4 keeps the test fast; the entry has the form htpasswd -B writes ($2y$)
        return new String(BCrypt.with(BCrypt.Version.VERSION_2Y).hashToChar(4, password.toCharArray()));
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    static String sha256(String key) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
    }

    private Gateway gateway(String authentication) throws Exception {
        return gateway(authentication, 1000);
    }

    /** Gold-customer gets the premium class and a quota of {@code burst} at once, then 1 a second (1,000 by default). */
    private Gateway gateway(String authentication, int burst) throws Exception {
        gw = new Gateway(TestConfigs.parse("""
                gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", authentication: %s }
                servers: [ { id: s1, url: "%s", concurrency: 4 } ]
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                classification:
                  subscriptions: { gold-customer: { "*": gold } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                  customers: { gold-customer: { rate: 1/s, burst: %d } }
                """.formatted(authentication, backend.url(), burst), "auth")).start();
        return gw;
    }

    private HttpResponse<String> post(String header, String value) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gw.port() + "/svc"))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "text/xml").header("SOAPAction", "\"urn:getQuote\"")
                .POST(HttpRequest.BodyPublishers.ofString(Soap.envelope11("getQuote")));
        if (header != null) {
            b.header(header, value);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String fault(HttpResponse<?> r) {
        return r.headers().firstValue("X-Slagate-Fault").orElse(null);
    }

    @Test
    void wrongPasswordForAGoldCustomer_is401_neverGold_spendsNoQuota_rightPasswordIsPremium() throws Exception {
        Path htpasswd = Files.writeString(dir.resolve("customers.htpasswd"), "gold-customer:" + bcrypt("s3cret") + "\n");
        gateway("{ mode: required, basic: { htpasswd: \"" + htpasswd + "\" } }", 3);

        for (int i = 0; i < 5; i++) { // more than the quota's burst of 3
            HttpResponse<String> wrong = post("Authorization", basic("gold-customer", "guess" + i));
            assertEquals(401, wrong.statusCode(), "a wrong password is 401 under faultStatus wsi too");
            assertEquals("unauthenticated", fault(wrong));
            assertTrue(wrong.headers().allValues("WWW-Authenticate").stream().anyMatch(v -> v.startsWith("Basic realm=\"slagate\"")),
                    wrong.headers().map().toString());
            assertTrue(wrong.body().contains("<faultcode>soap:Client</faultcode>"), "a SOAP fault blaming the client: " + wrong.body());
            assertTrue(wrong.headers().firstValue("X-Slagate-Class").isEmpty(), "never classified");
        }
        assertEquals(401, post(null, null).statusCode(), "no credentials, and they are required");
        assertEquals(0, backend.received(), "nothing unproven reached the server");
        assertEquals(0, gw.metrics().totals().arrived(), "an unproven request is no class's arrival");
        assertEquals(0, gw.quotas().buckets(), "and draws on no quota");

        for (int i = 0; i < 3; i++) { // the whole burst is still the real customer's
            HttpResponse<String> right = post("Authorization", basic("gold-customer", "s3cret"));
            assertEquals(200, right.statusCode(), right.body());
            assertEquals("premium", right.headers().firstValue("X-Slagate-Class").orElse(null));
        }
        assertEquals(3, gw.metrics().totals().arrived());
        assertEquals(6, gw.authenticator().count(Outcome.REFUSED));
        assertEquals(3, gw.authenticator().count(Outcome.VERIFIED));
        assertEquals(0, gw.metrics().faulted(FaultReason.QUOTA_EXCEEDED));
    }

    @Test
    void optionalMode_servesNoCredentialsAsAnonymous_butRefusesWrongOnes() throws Exception {
        Path htpasswd = Files.writeString(dir.resolve("customers.htpasswd"), "gold-customer:" + bcrypt("s3cret") + "\n");
        gateway("{ mode: optional, basic: { htpasswd: \"" + htpasswd + "\" } }");
        HttpResponse<String> anonymous = post(null, null);
        assertEquals(200, anonymous.statusCode());
        assertEquals("basic", anonymous.headers().firstValue("X-Slagate-Class").orElse(null));
        assertEquals(401, post("Authorization", basic("gold-customer", "wrong")).statusCode());
        assertEquals(401, post("Authorization", basic("nobody", "s3cret")).statusCode(), "an unknown name");
        assertEquals(401, post("Authorization", "Basic !!!not-base64").statusCode(), "a credential that does not decode");
        assertEquals(1, gw.authenticator().count(Outcome.ANONYMOUS));
    }

    @Test
    void apiKey_servesItsCustomer_andARevokedKeyFailsOnTheNextRequest() throws Exception {
        Path keys = Files.writeString(dir.resolve("api-keys"), "# customer:sha256(key)\ngold-customer:" + sha256("k-gold-1") + "\n"
                + "acme:" + sha256("k-acme-1") + "\n");
        gateway("{ apiKey: { header: X-Api-Key, file: \"" + keys + "\" } }");
        HttpResponse<String> gold = post("X-Api-Key", "k-gold-1");
        assertEquals(200, gold.statusCode());
        assertEquals("premium", gold.headers().firstValue("X-Slagate-Class").orElse(null));
        assertEquals(401, post("X-Api-Key", "k-gold-2").statusCode(), "a key not issued");

        Files.writeString(keys, "acme:" + sha256("k-acme-1") + "\n"); // gold's key revoked
        gw.authenticator().reload();
        assertEquals(401, post("X-Api-Key", "k-gold-1").statusCode(), "revoked: refused on the very next request");
        assertEquals(200, post("X-Api-Key", "k-acme-1").statusCode(), "the other key still holds");
    }

    @Test
    void aChangedFile_isReadAgainWithinSeconds_withoutAReload() throws Exception {
        Path htpasswd = Files.writeString(dir.resolve("customers.htpasswd"), "gold-customer:" + bcrypt("old") + "\n");
        gateway("{ basic: { htpasswd: \"" + htpasswd + "\" } }", 100_000_000); // polling must not run into the quota
        assertEquals(200, post("Authorization", basic("gold-customer", "old")).statusCode());
        Files.writeString(htpasswd, "gold-customer:" + bcrypt("new") + "\n# rotated\n");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        int status = 200;
        while (status == 200 && System.nanoTime() - deadline < 0) {
            status = post("Authorization", basic("gold-customer", "old")).statusCode();
        }
        assertEquals(401, status, "the old password (cached before) is refused once the file changed");
        assertEquals(200, post("Authorization", basic("gold-customer", "new")).statusCode());
    }

    @Test
    void aWrongPasswordFlood_isRefusedUnchecked_whileTheCachedCustomerIsServed() throws Exception {
        Path htpasswd = Files.writeString(dir.resolve("customers.htpasswd"), "gold-customer:" + bcrypt("s3cret") + "\n");
        gateway("{ basic: { htpasswd: \"" + htpasswd + "\" }, failures: { rate: 1, burst: 5 } }");
        assertEquals(200, post("Authorization", basic("gold-customer", "s3cret")).statusCode());
        int throttled = 0;
        for (int i = 0; i < 40; i++) {
            HttpResponse<String> r = post("Authorization", basic("gold-customer", "guess-" + i));
            if (FaultReason.AUTHENTICATION_THROTTLED.code().equals(fault(r))) {
                throttled++;
                assertTrue(r.headers().firstValue("Retry-After").isPresent());
            } else {
                assertEquals(401, r.statusCode());
            }
            assertEquals(200, post("Authorization", basic("gold-customer", "s3cret")).statusCode(),
                    "the real customer's proven credential is served between the guesses");
        }
        assertTrue(throttled >= 30, throttled + " of 40 guesses refused unchecked");
        long checks = (long) gw.registry().get("slagate.authentication.checks").counter().count();
        assertTrue(checks <= 1 + 5 + 3, checks + " bcrypt checks: the first right password and about the burst of guesses");
        assertEquals(throttled, gw.authenticator().count(Outcome.THROTTLED));
    }

    @Test
    void withoutAuthentication_aMalformedRequestWithAnInventedName_makesNoQuotaBucket() throws Exception {
        gw = new Gateway(TestConfigs.parse("""
                gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0" }
                servers: [ { id: s1, url: "%s", concurrency: 4 } ]
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                classification: { grades: { standard: { rate: 1/s, burst: 1 } } }
                """.formatted(backend.url()), "auth")).start();
        for (int i = 0; i < 50; i++) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gw.port() + "/svc"))
                    .header("Authorization", basic("invented-" + i, "x")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("malformed-request", fault(r));
        }
        assertEquals(0, gw.quotas().buckets(), "the malformed-request check comes before the quota's");
        assertNull(gw.authenticator());
    }
}
