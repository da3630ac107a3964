package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.node.EmbeddedSystem;
import io.slagate.bus.ControlBus;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.agent.GatewayAgent;
import io.slagate.console.ConsoleServer;
import io.slagate.console.Role;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console manages the customers a gateway authenticates: a Basic customer and an API key are added, rotated
 * and revoked through the console's API, and the gateway (its own credential files, on what stands for another
 * host) follows each change from the bus: the new credential is served in the customer's class, the old one is
 * refused. Nothing the console shows or the gateway's files hold is a password or a key.
 */
class CustomerCredentialsEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration DEADLINE = Duration.ofSeconds(15);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    private static String config(Path files, String backend) {
        return """
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  authentication:
                    mode: required
                    basic: { htpasswd: "%1$s/customers.htpasswd" }
                    apiKey: { header: X-Api-Key, file: "%1$s/customers.keys" }
                servers: [ { id: s1, url: "%2$s", concurrency: 4 } ]
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                classification:
                  subscriptions: { acme: { "*": gold } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                console: { listen: "127.0.0.1:0" }
                """.formatted(files, backend);
    }

    private static Path files(Path dir) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("customers.htpasswd"), "# customers\n");
        Files.writeString(dir.resolve("customers.keys"), "");
        return dir;
    }

    /** A console on {@code bus} (started here) editing the files in {@code files}; the backend echoes. */
    private ConsoleServer console(Path files, TestBackend backend, ControlBus bus) throws Exception {
        backend.behave(TestBackend.echo());
        ConsoleServer console = ConsoleServer.start(ConfigLoader.load(Files.writeString(dir.resolve("console.yaml"),
                config(files, backend.url()))), bus, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        bus.start();
        return console;
    }

    /** The status of a request to the gateway with {@code header: value}, and the class it was served in. */
    private String call(int port, String header, String value) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/svc"))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "text/xml").header("SOAPAction", "\"urn:getQuote\"")
                .header(header, value).POST(HttpRequest.BodyPublishers.ofString(Soap.envelope11("getQuote"))).build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.headers().firstValue("X-Slagate-Class").orElse("-");
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** The gateways the console hears, with the credentials version each applies. */
    private static String heard(Console console) throws Exception {
        return JSON.readTree(console.raw("GET", "/api/customers", null).body()).path("rollout").path("gateways").toString();
    }

    /**
     * A gateway stopped while a customer was revoked applies the revocation when it rejoins: the console sends the
     * current files again to a gateway whose heartbeat reports an older version.
     */
    @Test
    void aGatewayAwayDuringARevocation_appliesItWhenItRejoins() throws Exception {
        Path gw1Files = files(dir.resolve("gw1-host"));
        Path gw2Files = files(dir.resolve("gw2-host"));
        Path consoleFiles = files(dir.resolve("console-host"));
        try (TestBackend backend = new TestBackend();
             EmbeddedSystem system = EmbeddedSystem.start(ConfigLoader.parse(config(gw1Files, backend.url()), "gw1.yaml"),
                     EmbeddedSystem.Parts.CORE);
             ControlBus consoleBus = new ControlBus(system.broker().vmUrl(), null, null, "console");
             ConsoleServer console = console(consoleFiles, backend, consoleBus)) {
            console.putUser("operator", Role.ADMIN, "operator-password-for-test".toCharArray());
            Console admin = new Console(console.port(), "operator", "operator-password-for-test");
            SlagateConfig gw2Config = ConfigLoader.parse(config(gw2Files, backend.url()).replace("id: gw1", "id: gw2"), "gw2.yaml");
            Gateway gw2 = new Gateway(gw2Config).start();
            ControlBus gw2Bus = new ControlBus(system.broker().vmUrl(), null, null, "gw2");
            GatewayAgent agent = new GatewayAgent(gw2, gw2Bus);
            gw2Bus.start();
            await("the console hears both gateways").atMost(DEADLINE).until(() -> heard(admin).contains("gw1") && heard(admin).contains("gw2"));
            JsonNode added = admin.send("POST", "/api/customers/basic", "{\"customer\":\"acme\",\"password\":\"first-password-1\"}");
            assertEquals("[\"gw1\",\"gw2\"]", added.path("applied").toString(), added.toString());
            assertEquals("200 premium", call(gw2.port(), "Authorization", basic("acme", "first-password-1")));

            agent.close(); // leaves: the console waits for it no more
            gw2Bus.close();
            gw2.stop(Duration.ofSeconds(1));
            JsonNode revoked = admin.send("DELETE", "/api/customers/basic/acme", null);
            assertEquals("[\"gw1\"]", revoked.path("applied").toString(), "only gw1 is live: " + revoked);
            assertTrue(Files.readString(gw2Files.resolve("customers.htpasswd")).contains("acme:"), "gw2's file still holds acme");

            Gateway back = new Gateway(gw2Config).start(); // restarted on its old files: acme would be served
            ControlBus backBus = new ControlBus(system.broker().vmUrl(), null, null, "gw2-back");
            try (GatewayAgent backAgent = new GatewayAgent(back, backBus)) {
                backBus.start();
                await("the rejoined gateway applies the revocation it missed").atMost(DEADLINE)
                        .until(() -> !Files.readString(gw2Files.resolve("customers.htpasswd")).contains("acme:"));
                assertEquals("401 -", call(back.port(), "Authorization", basic("acme", "first-password-1")));
                await("and says so").atMost(DEADLINE).until(() -> heard(admin).contains("\"gw2\":" + revoked.path("version").asLong()));
            } finally {
                backBus.close();
                back.stop(Duration.ofSeconds(1));
            }
        }
    }

    /** The console answered the change once the one live gateway applied it. */
    private static void assertRolledOut(JsonNode answer) {
        assertEquals("[\"gw1\"]", answer.path("applied").toString(), answer.toString());
        assertEquals(0, answer.path("pending").size(), answer.toString());
    }

    @Test
    void basicCustomersAndApiKeys_addedRotatedRevoked_fromTheConsole_followedByTheGateway() throws Exception {
        Path gatewayFiles = files(dir.resolve("gateway-host"));
        Path consoleFiles = files(dir.resolve("console-host"));
        try (TestBackend backend = new TestBackend();
             EmbeddedSystem system = EmbeddedSystem.start(ConfigLoader.parse(config(gatewayFiles, backend.url()), "gateway.yaml"),
                     EmbeddedSystem.Parts.CORE);
             ControlBus consoleBus = new ControlBus(system.broker().vmUrl(), null, null, "console");
             ConsoleServer console = console(consoleFiles, backend, consoleBus)) {
            await().atMost(DEADLINE).until(consoleBus::isConnected);
            console.putUser("operator", Role.ADMIN, "operator-password-for-test".toCharArray());
            console.putUser("viewer", Role.READ_ONLY, "viewer-password-for-test".toCharArray());
            Console admin = new Console(console.port(), "operator", "operator-password-for-test");
            int gw = system.gateway().port();

            await("the console hears the gateway").atMost(DEADLINE).until(() -> heard(admin).contains("gw1"));
            assertEquals("401 -", call(gw, "Authorization", basic("acme", "first-password-1")), "no customer yet");
            JsonNode added = admin.send("POST", "/api/customers/basic", "{\"customer\":\"acme\",\"password\":\"first-password-1\"}");
            assertRolledOut(added);
            assertEquals("200 premium", call(gw, "Authorization", basic("acme", "first-password-1")),
                    "answered once the gateway applied it: the very next request is served");
            assertTrue(Files.readString(gatewayFiles.resolve("customers.htpasswd")).contains("acme:$2y$10$"),
                    "the gateway's own file took the bcrypt line from the bus");
            assertTrue(Files.readString(gatewayFiles.resolve("customers.htpasswd")).startsWith("# customers"), "comments kept");
            assertEquals("401 -", call(gw, "Authorization", basic("acme", "wrong-password-1")));

            assertRolledOut(admin.send("PUT", "/api/customers/basic/acme", "{\"password\":\"second-password-2\"}"));
            assertEquals("401 -", call(gw, "Authorization", basic("acme", "first-password-1")), "the old password, cached before");
            assertEquals("200 premium", call(gw, "Authorization", basic("acme", "second-password-2")), "rotated");

            JsonNode made = admin.send("POST", "/api/customers/keys", "{\"customer\":\"acme\"}");
            assertRolledOut(made);
            String key = made.path("key").asText();
            assertTrue(key.startsWith("sk_") && key.length() > 40, key);
            assertEquals("200 premium", call(gw, "X-Api-Key", key));
            String keys = Files.readString(gatewayFiles.resolve("customers.keys"));
            assertFalse(keys.contains(key), "the key itself is never stored");
            JsonNode rotation = admin.send("PUT", "/api/customers/keys/acme", null);
            assertRolledOut(rotation);
            String rotated = rotation.path("key").asText();
            assertEquals("401 -", call(gw, "X-Api-Key", key));
            assertEquals("200 premium", call(gw, "X-Api-Key", rotated));

            String listed = admin.raw("GET", "/api/customers", null).body();
            JsonNode customers = JSON.readTree(listed).path("customers");
            assertEquals("acme", customers.get(0).path("customer").asText(), listed);
            assertEquals(2, customers.get(0).path("mechanisms").size(), listed);
            assertFalse(listed.contains("$2y$") || listed.contains(rotated.substring(3, 20)), "no hash, no key: " + listed);
            assertEquals(403, new Console(console.port(), "viewer", "viewer-password-for-test").raw("GET", "/api/customers", null)
                    .statusCode(), "listing customers needs the admin role");
            assertEquals(409, admin.raw("POST", "/api/customers/basic", "{\"customer\":\"acme\",\"password\":\"third-password-3\"}")
                    .statusCode(), "adding an existing customer is refused: rotate it");
            assertEquals(400, admin.raw("POST", "/api/customers/basic", "{\"customer\":\"a:b\",\"password\":\"third-password-3\"}")
                    .statusCode(), "a name that would break the file is refused");
            assertEquals(400, admin.raw("POST", "/api/customers/basic", "{\"customer\":\"longpw\",\"password\":\"" + "p".repeat(80)
                    + "\"}").statusCode(), "a password bcrypt would cut at 72 bytes is refused, not stored");

            assertRolledOut(admin.send("DELETE", "/api/customers/basic/acme", null));
            assertRolledOut(admin.send("DELETE", "/api/customers/keys/acme", null));
            assertEquals("401 -", call(gw, "Authorization", basic("acme", "second-password-2")), "revoked: the next request");
            assertEquals("401 -", call(gw, "X-Api-Key", rotated));
            assertEquals(404, admin.raw("DELETE", "/api/customers/keys/acme", null).statusCode(), "revoked already");

            String audit = Files.readString(dir.resolve("console-audit.log"));
            for (String action : new String[] {"customer-basic-add", "customer-basic-rotate", "customer-basic-revoke",
                    "customer-key-add", "customer-key-rotate", "customer-key-revoke"}) {
                assertTrue(audit.contains(action), action + " audited: " + audit);
            }
            assertFalse(audit.contains("second-password-2") || audit.contains(rotated), "no secret in the audit log");
        }
    }

    /** A logged-in console client (one cookie jar, its CSRF token). */
    private static final class Console {
        private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        private final String base;
        private final String csrf;

        Console(int port, String user, String password) throws Exception {
            base = "http://127.0.0.1:" + port;
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/login")).header("Content-Type",
                    "application/json").POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("user", user,
                    "password", password)))).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            csrf = JSON.readTree(r.body()).path("csrf").asText();
        }

        HttpResponse<String> raw(String method, String path, String json) throws Exception {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).header("X-CSRF-Token", csrf)
                    .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
            if (json != null) {
                b.header("Content-Type", "application/json");
            }
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }

        JsonNode send(String method, String path, String json) throws Exception {
            HttpResponse<String> r = raw(method, path, json);
            assertEquals(200, r.statusCode(), method + " " + path + ": " + r.body());
            return JSON.readTree(r.body());
        }
    }
}
