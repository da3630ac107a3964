package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.ControlBus;
import io.slagate.bus.EmbeddedBroker;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.ConfigMessage;
import io.slagate.bus.message.ControlMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.BusAccount;
import io.slagate.config.ConfigException;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.agent.GatewayAgent;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import io.slagate.rm.ControlLoop;
import io.slagate.rm.Overrides;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attacks on the control plane, against a real broker with a TCP listener and an account
 * per role: a resource manager ({@code rm}), a gateway ({@code gw1}) serving real HTTP, and an
 * attacker holding a gateway's credentials ({@code evil}). Each forged message is refused by the
 * broker or ignored by its receiver, the service keeps answering, and the refusal is counted.
 */
class ControlPlaneAttacksTest {
    private static final String PW = "attack-test-password";
    private EmbeddedBroker broker;
    private TestBackend backend;
    private ControlBus rmBus;
    private ControlBus gwBus;
    private ControlBus evil;
    private ControlLoop rm;
    private final SimpleMeterRegistry rmMetrics = new SimpleMeterRegistry();
    private Gateway gw;
    private GatewayAgent agent;

    private String yaml(String backendUrl) {
        return """
                gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", stats: { reportingInterval: 200ms, window: 1s } }
                servers: [ { id: s1, url: "%s", concurrency: 8 } ]
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                bus: { url: "vm://unused", embedded: false, gatewayAccounts: { gw1: [gw1], evil: [evil-gw] } }
                controller: { cycle: 200ms, gatewayExpiry: 10, maxGateways: 4 }
                """.formatted(backendUrl);
    }

