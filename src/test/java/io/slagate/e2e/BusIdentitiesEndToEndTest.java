package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.node.EmbeddedSystem;
import io.slagate.bus.ControlBus;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.ConfigLoader;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded system on an authenticated listener with role accounts and no {@code bus.user}: its
 * own parts authenticate with an in-process account, a remote gateway joins with its own account,
 * and that account cannot speak for other gateways, neither to the manager nor to the console.
 */
class BusIdentitiesEndToEndTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /** Every account's password comes from an environment variable; PATH is set wherever the tests run. */
    private static final String PASSWORD = System.getenv("PATH");

    @TempDir
    Path dir;

    @Test
    void accountsWithoutBusUser_start_andAGatewayAccountSpeaksOnlyForItsGateway() throws Exception {
        int brokerPort;
        try (ServerSocket s = new ServerSocket(0)) {
            brokerPort = s.getLocalPort();
        }
        try (TestBackend backend = new TestBackend()) {
            Path file = dir.resolve("slagate.yaml");
            Files.writeString(file, """
                    gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", stats: { reportingInterval: 200ms, window: 1s } }
                    servers: [ { id: s1, url: "%s", concurrency: 8 } ]
                    classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                    bus:
                      url: vm://identities
                      listen: tcp://127.0.0.1:%d
                      accounts:
                        - { user: rm, role: resource-manager, passwordEnv: PATH }
                        - { user: gw2, role: gateway, passwordEnv: PATH }
                        - { user: gw3, role: gateway, passwordEnv: PATH }
                        - { user: console, role: console, passwordEnv: PATH }
                      gatewayAccounts: { gw2: [gw2] }
                    controller: { cycle: 200ms, gatewayExpiry: 10 }
                    console: { listen: "127.0.0.1:0" }
                    """.formatted(backend.url(), brokerPort));
            try (EmbeddedSystem system = EmbeddedSystem.start(ConfigLoader.load(file), EmbeddedSystem.Parts.ALL)) {
                await("the in-process gateway gets its allocation").atMost(DEADLINE)
                        .until(() -> system.gateway().queues().caps().allocation().version() > 0);
                assertEquals(200, RawHttp.exchange(system.gateway().port(),
                        RawHttp.post("/services/S", "", Soap.envelope11("getQuote"))).status());

                // a remote gateway with its own account: it joins, the manager splits the server between the two
                try (ControlBus gw2 = new ControlBus("tcp://127.0.0.1:" + brokerPort, "gw2", PASSWORD, "gw2").start()) {
                    await().atMost(DEADLINE).until(gw2::isConnected);
                    gw2.publish(Topics.HEARTBEAT_GATEWAY, new HeartbeatMessage(BusMessage.SCHEMA, "gw2", "gateway",
                            HeartbeatMessage.JOIN, System.currentTimeMillis(), 0));
                    await("gw2 is in the allocation").atMost(DEADLINE).until(() -> system.controlLoop().status().lastAllocation() != null
                            && system.controlLoop().status().lastAllocation().gateways().keySet().equals(Set.of("gw1", "gw2")));
                    long refused = system.controlLoop().status().counts().refusedMessages();
                    long consoleRefused = system.console().state().refused();
                    // the same account inventing gateways and speaking for gw1
                    for (int i = 0; i < 50; i++) {
                        gw2.publish(Topics.HEARTBEAT_GATEWAY, new HeartbeatMessage(BusMessage.SCHEMA, "fake-" + i, "gateway",
                                HeartbeatMessage.JOIN, System.currentTimeMillis(), 0));
                        gw2.publish(Topics.STATS, new StatsMessage(BusMessage.SCHEMA, "fake-" + i, 1, System.currentTimeMillis(), 1.0, 0,
                                List.of(), List.of()));
                    }
                    gw2.publish(Topics.STATS, new StatsMessage(BusMessage.SCHEMA, "gw1", 1, System.currentTimeMillis(), 1.0, 0,
                            List.of(), List.of()));
                    await("the manager refuses and counts all 101").atMost(DEADLINE)
                            .until(() -> system.controlLoop().status().counts().refusedMessages() >= refused + 101);
                    await("so does the console").atMost(DEADLINE)
                            .until(() -> system.console().state().refused() >= consoleRefused + 101);
                    long v = system.gateway().queues().caps().allocation().version();
                    await().atMost(DEADLINE).until(() -> system.gateway().queues().caps().allocation().version() > v + 2);
                    Set<String> allocated = system.controlLoop().status().lastAllocation().gateways().keySet();
                    assertTrue(allocated.contains("gw1") && allocated.stream().noneMatch(g -> g.startsWith("fake-")), allocated.toString());
                    assertTrue(system.console().state().gateways().keySet().stream().noneMatch(g -> g.startsWith("fake-")),
                            "the console shows real gateways only: " + system.console().state().gateways().keySet());
                    assertTrue(system.console().state().gateways().containsKey("gw1"));
                }

                // a real gateway whose account (gw3) is bound to no id: refused, and it says why on /ready and in a metric
                Path gw3File = dir.resolve("gw3.yaml");
                Files.writeString(gw3File, """
                        gateway: { id: gw3, listen: "127.0.0.1:0", admin: "127.0.0.1:0", stats: { reportingInterval: 200ms, window: 1s } }
                        servers: [ { id: s1, url: "%s", concurrency: 8 } ]
                        classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                        bus: { url: "tcp://127.0.0.1:%d", embedded: false, user: gw3, passwordEnv: PATH }
                        """.formatted(backend.url(), brokerPort));
                try (EmbeddedSystem gw3 = EmbeddedSystem.start(ConfigLoader.load(gw3File), EmbeddedSystem.Parts.GATEWAY)) {
                    await("gw3 hears its refusal").atMost(DEADLINE).until(() -> {
                        String why = gw3.gateway().readiness().reason();
                        return why != null && why.contains("refused this gateway's join") && why.contains("not bound");
                    });
                    assertTrue(gw3.gateway().registry().get("slagate.bus.roster.refused").functionCounter().count() >= 1);
                    assertTrue(system.controlLoop().status().lastAllocation().gateways().keySet().stream().noneMatch("gw3"::equals));
                }
            }
        }
    }
}
