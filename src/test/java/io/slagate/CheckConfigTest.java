package io.slagate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code slagate check-config}: what a start would refuse, found without starting, and the configuration as it would run. */
class CheckConfigTest {
    /** An environment variable every test run has, standing in for a secret's variable. */
    private static final String SECRET_ENV = "PATH";

    private static String base(String gatewayExtra, String classificationExtra) {
        return "gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\"" + gatewayExtra + " }\n"
                + "servers:\n  - { id: s1, url: \"http://127.0.0.1:9001\", concurrency: 10 }\n"
                + "classes:\n  - { name: basic, target: 1s }\n"
                + "classification: { defaultClass: basic" + classificationExtra + " }\n";
    }

    @Test
    void shippedConfiguration_exits0_andPrintsItWithDefaultsFilledIn() {
        LauncherTest.Outcome o = LauncherTest.run("check-config", "--config", Path.of("..", "config", "slagate.yaml").toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("queueTimeout: 30s"), o.out());
        assertTrue(o.out().contains("headerTimeout: 10s"), "a default the file does not name is shown: " + o.out());
        assertTrue(o.out().contains("loadBalancing: least-outstanding"), o.out());
    }

    @Test
    void everyProblemListed_exit2_eachNamingItsKey(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bad.yaml");
        Files.writeString(f, base(", serverTimeout: soon, maxConnections: -1", ""));
        LauncherTest.Outcome o = LauncherTest.run("check-config", "--config", f.toString());
        assertEquals(2, o.code(), o.out());
        assertTrue(o.err().contains("gateway.serverTimeout"), o.err());
        assertTrue(o.err().contains("gateway.maxConnections"), o.err());
        assertEquals("", o.out(), "nothing printed as effective for a refused file");
    }

    @Test
    void aBadQuota_exit2_namingItsKey(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("quota.yaml");
        Files.writeString(f, base("", ", subscriptions: { acme: { \"*\": gold } }, grades: { gold: { rate: lots } }"));
        LauncherTest.Outcome o = LauncherTest.run("check-config", "--config", f.toString());
        assertEquals(2, o.code(), o.out());
        assertTrue(o.err().contains("classification.grades.gold.rate"), o.err());
    }

    @Test
    void keyStoreWithAWrongPassword_isRefusedBeforeAStart(@TempDir Path dir) throws Exception {
        Path ks = dir.resolve("gw.p12");
        keytool("-genkeypair", "-alias", "gw", "-keyalg", "EC", "-validity", "2", "-dname", "CN=localhost",
                "-storetype", "PKCS12", "-keystore", ks.toString(), "-storepass", "not-the-environment's");
        Path f = dir.resolve("tls.yaml");
        Files.writeString(f, base(", tls: { keyStore: \"" + ks + "\", passwordEnv: " + SECRET_ENV + " }", ""));
        LauncherTest.Outcome o = LauncherTest.run("check-config", "--config", f.toString());
        assertEquals(2, o.code(), o.out());
        assertTrue(o.err().contains("gateway.tls.keyStore: " + ks + ": cannot be opened"), o.err());
        assertFalse(o.err().contains(System.getenv(SECRET_ENV)), "the secret is not printed");
    }

    @Test
    void secretsAreMasked(@TempDir Path dir) throws Exception {
        Path ks = dir.resolve("gw.p12");
        keytool("-genkeypair", "-alias", "gw", "-keyalg", "EC", "-validity", "2", "-dname", "CN=localhost",
                "-storetype", "PKCS12", "-keystore", ks.toString(), "-storepass", System.getenv(SECRET_ENV));
        Path f = dir.resolve("tls.yaml");
        Files.writeString(f, base(", tls: { keyStore: \"" + ks + "\", passwordEnv: " + SECRET_ENV + " }", ""));
        LauncherTest.Outcome o = LauncherTest.run("check-config", "--config", f.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("password: '***'") || o.out().contains("password: \"***\""), o.out());
        assertFalse(o.out().contains(System.getenv(SECRET_ENV)), "the secret is not printed");
    }

    private static void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "keytool: " + output);
    }
}
