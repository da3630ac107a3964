package io.slagate.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.node.EmbeddedSystem;
import io.slagate.config.ConfigLoader;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reloading the configuration file (what SIGHUP does): a good file changes the classification live, a bad one is refused. */
class ReloadEndToEndTest {
    @TempDir
    Path dir;

    private static String yaml(String backend, String rule) {
        return """
                gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0" }
                servers: [ { id: s1, url: "%s", concurrency: 4 } ]
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                classification: { rules: [ %s ], defaultClass: basic }
                """.formatted(backend, rule);
    }

    private static String classOf(int port, String action) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/svc"))
                .header("Content-Type", "text/xml").header("SOAPAction", action)
                .POST(HttpRequest.BodyPublishers.ofString(Soap.envelope11("getQuote"))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.headers().firstValue("X-Slagate-Class").orElse("?");
    }

    @Test
    void goodFileAppliedLive_badFileRefusedAndTheOldOneStays() throws Exception {
        try (TestBackend backend = new TestBackend()) {
            backend.behave(TestBackend.echo());
            Path file = dir.resolve("slagate.yaml");
            Files.writeString(file, yaml(backend.url(), "{ operation: \"urn:getQuote\", class: premium }"));
            try (EmbeddedSystem system = EmbeddedSystem.start(ConfigLoader.load(file), EmbeddedSystem.Parts.GATEWAY)) {
                int port = system.gateway().port();
                assertEquals("premium", classOf(port, "urn:getQuote"));
                Files.writeString(file, yaml(backend.url(), "{ operation: \"urn:buyShares\", class: premium }"));
                assertEquals(List.of(), system.reload(file));
                assertEquals("basic", classOf(port, "urn:getQuote"), "the new rules apply to the next request");
                assertEquals("premium", classOf(port, "urn:buyShares"));
                Files.writeString(file, yaml(backend.url(), "{ operation: \"urn:getQuote\", class: platinum }"));
                List<String> problems = system.reload(file);
                assertFalse(problems.isEmpty());
                assertTrue(problems.get(0).contains("platinum"), problems.toString());
                assertEquals("premium", classOf(port, "urn:buyShares"), "refused: the running configuration stays");
            }
        }
    }
}