    @BeforeEach
    void start() throws Exception {
        broker = EmbeddedBroker.start("attacks", "tcp://127.0.0.1:0", null, null, List.of(
                new BusAccount("rm", "resource-manager", PW), new BusAccount("gw1", "gateway", PW),
                new BusAccount("evil", "gateway", PW), new BusAccount("console", "console", PW)));
        backend = new TestBackend();
        SlagateConfig config = ConfigLoader.parse(yaml(backend.url()), "attacks.yaml");
        rmBus = new ControlBus(broker.tcpUrl(), "rm", PW, "rm");
        rm = new ControlLoop("rm", config, rmBus, new Overrides(), rmMetrics);
        rmBus.start();
        rm.start();
        gw = new Gateway(config).start();
        gwBus = new ControlBus(broker.tcpUrl(), "gw1", PW, "gw1");
        agent = new GatewayAgent(gw, gwBus);
        gwBus.start();
        evil = new ControlBus(broker.tcpUrl(), "evil", PW, "evil").start();
        await().atMost(Duration.ofSeconds(20)).until(() -> evil.isConnected() && gw.queues().caps().allocation().version() > 0
                && rm.status().lastAllocation() != null && rm.status().lastAllocation().gateways().containsKey("gw1"));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {evil, agent, gwBus, () -> gw.stop(Duration.ofSeconds(2)), rm, rmBus, backend, broker}) {
            if (c != null) {
                c.close();
            }
        }
    }

    private void serviceAnswers() throws Exception {
        assertEquals(200, RawHttp.exchange(gw.port(), RawHttp.post("/services/S", "", Soap.envelope11("getQuote"))).status());
    }

    private static AllocationMessage allocation(long version, String gatewayId) {
        return new AllocationMessage(BusMessage.SCHEMA, version, System.currentTimeMillis(), "forger",
                Map.of(gatewayId, new GatewayAllocation(Map.of("premium", 1.0, "basic", 1.0), Map.of("s1", 0))));
    }

    @Test
    void anonymousConnection_refused() throws Exception {
        try (ControlBus anonymous = new ControlBus(broker.tcpUrl(), null, null, "anonymous").start()) {
            await().atMost(Duration.ofSeconds(20)).until(() -> anonymous.lastError() != null);
            assertFalse(anonymous.isConnected(), "no anonymous session on a listener: " + anonymous.lastError());
        }
    }

    /**
     * Refused bus credentials: in a process, the gateway exits with 4 and says "bus authentication refused"
     * (it would otherwise forward on its static caps — every server's full N_s — beside the other gateways'
     * shares); as a library, its {@code /ready} answers 503 with the reason, so a load balancer takes it out.
     */
    @Test
    void refusedBusPassword_processExits4_libraryGatewayNotReady(@TempDir Path dir) throws Exception {
        SlagateConfig config = ConfigLoader.parse(yaml(backend.url()).replace("id: gw1", "id: gw2"), "refused.yaml");
        Gateway other = new Gateway(config).start();
        try (ControlBus wrong = new ControlBus(broker.tcpUrl(), "gw1", "not-the-password", "gw2");
             GatewayAgent otherAgent = new GatewayAgent(other, wrong)) {
            wrong.start();
            HttpClient http = HttpClient.newHttpClient();
            URI ready = URI.create("http://127.0.0.1:" + other.adminPort() + "/ready");
            await().atMost(Duration.ofSeconds(20)).until(() -> http.send(HttpRequest.newBuilder(ready).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode() == 503);
            String body = http.send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(body.contains("bus authentication refused for user 'gw1'"), body);
            assertFalse(body.contains("not-the-password"), "no secret in the reason: " + body);
        } finally {
            other.stop(Duration.ofSeconds(2));
        }
        // the same as a process: `slagate gateway` with a password the broker does not know
        try (Nodes nodes = new Nodes(dir)) {
            int listen;
            int admin;
            try (ServerSocket a = new ServerSocket(0); ServerSocket b = new ServerSocket(0)) {
                listen = a.getLocalPort();
                admin = b.getLocalPort();
            }
            Path file = nodes.config("refused", "gw9", "127.0.0.1", listen, admin, broker.tcpUrl().substring("tcp://".length()),
                    List.of(backend.url(), backend.url()), 4);
            Process p = nodes.launch("refused", "gateway", "--config", file.toString());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the gateway process exits by itself");
            assertEquals(4, p.exitValue());
            assertTrue(nodes.logged("refused", "slagate: bus authentication refused for user 'slagate'"),
                    Files.readString(dir.resolve("refused.log")));
        }
        serviceAnswers(); // the real gateway and its control plane are untouched
    }

    /** A gateway's credentials: allocations, configurations, overrides and a manager's heartbeat are refused by the broker. */
    @Test
    void gatewayCredentials_cannotSpeakForOtherRoles() throws Exception {
        long versionBefore = gw.queues().caps().allocation().version();
        long dropped = evil.dropped();
        evil.publish(Topics.allocationFor("gw1"), allocation(Long.MAX_VALUE, "gw1"));
        evil.publish(Topics.CONFIG, new ConfigMessage(BusMessage.SCHEMA, 99, yaml("http://203.0.113.9:80"), "admin", 0));
        evil.publish(Topics.CONTROL, new ControlMessage(BusMessage.SCHEMA, ControlMessage.PAUSE, null, null, null, 0, 0, "admin", 0));
        evil.publish(Topics.HEARTBEAT_RESOURCE_MANAGER, new HeartbeatMessage(BusMessage.SCHEMA, "a-smaller-id", "resource-manager",
                HeartbeatMessage.ALIVE, System.currentTimeMillis(), 0));
        await("four publishes refused at the broker").atMost(Duration.ofSeconds(20)).until(() -> evil.dropped() >= dropped + 4);
        assertTrue(evil.isConnected(), "a refused publish does not cost the connection");
        long after = gw.queues().caps().allocation().version();
        await("the real manager keeps deciding and publishing").atMost(Duration.ofSeconds(20))
                .until(() -> gw.queues().caps().allocation().version() > after);
        assertTrue(rm.status().active(), "the real manager was not made to stand by");
        assertTrue(gw.queues().caps().allocation().version() > versionBefore && gw.queues().caps().allocation().cap(0) > 0);
        assertEquals("http://127.0.0.1:" + backend.port(), gw.config().servers().get(0).url().toString().replaceAll("/$", ""));
        serviceAnswers();
    }

    /** A forged allocation from a role allowed to publish one: a version ahead of the clock is refused by the receivers. */
    @Test
    void allocationVersionAheadOfTheClock_refusedByReceivers_managerUnaffected() throws Exception {
        try (ControlBus forger = new ControlBus(broker.tcpUrl(), "rm", PW, "forger").start()) {
            await().atMost(Duration.ofSeconds(20)).until(forger::isConnected);
            forger.publish(Topics.allocationFor("gw1"), allocation(Long.MAX_VALUE, "gw1")); // what the gateway applies
            forger.publish(Topics.ALLOCATION, allocation(Long.MAX_VALUE, "gw1").summary()); // what managers take versions from
            await().atMost(Duration.ofSeconds(20)).until(() -> agent.refusedAllocations() >= 1);
        }
        long now = gw.queues().caps().allocation().version();
        assertTrue(now < Long.MAX_VALUE / 2 && gw.queues().caps().allocation().cap(0) > 0, "the forged caps 0 were not applied");
        await("the manager's own versions carry on (no overflow)").atMost(Duration.ofSeconds(20))
                .until(() -> gw.queues().caps().allocation().version() > now);
        assertTrue(rm.status().counts().refusedMessages() >= 1, "the manager did not take the forged version as seen");
        serviceAnswers();
    }

    /**
     * A gateway credential bound to one gateway id (bus.gatewayAccounts) joining 200 invented ids and
     * speaking for the real gateway: every message refused and counted, the real gateway's caps
     * unchanged in every allocation, and no metric series for an invented id.
     */
    @Test
    void inventedGateways_refused_realGatewayKeepsItsWholeShare() throws Exception {
        assertEquals(8, gw.queues().caps().allocation().cap(0), "alone, gw1 holds every slot");
        long refusedBefore = rm.status().counts().refusedMessages();
        for (int i = 0; i < 200; i++) {
            evil.publish(Topics.HEARTBEAT_GATEWAY, new HeartbeatMessage(BusMessage.SCHEMA, "fake-" + i, "gateway",
                    HeartbeatMessage.JOIN, System.currentTimeMillis(), 0));
            evil.publish(Topics.STATS, new StatsMessage(BusMessage.SCHEMA, "fake-" + i, 1, System.currentTimeMillis(), 1.0, 0,
                    List.of(), List.of()));
        }
        evil.publish(Topics.STATS, new StatsMessage(BusMessage.SCHEMA, "gw1", 1, System.currentTimeMillis(), 1.0, 0,
                List.of(), List.of())); // speaking for the real gateway from another account
        evil.publish(Topics.HEARTBEAT_GATEWAY, new HeartbeatMessage(BusMessage.SCHEMA, "gw1", "gateway",
                HeartbeatMessage.LEAVE, System.currentTimeMillis(), 0));
        await("every forged message refused and counted").atMost(Duration.ofSeconds(20))
                .until(() -> rm.status().counts().refusedMessages() >= refusedBefore + 402);
        long v = gw.queues().caps().allocation().version();
        Set<Integer> caps = new HashSet<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            caps.add(gw.queues().caps().allocation().cap(0));
            return gw.queues().caps().allocation().version() > v + 2;
        });
        assertEquals(Set.of(8), caps, "gw1's cap in every allocation since");
        assertEquals(Set.of("gw1"), rm.status().lastAllocation().gateways().keySet());
        List<String> invented = rmMetrics.getMeters().stream().flatMap(m -> m.getId().getTags().stream())
                .map(Tag::getValue).filter(t -> t.startsWith("fake-")).toList();
        assertEquals(List.of(), invented, "no metric series for a gateway that never joined");
        serviceAnswers();
    }

    /**
     * Oversized messages: refused by size before decoding (counted). The bus compresses, so 30 MB of one repeated
     * character passes the broker's frame cap as a few KB; the manager counts its inflated size only to the limit and
     * refuses it (a deflate bomb costs it no more than the limit).
     */
    @Test
    void oversizedMessages_refusedAndCounted() throws Exception {
        long before = rmBus.oversized();
        evil.publishRaw(Topics.STATS, "{\"type\":\"stats\",\"pad\":\"" + "x".repeat(2 << 20) + "\"}");
        await("2 MB: refused by the manager before decoding").atMost(Duration.ofSeconds(20)).until(() -> rmBus.oversized() > before);
        evil.publishRaw(Topics.STATS, "x".repeat(30 << 20));
        await("30 MB, compressed: refused by its inflated size").atMost(Duration.ofSeconds(20))
                .until(() -> rmBus.oversized() >= before + 2);
        serviceAnswers();
        long v = gw.queues().caps().allocation().version();
        await("the control plane goes on").atMost(Duration.ofSeconds(20)).until(() -> gw.queues().caps().allocation().version() > v + 2);
        assertEquals(before + 2, rmBus.oversized(), "each refused once");
    }

    /** The console's role may publish configurations, but not ones that blow up the parser. */
    @Test
    void yamlBombFromTheConsoleRole_refusedInOneLine_configurationStays() throws Exception {
        StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for (char c = 'b'; c <= 'k'; c++) {
            char p = (char) (c - 1);
            bomb.append(c).append(": &").append(c).append(" [*").append(p).append(", *").append(p).append(", *").append(p)
                    .append(", *").append(p).append(", *").append(p).append(", *").append(p).append("]\n");
        }
        try (ControlBus console = new ControlBus(broker.tcpUrl(), "console", PW, "console").start()) {
            await().atMost(Duration.ofSeconds(20)).until(console::isConnected);
            console.publish(Topics.CONFIG, new ConfigMessage(BusMessage.SCHEMA, 7, bomb.toString(), "mallory", 0));
            console.publish(Topics.CONFIG, new ConfigMessage(BusMessage.SCHEMA, 8, "servers: [" + "[".repeat(500) + "]".repeat(500) + "]", "mallory", 0));
        }
        long v = gw.queues().caps().allocation().version();
        await().atMost(Duration.ofSeconds(20)).until(() -> gw.queues().caps().allocation().version() > v + 1);
        assertEquals(1, gw.config().servers().size());
        serviceAnswers();
    }

    @Test
    void shippedConfiguration_hasNoBrokerListener_andAListenerNeedsCredentials() throws Exception {
        Path shipped = Path.of(System.getProperty("user.dir")).resolveSibling("config").resolve("slagate.yaml");
        if (!shipped.toFile().exists()) {
            shipped = Path.of("config", "slagate.yaml");
        }
        SlagateConfig c = ConfigLoader.load(shipped);
        assertEquals("", c.bus().listen(), "bin/slagate start opens no broker port");
        try (EmbeddedBroker inVm = EmbeddedBroker.start("shipped-check", c.bus().listen(), null, null)) {
            assertNull(inVm.tcpUrl(), "no TCP connector");
        }
        ConfigException e = Assertions.assertThrows(ConfigException.class,
                () -> ConfigLoader.parse(yaml("http://127.0.0.1:1").replace("bus: { url: \"vm://unused\", embedded: false, gatewayAccounts: { gw1: [gw1], evil: [evil-gw] } }",
                        "bus: { listen: \"tcp://127.0.0.1:0\" }"), "listener.yaml"));
        assertTrue(e.getMessage().contains("bus.listen") && e.getMessage().contains("without authentication"), e.getMessage());
    }
}
