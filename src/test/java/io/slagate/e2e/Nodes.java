package io.slagate.e2e;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Slagate nodes as separate JVM processes for the several-node tests: started through the
 * launcher's main class (optionally behind a prefix such as {@code ip netns exec NS}), each with its
 * own log file, all killed at the end; their gateways' allocations read from {@code /stats}. The bus is plain TCP
 * ({@code bus.plaintext}): the hosts are this machine's own loopback or network namespaces, a network nobody else is on.
 */
final class Nodes implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final Path dir;
    private final List<Process> processes = new ArrayList<>();
    /** The environment variable every node reads the bus password from, and the password of this run. */
    static final String PASSWORD_ENV = "SLAGATE_TEST_BUS_PASSWORD";
    private final String busPassword = UUID.randomUUID().toString();

    Nodes(Path dir) {
        this.dir = dir;
    }

    /** Runs {@code io.slagate.Main args} in a small JVM after {@code prefix}; output to {@code dir/name.log}. */
    Process launch(List<String> prefix, String name, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                // the shipped logging configuration, not the tests' (logback-test.xml is on this class path too)
                "-Dlogback.configurationFile=logback.xml",
                "io.slagate.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile());
        pb.environment().put(PASSWORD_ENV, busPassword); // the bus is authenticated, as a deployment's must be
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    Process launch(String name, String... args) throws Exception {
        return launch(List.of(), name, args);
    }

    List<Process> processes() {
        return processes;
    }

    boolean logged(String name, String text) throws Exception {
        return Files.readAllLines(dir.resolve(name + ".log")).stream().anyMatch(l -> l.contains(text));
    }

    /**
     * A node's configuration: gateway {@code gatewayId} on {@code host} (listen and admin ports),
     * servers s1 and s2 with N_s each, two classes, the bus on {@code broker} (host:port), 200 ms cycles; gateway
     * accounts gw1-gw4 bound to the gateway ids of their names.
     */
    Path config(String name, String gatewayId, String host, int listen, int admin, String broker, List<String> servers, int nS)
            throws Exception {
        return config(name, gatewayId, host, listen, admin, broker, servers, nS, "slagate", PASSWORD_ENV);
    }

    /** As above, authenticating as bus user {@code busUser} with the password in environment variable {@code passwordEnv}. */
    Path config(String name, String gatewayId, String host, int listen, int admin, String broker, List<String> servers, int nS,
                String busUser, String passwordEnv) throws Exception {
        Path f = dir.resolve(name + ".yaml");
        Files.writeString(f, """
                gateway:
                  id: %s
                  listen: "%s:%d"
                  admin: "%s:%d"
                  stats: { reportingInterval: 200ms, window: 1s }
                servers:
                  - { id: s1, url: "%s", concurrency: %d }
                  - { id: s2, url: "%s", concurrency: %d }
                classes:
                  - { name: premium, target: 100ms }
                  - { name: basic, target: 300ms }
                classification: { rules: [ { operation: "urn:premium", class: premium } ], defaultClass: basic }
                bus: { url: "tcp://%s", embedded: false, listen: "tcp://%s", user: %s, passwordEnv: %s, plaintext: true,
                       gatewayAccounts: { gw1: [gw1], gw2: [gw2], gw3: [gw3], gw4: [gw4] } }
                controller: { cycle: 200ms, gatewayExpiry: 3 }
                """.formatted(gatewayId, host, listen, host, admin, servers.get(0), nS, servers.get(1), nS, broker, broker, busUser,
                passwordEnv));
        return f;
    }

    /** A broker-only file with an account per entry of {@code roles} (user → role), all with this run's password. */
    Path brokerConfig(String name, String broker, Map<String, String> roles) throws Exception {
        StringBuilder accounts = new StringBuilder();
        roles.forEach((user, role) -> accounts.append(accounts.length() == 0 ? "" : ", ")
                .append("{ user: ").append(user).append(", role: ").append(role).append(", passwordEnv: ").append(PASSWORD_ENV).append(" }"));
        Path f = dir.resolve(name + ".yaml");
        Files.writeString(f, "bus: { url: \"tcp://%s\", embedded: false, listen: \"tcp://%s\", plaintext: true, accounts: [ %s ] }\n"
                .formatted(broker, broker, accounts));
        return f;
    }

    /** A port nobody listens on now (on loopback). */
    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** A gateway's {@code /ready} status, or -1 when it does not answer. */
    static int ready(String host, int adminPort) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://" + host + ":" + adminPort + "/ready"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    /** A broker-only file: nothing but {@code bus:} (`slagate broker` needs no servers or classes). */
    Path brokerConfig(String name, String broker) throws Exception {
        Path f = dir.resolve(name + ".yaml");
        Files.writeString(f, "bus: { url: \"tcp://%s\", embedded: false, listen: \"tcp://%s\", plaintext: true, user: slagate, passwordEnv: %s }\n"
                .formatted(broker, broker, PASSWORD_ENV));
        return f;
    }

    /** A gateway's {@code /stats}, or null when it does not answer. */
    static JsonNode stats(String host, int adminPort) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + host + ":" + adminPort + "/stats"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
        } catch (Exception e) {
            return null;
        }
    }

    /** server id → N_{g,s} at one gateway; empty when unreachable. */
    static Map<String, Integer> caps(String host, int adminPort) {
        Map<String, Integer> m = new TreeMap<>();
        JsonNode s = stats(host, adminPort);
        if (s != null) {
            s.path("allocation").path("servers").fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().path("cap").asInt()));
        }
        return m;
    }

    static long version(String host, int adminPort) {
        JsonNode s = stats(host, adminPort);
        return s == null ? -1 : s.path("allocation").path("version").asLong();
    }

    @Override
    public void close() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
