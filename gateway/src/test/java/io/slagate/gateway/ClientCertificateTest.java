package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A TLS client certificate, checked by the handshake against the listener's trust store, names its customer (the subject's CN). */
class ClientCertificateTest {
    @TempDir
    Path dir;
    /** Key store passwords from an environment variable, as in production: PATH, which every process has. */
    private final String password = System.getenv("PATH");

    private void keytool(String... args) throws Exception {
        String[] cmd = new String[args.length + 1];
        cmd[0] = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertEquals(0, p.waitFor(), new String(p.getInputStream().readAllBytes()));
    }

    private Path keyPair(String name, String dname) throws Exception {
        Path ks = dir.resolve(name + ".p12");
        keytool("-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname", dname,
                "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12", "-keystore", ks.toString(), "-storepass", password, "-keypass", password);
        return ks;
    }

    private KeyStore load(Path p) throws Exception {
        KeyStore k = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(p)) {
            k.load(in, password.toCharArray());
        }
        return k;
    }

    private HttpClient client(Path gatewayStore, Path clientStore) throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(load(gatewayStore));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(clientStore == null ? null : load(clientStore), password.toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(clientStore == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** A TLS gateway whose customers are proven by certificate ({@code more}: further authentication keys). */
    private static Gateway gateway(Path keyStore, Path trust, String more, TestBackend backend) throws Exception {
        return new Gateway(TestConfigs.parse("""
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  tls: { keyStore: "%s", passwordEnv: PATH, trustStore: "%s", trustStorePasswordEnv: PATH }
                  authentication: { mode: required, clientCertificate: cn%s }
                servers: [ { id: s1, url: "%s", concurrency: 4 } ]
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                classification:
                  subscriptions: { gold-customer: { "*": gold } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                """.formatted(keyStore, trust, more, backend.url()), "cert")).start();
    }

    @Test
    void aClientCertificate_namesItsCustomer_andNoCertificateIs401WhenRequired() throws Exception {
        Path gwStore = keyPair("gw", "CN=localhost");
        Path gold = keyPair("gold", "CN=gold-customer, O=Example");
        Path stranger = keyPair("stranger", "CN=gold-customer, O=Forger"); // not in the trust store
        Path cert = dir.resolve("gold.crt");
        keytool("-exportcert", "-alias", "gold", "-keystore", gold.toString(), "-storepass", password, "-file", cert.toString());
        Path trust = dir.resolve("trust.p12");
        keytool("-importcert", "-noprompt", "-alias", "gold", "-file", cert.toString(), "-storetype", "PKCS12",
                "-keystore", trust.toString(), "-storepass", password);
        try (TestBackend backend = new TestBackend()) {
            Gateway gw = gateway(gwStore, trust, "", backend);
            try {
                HttpRequest req = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + gw.port() + "/svc"))
                        .timeout(Duration.ofSeconds(10)).header("Content-Type", "text/xml")
                        .POST(HttpRequest.BodyPublishers.ofString(Soap.envelope11("getQuote"))).build();
                HttpResponse<String> r = client(gwStore, gold).send(req, HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("premium", r.headers().firstValue("X-Slagate-Class").orElse(null));
                assertEquals(401, client(gwStore, null).send(req, HttpResponse.BodyHandlers.ofString()).statusCode(),
                        "no certificate, and credentials are required");
                int status;
                try {
                    status = client(gwStore, stranger).send(req, HttpResponse.BodyHandlers.ofString()).statusCode();
                } catch (java.io.IOException handshakeRefused) {
                    status = -1;
                }
                assertEquals(true, status == -1 || status == 401, "a certificate the trust store does not vouch for proves nothing: " + status);
                assertEquals(1, gw.metrics().totals().arrived(), "only the proven request is an arrival");
            } finally {
                gw.stop(Duration.ofSeconds(1));
            }
        }
    }

    /**
     * Certificates withdrawn while the gateway runs: one listed by a new CRL of its CA, one named by fingerprint in the
     * deny list, each refused from its next request, on the connection it proved itself on; and a CA added to the trust
     * store holds for new handshakes without a restart.
     */
    @Test
    void aRevokedCertificate_failsOnItsNextRequest_andATrustStoreChangeHoldsWithoutARestart() throws Exception {
        Path gwStore = keyPair("gw", "CN=localhost");
        io.slagate.gateway.testing.TestCa ca = new io.slagate.gateway.testing.TestCa(dir.resolve("ca"), "customers-ca", password);
        io.slagate.gateway.testing.TestCa other = new io.slagate.gateway.testing.TestCa(dir.resolve("other-ca"), "partners-ca", password);
        Path gold = ca.client("gold-customer");
        Path silver = ca.client("silver-customer");
        Path partner = other.client("partner");
        Path trust = dir.resolve("trust.p12");
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", ca.certificate().toString(), "-storetype", "PKCS12",
                "-keystore", trust.toString(), "-storepass", password);
        Path crl = dir.resolve("customers.crl");
        ca.emptyCrl(crl);
        Path deny = Files.writeString(dir.resolve("deny.txt"), "# serials or SHA-256 fingerprints\n");
        try (TestBackend backend = new TestBackend()) {
            Gateway gw = gateway(gwStore, trust, ", revocation: { crl: \"" + crl + "\", denyList: \"" + deny + "\" }", backend);
            try {
                HttpRequest req = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + gw.port() + "/svc"))
                        .timeout(Duration.ofSeconds(10)).header("Content-Type", "text/xml")
                        .POST(HttpRequest.BodyPublishers.ofString(Soap.envelope11("getQuote"))).build();
                HttpClient goldClient = client(gwStore, gold);
                HttpClient silverClient = client(gwStore, silver);
                assertEquals(200, goldClient.send(req, HttpResponse.BodyHandlers.ofString()).statusCode());
                assertEquals(200, silverClient.send(req, HttpResponse.BodyHandlers.ofString()).statusCode());
                int untrusted = status(client(gwStore, partner), req);
                assertEquals(true, untrusted == 401 || untrusted == -1,
                        "a CA the trust store does not hold: the certificate is not offered, or the handshake fails: " + untrusted);

                ca.revoke("gold-customer", crl);
                awaitStatus(goldClient, req, 401, "gold's certificate in the new CRL, on its kept-alive connection");
                String fingerprint = java.util.HexFormat.ofDelimiter(":").formatHex(java.security.MessageDigest.getInstance("SHA-256")
                        .digest(java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(
                                Files.newInputStream(ca.clientCertificate("silver-customer"))).getEncoded()));
                Files.writeString(deny, fingerprint.toUpperCase() + "\n");
                awaitStatus(silverClient, req, 401, "silver's fingerprint in the deny list");
                assertEquals(401, client(gwStore, silver).send(req, HttpResponse.BodyHandlers.ofString()).statusCode(), "and on a new one");

                keytool("-importcert", "-noprompt", "-alias", "partners", "-file", other.certificate().toString(), "-storetype",
                        "PKCS12", "-keystore", trust.toString(), "-storepass", password);
                awaitStatus(null, req, 200, "the partners' CA added to the trust store", () -> client(gwStore, partner));
            } finally {
                gw.stop(Duration.ofSeconds(1));
            }
        }
    }

    private static int status(HttpClient c, HttpRequest req) throws Exception {
        try {
            return c.send(req, HttpResponse.BodyHandlers.ofString()).statusCode();
        } catch (java.io.IOException handshakeRefused) {
            return -1;
        }
    }

    private interface Clients {
        HttpClient get() throws Exception;
    }

    private static void awaitStatus(HttpClient c, HttpRequest req, int expected, String what) throws Exception {
        awaitStatus(c, req, expected, what, () -> c);
    }

    /** Polls with a deadline: the files are read again every second. */
    private static void awaitStatus(HttpClient c, HttpRequest req, int expected, String what, Clients clients) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        int last;
        do {
            last = status(clients.get(), req);
        } while (last != expected && System.nanoTime() - deadline < 0);
        assertEquals(expected, last, what);
    }
}
