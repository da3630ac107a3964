package io.slagate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import at.favre.lib.crypto.bcrypt.BCrypt;
import io.slagate.gateway.auth.Authenticator.Outcome;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import io.slagate.gateway.testing.TestConfigs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The authentication defences turned against the customers they protect, over real HTTP, behind a trusted proxy
 * (127.0.0.1) that tells clients apart by X-Forwarded-For: a malformed flood, concurrent wrong passwords, variants of
 * one valid credential, and what of a credential reaches the server. Entries at bcrypt cost 10, as the console
 * writes them, so that checks are slow enough to overlap.
 */
class AuthenticationAttacksTest {
    private static final String GOLD = "gold-customer:" + hash("s3cret");
    private static final String ACME = "acme:" + hash("acme-pass");

    @TempDir
    Path dir;
    private TestBackend backend;
    private Gateway gw;

    private static String hash(String password) {
        return new String(BCrypt.with(BCrypt.Version.VERSION_2Y).hashToChar(10, password.toCharArray()));
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @BeforeEach
    void start() throws Exception {
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

    private void gateway(String extra) throws Exception {
        Path htpasswd = Files.writeString(dir.resolve("customers.htpasswd"), GOLD + "\n" + ACME + "\n");
        gw = new Gateway(TestConfigs.parse("""
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  trustedProxies: ["127.0.0.1"]
                  authentication: { mode: required, basic: { htpasswd: "%s" }, wsSecurity: { usernameToken: true }%s }
                servers: [ { id: s1, url: "%s", concurrency: 8 } ]
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                classification:
                  subscriptions: { gold-customer: { "*": gold } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                """.formatted(htpasswd, extra, backend.url()), "attacks")).start();
    }

    private RawHttp.Response post(String headers) throws Exception {
        return post(headers, Soap.envelope11("getQuote"));
    }

    private RawHttp.Response post(String headers, String envelope) throws Exception {
        return RawHttp.exchange(gw.port(), RawHttp.post("/svc", headers, envelope));
    }

    /** Every request the gateway counted as a class's arrival has ended: completed or faulted, none left in flight. */
    private void assertCountersBalance() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (gw.metrics().inFlight() > 0 && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        assertEquals(0, gw.metrics().inFlight());
        assertEquals(gw.metrics().totals().arrived(), gw.metrics().totals().completed() + gw.metrics().totals().faulted(), "counters balance");
    }

    private long checks() {
        return (long) gw.registry().get("slagate.authentication.checks").counter().count();
    }

    @Test
    void aMalformedFloodFromOneClient_behindTheTrustedProxy_leavesAnotherClientsFirstRightCredentialServed() throws Exception {
        gateway("");
        int refused = 0;
        int throttled = 0;
        for (int i = 0; i < 30; i++) {
            RawHttp.Response r = post("X-Forwarded-For: 198.51.100.1\r\nAuthorization: Basic !!!!\r\n");
            refused += r.status() == 401 ? 1 : 0;
            throttled += "authentication-throttled".equals(r.header("X-Slagate-Fault")) ? 1 : 0;
        }
        assertEquals(10, refused, "the client's burst of failures: malformed ones are charged too");
        assertEquals(20, throttled, "then refused unchecked, charging nothing more");
        assertEquals(0, checks(), "a malformed credential costs no bcrypt");

        RawHttp.Response other = post("X-Forwarded-For: 203.0.113.9\r\nAuthorization: " + basic("gold-customer", "s3cret") + "\r\n");
        assertEquals(200, other.status(), "another client behind the same proxy, its first (uncached) right credential");
        assertEquals("premium", other.header("X-Slagate-Class"));
        RawHttp.Response same = post("X-Forwarded-For: 198.51.100.1\r\nAuthorization: " + basic("acme", "acme-pass") + "\r\n");
        assertEquals("authentication-throttled", same.header("X-Slagate-Fault"), "the flooding client itself is still held");
        RawHttp.Response spoofed = post("X-Forwarded-For: 203.0.113.9, 198.51.100.1\r\nAuthorization: " + basic("acme", "acme-pass") + "\r\n");
        assertEquals("authentication-throttled", spoofed.header("X-Slagate-Fault"),
                "what a client writes at the left of the chain does not choose its key: the proxy's entry at the right does");
        assertEquals(1, checks());
        assertEquals(1, backend.received(), "only the proven request reached the server");
    }

    @Test
    void aHundredConcurrentWrongPasswordsFromOneClient_costAtMostTheBurst_andOthersAreServed() throws Exception {
        gateway("");
        ExecutorService pool = Executors.newFixedThreadPool(100);
        try {
            List<Future<RawHttp.Response>> answers = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                String guess = basic("gold-customer", "guess-" + i);
                answers.add(pool.submit(() -> post("X-Forwarded-For: 198.51.100.2\r\nAuthorization: " + guess + "\r\n")));
            }
            int refused = 0;
            for (Future<RawHttp.Response> f : answers) {
                RawHttp.Response r = f.get();
                assertTrue(r.status() == 401 || "authentication-throttled".equals(r.header("X-Slagate-Fault")),
                        r.status() + " " + r.header("X-Slagate-Fault"));
                refused += r.status() == 401 ? 1 : 0;
            }
            assertTrue(checks() <= 10, checks() + " bcrypt checks for 100 concurrent guesses: in-flight checks count against the burst of 10");
            assertEquals(checks(), refused, "every check run was a failure answered 401; the rest were throttled unchecked");
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, gw.authenticator().count(Outcome.BUSY), "the pool never filled");
        RawHttp.Response other = post("X-Forwarded-For: 203.0.113.10\r\nAuthorization: " + basic("acme", "acme-pass") + "\r\n");
        assertEquals(200, other.status(), "another client's right credential is served at once");
        RawHttp.Response target = post("X-Forwarded-For: 203.0.113.11\r\nAuthorization: " + basic("gold-customer", "s3cret") + "\r\n");
        assertEquals(200, target.status(), "the guessed customer from a new client: one client cannot spend its name's budget");
    }

    @Test
    void thirtyTwoCaseAndWhitespaceVariantsOfOneRightCredential_costOneCheck() throws Exception {
        gateway("");
        String token = basic("gold-customer", "s3cret").substring(6);
        List<String> variants = new ArrayList<>();
        for (int mask = 0; mask < 24; mask++) { // the scheme in 24 of its 32 spellings: case-insensitive, so one credential
            StringBuilder scheme = new StringBuilder();
            for (int i = 0; i < 5; i++) {
                char c = "basic".charAt(i);
                scheme.append((mask & 1 << i) != 0 ? Character.toUpperCase(c) : c);
            }
            variants.add(scheme + " " + token);
        }
        variants.addAll(List.of("Basic  " + token, "Basic\t" + token, "Basic " + token + " x", "Basic " + token.replace("=", ""),
                "Basic " + token + "==", "Basic =" + token, "   Basic " + token, "Basic " + token + "   "));
        int served = 0;
        for (String v : variants) {
            RawHttp.Response r = post("Authorization: " + v + "\r\n");
            assertTrue(r.status() == 200 || r.status() == 401, v + ": " + r.status());
            served += r.status() == 200 ? 1 : 0;
        }
        assertEquals(32, variants.size());
        assertEquals(26, served, "the scheme's spellings, and leading or trailing spaces (not part of a field value), are the"
                + " credential; another space, a tab, extra text or a non-canonical base64 is refused");
        assertTrue(checks() <= 2, checks() + " checks for 32 variants of one credential");
        assertEquals(1, checks(), "the first spelling checked, every other served from the cache");
    }

    @Test
    void byDefaultTheServerSeesNoCredential_andWithAnIdentityHeaderOnlyTheGatewaysWord() throws Exception {
        gateway(", identityHeader: X-Authenticated-Customer");
        RawHttp.Response r = post("Authorization: " + basic("gold-customer", "s3cret") + "\r\nX-Authenticated-Customer: acme\r\n"
                + "x-authenticated-customer: root\r\nX_Authenticated_Customer: admin\r\n");
        assertEquals(200, r.status());
        assertNull(backend.lastHeaders().get("Authorization"), "the secret stays at the gateway");
        assertEquals(List.of("gold-customer"), backend.lastHeaders().getValuesList("X-Authenticated-Customer"),
                "the verified customer, set by the gateway; what the client wrote there is removed");
        assertNull(backend.lastHeaders().get("X_Authenticated_Customer"), "also under a name a CGI adapter would read as it");
        assertEquals(401, post("Authorization: " + basic("gold-customer", "s3cret")
                + "\r\nAuthorization: " + basic("acme", "acme-pass") + "\r\n").status(), "two credentials: which one a server reads is a guess");
    }

    @Test
    void withForwardCredentials_theServerGetsTheClientsAuthorization() throws Exception {
        gateway(", forwardCredentials: true");
        String credential = basic("gold-customer", "s3cret");
        assertEquals(200, post("Authorization: " + credential + "\r\n").status());
        assertEquals(credential, backend.lastHeaders().get("Authorization"));
    }

    @Test
    void aRightUsernameToken_isTheCustomersClass_aWrongOneIsRefused_andTheTokenNeverReachesTheServer() throws Exception {
        gateway("");
        RawHttp.Response right = post("", Soap.withHeader(Soap.usernameToken("gold-customer", "s3cret")));
        assertEquals(200, right.status(), right.body());
        assertEquals("premium", right.header("X-Slagate-Class"));
        assertTrue(!right.body().contains("UsernameToken") && !right.body().contains("s3cret") && right.body().contains("getQuote"),
                "the server got the envelope without the Security block: " + right.body());
        assertEquals(String.valueOf(right.body().getBytes(StandardCharsets.UTF_8).length), backend.lastHeaders().get("Content-Length"),
                "and a length that fits what it got");

        RawHttp.Response wrong = post("", Soap.withHeader(Soap.usernameToken("gold-customer", "guess")));
        assertEquals(401, wrong.status());
        assertEquals("unauthenticated", wrong.header("X-Slagate-Fault"));
        RawHttp.Response none = post("", Soap.withHeader(""));
        assertEquals(401, none.status(), "no credential anywhere, and they are required");
        assertEquals(1, backend.received(), "only the proven request reached the server");

        RawHttp.Response soap12 = RawHttp.exchange(gw.port(), RawHttp.post("/svc", "", Soap.withHeader(Soap.usernameToken("acme", "acme-pass"))
                .replace(Soap.NS11, Soap.NS12)).replace("text/xml; charset=utf-8", "application/soap+xml; charset=utf-8"));
        assertEquals(200, soap12.status(), soap12.body());
        assertEquals("basic", soap12.header("X-Slagate-Class"));
        RawHttp.Response both = post("Authorization: " + basic("acme", "acme-pass") + "\r\n",
                Soap.withHeader(Soap.usernameToken("gold-customer", "s3cret")));
        assertEquals("basic", both.header("X-Slagate-Class"), "the HTTP credential decides");
        assertTrue(!both.body().contains("s3cret"), "and the token it did not use is removed all the same");
        assertCountersBalance();
    }

    @Test
    void everyHostileSecurityHeader_isAFault_neverForwarded_andTheCountersBalance() throws Exception {
        gateway("");
        String token = Soap.usernameToken("gold-customer", "s3cret");
        String[] hostile = {
            Soap.withHeader(token + token),
            Soap.withHeader(token).replace("<soapenv:Envelope", "<!DOCTYPE soapenv:Envelope [<!ENTITY x \"gold-customer\">]><soapenv:Envelope"),
            Soap.withHeader(Soap.usernameToken("&x;", "s3cret")),
            Soap.withHeader("<x:Big xmlns:x=\"urn:x\">" + "y".repeat(1 << 20) + "</x:Big>" + token),
            Soap.withHeader("<x:a xmlns:x=\"urn:x\">".repeat(200) + "</x:a>".repeat(200) + token),
            Soap.withHeader(token.replaceAll("<wsse:Password.*</wsse:Password>", "")),
            Soap.withHeader("<x:Tx xmlns:x=\"urn:x\" soapenv:mustUnderstand=\"1\" soapenv:actor=\"http://schemas.xmlsoap.org/soap/actor/next\">1"
                    + "</x:Tx>" + token),
            Soap.withHeader(token.replace("#PasswordText", "#PasswordDigest")),
        };
        String[] faults = {"security-header-invalid", "security-header-invalid", "security-header-invalid", "security-header-invalid",
            "security-header-invalid", "security-header-invalid", "must-understand", "password-digest-unsupported"};
        for (int i = 0; i < hostile.length; i++) {
            RawHttp.Response r = post("X-Forwarded-For: 198.51.100." + (10 + i) + "\r\n", hostile[i]);
            assertEquals(faults[i], r.header("X-Slagate-Fault"), "hostile header " + i + ": " + r.body());
            assertTrue(r.body().contains("Fault"), "a SOAP fault");
        }
        RawHttp.Response digest = post("", hostile[7]);
        assertTrue(digest.body().contains("PasswordText over TLS"), "the digest fault says what to send instead: " + digest.body());
        // the same hostile headers behind a right HTTP credential: classified, then refused before any server
        for (int i = 0; i < hostile.length; i++) {
            RawHttp.Response r = post("X-Forwarded-For: 203.0.113.20\r\nAuthorization: " + basic("acme", "acme-pass") + "\r\n", hostile[i]);
            assertEquals(faults[i], r.header("X-Slagate-Fault"), "behind Basic, hostile header " + i);
        }
        assertEquals(0, backend.received(), "none of them reached the server");
        assertEquals(hostile.length, gw.metrics().totals().arrived(), "the Basic ones were arrivals of their class");
        assertEquals(hostile.length, gw.metrics().totals().faulted());
        assertCountersBalance();
    }
}
