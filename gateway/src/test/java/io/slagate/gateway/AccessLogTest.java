package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slagate.config.ConfigException;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.ScriptedBackend;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The access log, end to end: a real gateway, a real server over loopback, the lines read back from the file. */
class AccessLogTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private Gateway gateway(String server, String accessLog) throws Exception {
        String yaml = "gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\", accessLog: " + accessLog + " }\n"
                + "servers:\n  - { id: s1, url: \"" + server + "\", concurrency: 4 }\n"
                + "classes:\n  - { name: premium, target: 1s }\n  - { name: basic, target: 2s }\n"
                + "classification: { subscriptions: { acme: { \"*\": gold } }, rules: [ { grade: gold, class: premium } ], defaultClass: basic }\n";
        Gateway g = new Gateway(TestConfigs.parse(yaml, "test.yaml")).start();
        closeables.add(() -> g.stop(Duration.ofSeconds(2)));
        return g;
    }

    private static String basic(String user) {
        return "Authorization: Basic " + Base64.getEncoder().encodeToString((user + ":pw").getBytes(StandardCharsets.UTF_8)) + "\r\n";
    }

    private static List<JsonNode> lines(Path file, int atLeast) {
        List<JsonNode> out = new ArrayList<>();
        await("access log lines").atMost(Duration.ofSeconds(10)).until(() -> {
            out.clear();
            for (String l : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                out.add(JSON.readTree(l));
            }
            return out.size() >= atLeast;
        });
        return out;
    }

    @Test
    void oneJsonLinePerRequest_withItsClassCustomerServerTimingsAndTrace(@TempDir Path dir) throws Exception {
        ScriptedBackend s1 = new ScriptedBackend();
        closeables.add(s1);
        Path file = dir.resolve("access.log");
        Gateway g = gateway(s1.url(), "{ to: \"" + file + "\", startTrace: true }");

        RawHttp.Response answered = RawHttp.exchange(g.port(), RawHttp.post("/services/Quotes",
                basic("acme") + "SOAPAction: \"urn:getQuote\"\r\ntraceparent: " + TRACE + "\r\n", "<x/>"));
        assertEquals(200, answered.status());
        RawHttp.Response fresh = RawHttp.exchange(g.port(), RawHttp.post("/services/Quotes", "", "<y/>"));
        assertEquals(200, fresh.status());
        RawHttp.Response refused = RawHttp.exchange(g.port(), "PUT /services/Quotes HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
        assertEquals("method-not-allowed", refused.header("X-Slagate-Fault"));

        List<JsonNode> l = lines(file, 3);
        assertEquals(3, l.size(), "one line per request: " + l);
        // a line is written as its request ends: a refusal can end before the request answered just ahead of it
        JsonNode a = one(l, n -> "acme".equals(n.get("customer").textValue()));
        assertEquals("premium", a.get("class").asText());
        assertEquals("acme", a.get("customer").asText());
        assertEquals("s1", a.get("server").asText());
        assertEquals(200, a.get("status").asInt());
        assertTrue(a.get("fault").isNull());
        assertEquals("/services/Quotes", a.get("service").asText());
        assertEquals("urn:getQuote", a.get("operation").asText(), "the operation as the classifier sees it (the SOAPAction)");
        assertEquals("127.0.0.1", a.get("client").asText());
        assertEquals(4, a.get("bytes_in").asLong());
        assertEquals(4, a.get("bytes_out").asLong(), "the server's <ok>");
        assertTrue(a.get("queue_ms").asDouble() >= 0 && a.get("total_ms").asDouble() >= a.get("service_ms").asDouble(), a.toString());
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", a.get("trace_id").asText(), "the client's trace id");

        JsonNode b = one(l, n -> n.get("status").asInt() == 200 && n.get("customer").isNull());
        assertEquals("basic", b.get("class").asText());
        String started = b.get("trace_id").asText();
        assertTrue(started.matches("[0-9a-f]{32}"), started);
        assertTrue(s1.heads().get(1).contains("traceparent: 00-" + started + "-"), "the started trace goes to the server: " + s1.heads().get(1));
        assertTrue(s1.heads().get(0).contains("traceparent: " + TRACE), "the client's trace context passes unchanged");

        JsonNode c = one(l, n -> "method-not-allowed".equals(n.get("fault").textValue()));
        assertNull(c.get("server").textValue());
        assertNotEquals(200, c.get("status").asInt());
    }

    @Test
    void hostileValues_stayOnTheirLine_escaped(@TempDir Path dir) throws Exception {
        ScriptedBackend s1 = new ScriptedBackend();
        closeables.add(s1);
        Path file = dir.resolve("access.log");
        Gateway g = gateway(s1.url(), "{ to: \"" + file + "\", format: \"%{customer} %{class} %{status}\" }");
        String forged = "evil\n2026-01-01 forged 200\u001b[2J";
        assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/Quotes", basic(forged), "<x/>")).status());
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(file) && Files.size(file) > 0);
        List<String> written = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(List.of("evil\\n2026-01-01 forged 200\\u001b[2J basic 200"), written);
    }

    @Test
    void rolledBySize_everyLineWholeInOneFile(@TempDir Path dir) throws Exception {
        ScriptedBackend s1 = new ScriptedBackend();
        closeables.add(s1);
        Path file = dir.resolve("access.log");
        Gateway g = gateway(s1.url(), "{ to: \"" + file + "\", maxFileSize: 1024 }");
        for (int i = 0; i < 40; i++) {
            assertEquals(200, RawHttp.exchange(g.port(), RawHttp.post("/services/Quotes", basic("c" + i), "<x/>")).status());
        }
        await("40 lines across the files").atMost(Duration.ofSeconds(10)).until(() -> {
            int n = 0;
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    n += Files.readAllLines(p).size();
                }
            }
            return n == 40;
        });
        List<Path> files;
        try (var listed = Files.list(dir)) {
            files = listed.sorted().toList();
        }
        assertTrue(files.size() > 2, "rolled past 1 KiB: " + files);
        Set<String> customers = new HashSet<>();
        for (Path p : files) {
            for (String l : Files.readAllLines(p)) {
                customers.add(JSON.readTree(l).get("customer").asText()); // every line whole JSON
            }
        }
        assertEquals(40, customers.size());
    }

    @Test
    void aFileThatCannotBeWritten_isAConfigurationError(@TempDir Path dir) {
        Path file = dir.resolve("no-such-dir").resolve("access.log");
        ConfigException e = assertThrows(ConfigException.class, () -> TestConfigs.parse(
                "gateway: { accessLog: { to: \"" + file + "\", format: \"%{nope}\" } }\nservers: [ { id: s1, url: \"http://127.0.0.1:1\", concurrency: 1 } ]\n"
                        + "classes: [ { name: basic, target: 1s } ]\n", "t.yaml"));
        assertTrue(e.getMessage().contains("gateway.accessLog.to") && e.getMessage().contains("cannot be written"), e.getMessage());
        assertTrue(e.getMessage().contains("gateway.accessLog.format") && e.getMessage().contains("%{nope}"), e.getMessage());
    }

    /** The one line that {@code which} picks (failing when none or several do). */
    private static JsonNode one(List<JsonNode> lines, java.util.function.Predicate<JsonNode> which) {
        List<JsonNode> picked = lines.stream().filter(which).toList();
        assertEquals(1, picked.size(), "exactly one such line among " + lines);
        return picked.get(0);
    }
}
