package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.ConfigException;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS on the client listener, with a key store made by the JDK's keytool for the test. */
class TlsListenerTest {
    @TempDir
    Path dir;

    @Test
    void httpsListener_servesSoapOverTls_andRefusesPlainHttp() throws Exception {
        // the key store password comes from an environment variable, as in production; the test uses
        // PATH, which every process has, rather than a secret of its own
        String password = System.getenv("PATH");
        Path ks = dir.resolve("gateway.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "gw", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12", "-keystore", ks.toString(),
                "-storepass", password, "-keypass", password).redirectErrorStream(true).start();
        assertEquals(0, keytool.waitFor(), new String(keytool.getInputStream().readAllBytes()));

        try (TestBackend backend = new TestBackend()) {
            backend.behave(TestBackend.echo());
            Gateway gw = new Gateway(TestConfigs.parse("""
                    gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0",
                               tls: { keyStore: "%s", passwordEnv: PATH } }
                    servers: [ { id: s1, url: "%s", concurrency: 4 } ]
                    classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                    """.formatted(ks, backend.url()), "tls")).start();
            try {
                KeyStore trust = KeyStore.getInstance("PKCS12");
                try (InputStream in = Files.newInputStream(ks)) {
                    trust.load(in, password.toCharArray());
                }
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(trust);
                SSLContext ctx = SSLContext.getInstance("TLS");
                ctx.init(null, tmf.getTrustManagers(), null);
                HttpClient https = HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(5)).build();
                HttpResponse<String> r = https.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + gw.port() + "/svc"))
                        .header("Content-Type", "text/xml").POST(HttpRequest.BodyPublishers.ofString(Soap.envelope11("getQuote"))).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode());
                assertTrue(r.body().contains("getQuote"), "the backend's answer came back over TLS");
                assertEquals("https", backend.lastHeaders().get("X-Forwarded-Proto"), "the server learns the client's scheme");
                assertEquals(String.valueOf(gw.port()), backend.lastHeaders().get("X-Forwarded-Port"));
                assertThrows(IOException.class, () -> HttpClient.newHttpClient().send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gw.port() + "/svc")).timeout(Duration.ofSeconds(5))
                                .header("Content-Type", "text/xml").POST(HttpRequest.BodyPublishers.ofString("x")).build(),
                        HttpResponse.BodyHandlers.ofString()), "plain HTTP is not spoken on a TLS listener");
            } finally {
                gw.stop(Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void badTlsSettings_nameTheKey() {
        ConfigException e = assertThrows(ConfigException.class, () -> TestConfigs.parse("""
                gateway: { tls: { keyStore: /nonexistent.p12, passwordEnv: SLAGATE_SURELY_UNSET_VARIABLE } }
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 4 } ]
                classes: [ { name: premium, target: 1s } ]
                """, "tls"));
        assertTrue(e.getMessage().contains("gateway.tls.keyStore") && e.getMessage().contains("gateway.tls.passwordEnv"), e.getMessage());
    }
}
