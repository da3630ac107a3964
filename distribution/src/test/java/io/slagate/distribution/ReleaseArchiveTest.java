package io.slagate.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive as a user gets it: unpacked into an empty directory, with no sources and no
 * Maven, it checks its configuration, starts the embedded system and answers the README's first
 * request, which the access log records.
 */
class ReleaseArchiveTest {
    private static final Duration START = Duration.ofSeconds(90);
    private final List<Process> processes = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @AfterEach
    void stopAll() throws Exception {
        for (Process p : processes) {
            p.destroy(); // SIGTERM: bin/slagate execs java
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private Process launch(Path root, Path log, String... args) throws IOException {
        return launchAs(null, root, log, args);
    }

    /** With {@code SLAGATE_GATEWAY_ID} set to {@code gatewayId} (unless null). */
    private Process launchAs(String gatewayId, Path root, Path log, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(root.resolve("bin/slagate").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().remove("SLAGATE_CONFIG");
        pb.environment().remove("JAVA_OPTS");
        pb.environment().remove("SLAGATE_GATEWAY_ID");
        if (gatewayId != null) {
            pb.environment().put("SLAGATE_GATEWAY_ID", gatewayId);
        }
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    private static void await(String what, BooleanSupplier condition, Path... logs) throws Exception {
        long deadline = System.nanoTime() + START.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                StringBuilder tails = new StringBuilder();
                for (Path l : logs) {
                    String text = Files.exists(l) ? Files.readString(l) : "(none)";
                    tails.append("\n--- ").append(l.getFileName()).append(":\n").append(text.substring(Math.max(0, text.length() - 3000)));
                }
                throw new AssertionError("not within " + START.toSeconds() + " s: " + what + tails);
            }
            TimeUnit.MILLISECONDS.sleep(200); // polling with a deadline
        }
    }

    private int status(String url) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    @Test
    void unpacked_checksItsConfiguration_startsAndAnswersTheReadmesFirstRequest(@TempDir Path dir) throws Exception {
        Path archive = Path.of(System.getProperty("slagate.archive"));
        assertTrue(Files.isRegularFile(archive), "the archive was built: " + archive);
        Process tar = new ProcessBuilder("tar", "xzf", archive.toString(), "-C", dir.toString()).inheritIO().start();
        assertTrue(tar.waitFor(60, TimeUnit.SECONDS) && tar.exitValue() == 0, "tar xzf");
        Path root;
        try (var entries = Files.list(dir)) {
            root = entries.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        assertTrue(root.getFileName().toString().startsWith("slagate-"), root.toString());
        for (String f : List.of("bin/slagate", "lib/slagate.jar", "config/slagate.yaml", "LICENSE", "README.md", "request.xml",
                "deploy/slagate-gateway.service", "docs/OPERATIONS.md")) {
            assertTrue(Files.isRegularFile(root.resolve(f)), f + " in the archive");
        }
        assertTrue(Files.isExecutable(root.resolve("bin/slagate")), "bin/slagate is executable");

        Path checkLog = dir.resolve("check-config.log");
        Process check = launch(root, checkLog, "check-config", "--config", "config/slagate.yaml");
        assertTrue(check.waitFor(60, TimeUnit.SECONDS), "check-config ends");
        String checked = Files.readString(checkLog);
        assertEquals(0, check.exitValue(), checked);
        assertTrue(checked.contains("loadBalancing: least-outstanding") && checked.contains("queueTimeout: 30s"), checked);
        assertTrue(!Files.exists(root.resolve("launcher")), "nothing was built: no sources to build from");

        // one file for every replica: the id from the environment, checked like the file's
        Path podLog = dir.resolve("check-pod.log");
        Process pod = launchAs("slagate-gateway-7d9c5-x2k4q", root, podLog, "check-config", "--config", "config/slagate.yaml");
        assertTrue(pod.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, pod.exitValue(), Files.readString(podLog));
        assertTrue(Files.readString(podLog).contains("id: slagate-gateway-7d9c5-x2k4q"), Files.readString(podLog));
        Path badLog = dir.resolve("check-bad.log");
        Process bad = launchAs("no spaces/here", root, badLog, "check-config", "--config", "config/slagate.yaml");
        assertTrue(bad.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, bad.exitValue(), Files.readString(badLog));
        assertTrue(Files.readString(badLog).contains("SLAGATE_GATEWAY_ID"), Files.readString(badLog));

        // the shipped configuration on ports free here, with the access log on
        int gw = freePort();
        int admin = freePort();
        int console = freePort();
        int s1 = freePort();
        int s2 = freePort();
        Path accessLog = dir.resolve("access.log");
        String yaml = Files.readString(root.resolve("config/slagate.yaml"))
                .replace("127.0.0.1:8080", "127.0.0.1:" + gw).replace("127.0.0.1:8081", "127.0.0.1:" + admin)
                .replace("127.0.0.1:8082", "127.0.0.1:" + console).replace("127.0.0.1:9001", "127.0.0.1:" + s1)
                .replace("127.0.0.1:9002", "127.0.0.1:" + s2)
                .replaceFirst("(?m)^gateway:\n", "gateway:\n  accessLog: { to: \"" + accessLog + "\", startTrace: true }\n");
        Path config = root.resolve("config/test.yaml");
        Files.writeString(config, yaml);

        Path backendLog = dir.resolve("backend.log");
        Path startLog = dir.resolve("start.log");
        launch(root, backendLog, "backend", "--port", Integer.toString(s1), "--port", Integer.toString(s2));
        Process start = launch(root, startLog, "start", "--config", config.toString());
        await("the backends answer", () -> status("http://127.0.0.1:" + s1 + "/services/StockUtility?wsdl") == 200
                && status("http://127.0.0.1:" + s2 + "/services/StockUtility?wsdl") == 200, backendLog);
        await("/ready answers 200", () -> status("http://127.0.0.1:" + admin + "/ready") == 200, startLog);
        assertTrue(start.isAlive());

        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gw + "/services/StockUtility"))
                .header("Content-Type", "text/xml").header("SOAPAction", "\"urn:getQuote\"")
                .POST(HttpRequest.BodyPublishers.ofFile(root.resolve("request.xml"))).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("getQuoteResponse"), answer.body());

        await("the access log's line", () -> {
            try {
                return Files.exists(accessLog) && !Files.readString(accessLog).isBlank();
            } catch (IOException e) {
                return false;
            }
        }, startLog);
        List<String> lines = Files.readAllLines(accessLog, StandardCharsets.UTF_8);
        assertEquals(1, lines.size(), String.join("\n", lines));
        JsonNode line = new ObjectMapper().readTree(lines.get(0));
        assertEquals("basic", line.get("class").asText(), line.toString());
        assertTrue(line.get("customer").isNull(), "no credentials: no customer");
        assertTrue(List.of("s1", "s2").contains(line.get("server").asText()), line.toString());
        assertEquals(200, line.get("status").asInt());
        assertTrue(line.get("queue_ms").isNumber() && line.get("total_ms").asDouble() > 0, line.toString());
        assertTrue(line.get("trace_id").asText().matches("[0-9a-f]{32}"), line.toString());
    }
}
