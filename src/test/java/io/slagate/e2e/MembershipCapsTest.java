package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.testing.TestBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.core.ConditionTimeoutException;
import org.eclipse.jetty.client.HttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The servers' caps hold through membership changes (eq. 5–6: Σ_g N_{g,s} ≤ N_s), with separate
 * processes on a broker with an account per component: a second manager started beside the active
 * one, a gateway killed (-9) and restarted, a third gateway joining, a gateway with a wrong bus
 * password, and the active manager killed. Every gateway's caps are read from {@code /stats} every
 * 50 ms throughout; a sum above N_s may be seen in one sample (the gateways apply one allocation
 * message a moment apart, and the reads are not simultaneous), never in two in a row.
 */
class MembershipCapsTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int N_S = 10;

    @TempDir
    Path dir;
    private Nodes nodes;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        if (nodes != null) {
            nodes.close();
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    /** Every 50 ms, the caps of every gateway that answers, summed per server; runs of samples above N_s. */
    private static final class CapSampler implements AutoCloseable {
        final Map<String, Integer> admins = new ConcurrentHashMap<>();
        final List<String> overs = new CopyOnWriteArrayList<>();
        volatile int longestRun;
        volatile int samples;
        private int run;
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

        CapSampler start() {
            timer.scheduleAtFixedRate(this::sample, 0, 50, TimeUnit.MILLISECONDS);
            return this;
        }

        private void sample() {
            Map<String, Integer> sum = new TreeMap<>();
            Map<String, Map<String, Integer>> each = new TreeMap<>();
            admins.forEach((gw, port) -> {
                Map<String, Integer> caps = Nodes.caps("127.0.0.1", port);
                each.put(gw, caps);
                caps.forEach((s, n) -> sum.merge(s, n, Integer::sum));
            });
            samples++;
            boolean over = sum.values().stream().anyMatch(n -> n > N_S);
            if (over) {
                overs.add(System.currentTimeMillis() + " " + each);
                run++;
                longestRun = Math.max(longestRun, run);
            } else {
                run = 0;
            }
        }

        @Override
        public void close() {
            timer.shutdownNow();
        }
    }

    @Test
    void capsHold_throughAManagersStart_aGatewaysRestart_aJoin_aRefusedGateway_andATakeover() throws Exception {
        TestBackend b1 = new TestBackend();
        TestBackend b2 = new TestBackend();
        open.add(b1);
        open.add(b2);
        b1.behave(b1.delayed(20));
        b2.behave(b2.delayed(20));
        nodes = new Nodes(dir);
        String broker = "127.0.0.1:" + Nodes.freePort();
        List<String> servers = List.of(b1.url(), b2.url());
        Map<String, int[]> ports = new LinkedHashMap<>(); // gateway → listen, admin
        for (String gw : List.of("gw1", "gw2", "gw3", "gw4")) {
            ports.put(gw, new int[] {Nodes.freePort(), Nodes.freePort()});
        }
        Path rmConfig = nodes.config("rm", "unused", "127.0.0.1", Nodes.freePort(), Nodes.freePort(), broker, servers, N_S, "rm", Nodes.PASSWORD_ENV);
        Map<String, Path> gwConfig = new HashMap<>();
        for (String gw : List.of("gw1", "gw2", "gw3")) {
            gwConfig.put(gw, nodes.config(gw, gw, "127.0.0.1", ports.get(gw)[0], ports.get(gw)[1], broker, servers, N_S, gw,
                    Nodes.PASSWORD_ENV));
        }
        // gw4 authenticates as gw4 with a password the broker does not know (PATH's value)
        Path wrong = nodes.config("gw4", "gw4", "127.0.0.1", ports.get("gw4")[0], ports.get("gw4")[1], broker, servers, N_S, "gw4", "PATH");
        Map<String, String> roles = new LinkedHashMap<>();
        roles.put("rm", "resource-manager");
        for (String gw : List.of("gw1", "gw2", "gw3", "gw4")) {
            roles.put(gw, "gateway");
        }
        nodes.launch("broker", "broker", "--config", nodes.brokerConfig("broker", broker, roles).toString());
        Process rm1 = nodes.launch("rm-1", "resource-manager", "--config", rmConfig.toString());
        nodes.launch("gw1", "gateway", "--config", gwConfig.get("gw1").toString());
        nodes.launch("gw2", "gateway", "--config", gwConfig.get("gw2").toString());
        awaitSplit("both gateways hold one allocation that splits every N_s", ports, List.of("gw1", "gw2"));

        HttpClient client = new HttpClient();
        client.start();
        open.add(client::stop);
        ClosedLoopLoad load2 = new ClosedLoopLoad(client, ports.get("gw2")[0], "urn:basic", 6);
        open.add(load2);
        CapSampler sampler = new CapSampler();
        open.add(sampler);
        sampler.admins.put("gw1", ports.get("gw1")[1]);
        sampler.admins.put("gw2", ports.get("gw2")[1]);
        sampler.start();

        // a second manager beside the active one: it listens, hears it, stands by, and publishes nothing
        Process rm2 = nodes.launch("rm-2", "resource-manager", "--config", rmConfig.toString());
        await("the second manager stands by").atMost(DEADLINE).until(() -> nodes.logged("rm-2", "stands by"));

        // gw1 killed and restarted: it waits for its share; its requests wait in its queue meanwhile
        Process gw1 = nodes.processes().get(2);
        gw1.destroyForcibly().waitFor();
        nodes.launch("gw1-again", "gateway", "--config", gwConfig.get("gw1").toString());
        awaitSplit("the restarted gw1 holds its share", ports, List.of("gw1", "gw2"));

        // a third gateway joins
        sampler.admins.put("gw3", ports.get("gw3")[1]);
        nodes.launch("gw3", "gateway", "--config", gwConfig.get("gw3").toString());
        awaitSplit("three gateways split every N_s", ports, List.of("gw1", "gw2", "gw3"));

        // a gateway the broker refuses: /ready never 200, and it exits 4
        sampler.admins.put("gw4", ports.get("gw4")[1]);
        Process gw4 = nodes.launch("gw4", "gateway", "--config", wrong.toString());
        List<Integer> readyAnswers = new ArrayList<>();
        long until = System.nanoTime() + DEADLINE.toNanos();
        while (gw4.isAlive() && System.nanoTime() < until) {
            readyAnswers.add(Nodes.ready("127.0.0.1", ports.get("gw4")[1]));
            Thread.sleep(50); // the polling period of a load balancer's health check, not a wait for a condition
        }
        assertTrue(gw4.waitFor(30, TimeUnit.SECONDS), "the refused gateway exits by itself");
        assertEquals(4, gw4.exitValue());
        assertTrue(readyAnswers.stream().noneMatch(s -> s == 200), "/ready answered 200 while refused: " + readyAnswers);

        // the active manager killed: the standby takes over within 4 heartbeat intervals (cycle 200 ms: 800 ms)
        long killedAt = System.currentTimeMillis();
        rm1.destroyForcibly().waitFor();
        await("the standby takes over").atMost(DEADLINE).until(() -> nodes.logged("rm-2", "is now active"));
        long tookMillis = loggedAt("rm-2", "is now active") - killedAt;
        awaitSplit("and its allocations split every N_s", ports, List.of("gw1", "gw2", "gw3"));
        sampler.close();

        System.out.printf("membership caps: %d samples, %d above N_s (longest run %d): %s; takeover %d ms; gw4 /ready %s%n",
                sampler.samples, sampler.overs.size(), sampler.longestRun, sampler.overs, tookMillis,
                readyAnswers.stream().distinct().toList());
        assertTrue(sampler.longestRun <= 1, "caps above N_s in consecutive samples: " + sampler.overs);
        assertTrue(tookMillis <= 800 + 200, "takeover in " + tookMillis + " ms (bound 800 ms, plus the log's clock read)");
        assertTrue(rm2.isAlive());
        assertTrue(load2.ok() > 0 && load2.failed() == 0, "gw2 served throughout: " + load2.ok() + " ok, " + load2.failed() + " failed");
    }

    /**
     * Waits until {@code gateways} split every N_s; when they do not within the deadline, fails with
     * what each gateway holds and the end of every node's log, so that a failure on CI can be read.
     */
    private void awaitSplit(String alias, Map<String, int[]> ports, List<String> gateways) throws Exception {
        try {
            await(alias).atMost(DEADLINE).pollInterval(Duration.ofMillis(100)).until(() -> split(ports, gateways));
        } catch (ConditionTimeoutException e) {
            StringBuilder b = new StringBuilder(alias).append(": not within ").append(DEADLINE);
            for (String gw : gateways) {
                JsonNode s = Nodes.stats("127.0.0.1", ports.get(gw)[1]);
                b.append("\n").append(gw).append(" allocation ").append(s == null ? "(no answer)" : s.path("allocation"));
            }
            try (var logs = Files.list(dir)) {
                for (Path log : logs.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
                    List<String> lines = Files.readAllLines(log);
                    b.append("\n--- ").append(log.getFileName()).append(" (last 15 of ").append(lines.size()).append(" lines)");
                    lines.subList(Math.max(0, lines.size() - 15), lines.size()).forEach(l -> b.append("\n").append(l));
                }
            }
            throw new AssertionError(b.toString(), e);
        }
    }

    /** Each of {@code gateways} holds a manager's allocation, all the same version, and their caps sum to N_s on both servers. */
    private static boolean split(Map<String, int[]> ports, List<String> gateways) {
        long version = -2;
        int[] sum = new int[2];
        for (String gw : gateways) {
            JsonNode a = Nodes.stats("127.0.0.1", ports.get(gw)[1]); // version and caps of one read
            long v = a == null ? -1 : a.path("allocation").path("version").asLong();
            if (v <= 0 || (version != -2 && v != version) || a.path("allocation").path("servers").size() != 2) {
                return false;
            }
            version = v;
            sum[0] += a.path("allocation").path("servers").path("s1").path("cap").asInt();
            sum[1] += a.path("allocation").path("servers").path("s2").path("cap").asInt();
        }
        return sum[0] == N_S && sum[1] == N_S;
    }

    /** The time of the first line of {@code name}'s log that contains {@code text} (the shipped pattern starts with an ISO time). */
    private long loggedAt(String name, String text) throws Exception {
        String line = Files.readAllLines(dir.resolve(name + ".log")).stream().filter(l -> l.contains(text)).findFirst().orElseThrow();
        return OffsetDateTime.parse(line.substring(0, line.indexOf(' '))).toInstant().toEpochMilli();
    }
}
