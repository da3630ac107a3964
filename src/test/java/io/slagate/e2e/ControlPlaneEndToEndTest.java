package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.ControlBus;
import io.slagate.bus.EmbeddedBroker;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.agent.GatewayAgent;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.testing.TestBackend;
import io.slagate.rm.ControlLoop;
import io.slagate.rm.Overrides;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.awaitility.Awaitility;
import org.eclipse.jetty.client.HttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The control loop end to end on a real ActiveMQ broker over TCP: two gateways and a resource
 * manager, two backends, closed-loop load through both gateways. Both gateways get allocations
 * whose caps split every server's N_s exactly; the premium class, far from its target, gains
 * weight; a restarted resource manager takes over with newer versions; after a broker restart
 * everything reconnects — and every client request is answered throughout.
 */
class ControlPlaneEndToEndTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final int N_S = 8;

    private final List<AutoCloseable> open = new ArrayList<>();
    private String listen;
    private EmbeddedBroker broker;
    private ControlLoop rm;
    private ControlBus rmBus;

    @AfterEach
    void closeAll() throws Exception {
        if (rm != null) {
            rm.close();
            rmBus.close();
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private String yaml(String gatewayId, String s1, String s2) {
        return """
                gateway:
                  id: %s
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  stats: { reportingInterval: 300ms, window: 1500ms }
                servers:
                  - { id: s1, url: "%s", concurrency: %d }
                  - { id: s2, url: "%s", concurrency: %d }
                classes:
                  - { name: premium, target: 50ms }
                  - { name: basic, target: 5s }
                classification: { rules: [ { operation: "urn:premium", class: premium } ], defaultClass: basic }
                allocation: { weights: { premium: 1, basic: 1 } }
                bus: { url: "%s", embedded: false }
                controller: { cycle: 300ms, combining: min, gatewayExpiry: 5 }
                """.formatted(gatewayId, s1, N_S, s2, N_S, listen);
    }

    private void startResourceManager(SlagateConfig config) {
        rmBus = new ControlBus(listen, null, null, "rm");
        rm = new ControlLoop("rm", config, rmBus, new Overrides(), new SimpleMeterRegistry());
        rmBus.start();
        rm.start();
    }

    /** Both gateways hold the same allocation version, newer than {@code after}, and Σ_g N_{g,s} = N_s on each server. */
    private static boolean consistent(Gateway g1, Gateway g2, long after) {
        Allocation a1 = g1.queues().caps().allocation();
        Allocation a2 = g2.queues().caps().allocation();
        return a1.version() > after && a1.version() == a2.version()
                && a1.cap(0) + a2.cap(0) == N_S && a1.cap(1) + a2.cap(1) == N_S;
    }

    private static long version(Gateway g) {
        return g.queues().caps().allocation().version();
    }

    /*
     * Sizing: each gateway starts with 4 slots per class; 6 closed-loop clients per class and a
     * 40 ms service give premium about 6/(4/40 ms) = 60 ms against its 50 ms target, basic far
     * under its 5 s. The M/M/1 model then predicts that one slot moved from basic to premium
     * meets both targets (premium ~46 ms, basic ~120 ms): premium's weight must rise above basic's.
     */
    @Test
    void twoGateways_resourceManagerAndBrokerRestarts_allocationsStayConsistent_noRequestLost() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            listen = "tcp://127.0.0.1:" + s.getLocalPort();
        }
        broker = EmbeddedBroker.start("e2e-control", listen, null, null);
        TestBackend b1 = new TestBackend();
        TestBackend b2 = new TestBackend();
        open.add(b1);
        open.add(b2);
        b1.behave(b1.delayed(40));
        b2.behave(b2.delayed(40));
        Gateway[] gws = new Gateway[2];
        ControlBus[] buses = new ControlBus[2];
        SlagateConfig rmConfig = null;
        for (int i = 0; i < 2; i++) {
            SlagateConfig c = ConfigLoader.parse(yaml("gw" + (i + 1), b1.url(), b2.url()), "e2e-gw" + (i + 1));
            rmConfig = c;
            gws[i] = new Gateway(c);
            buses[i] = new ControlBus(listen, null, null, "gw" + (i + 1));
            GatewayAgent agent = new GatewayAgent(gws[i], buses[i]);
            gws[i].start();
            buses[i].start();
            Gateway g = gws[i];
            ControlBus b = buses[i];
            open.add(() -> g.stop(Duration.ofSeconds(5)));
            open.add(b);
            open.add(agent);
        }
        startResourceManager(rmConfig);
        HttpClient client = new HttpClient();
        client.setMaxConnectionsPerDestination(64);
        client.start();
        open.add(client::stop);
        List<ClosedLoopLoad> loads = new ArrayList<>();
        for (Gateway g : gws) {
            loads.add(new ClosedLoopLoad(client, g.port(), "urn:premium", 6));
            loads.add(new ClosedLoopLoad(client, g.port(), "urn:basic", 6));
        }

        await("both gateways on one allocation splitting each N_s").atMost(DEADLINE)
                .until(() -> consistent(gws[0], gws[1], 0));
        await("premium, far over its target, gains weight at both gateways").atMost(DEADLINE).until(() -> {
            for (Gateway g : gws) {
                Allocation a = g.queues().caps().allocation();
                if (!(a.weight(0) > a.weight(1))) {
                    return false;
                }
            }
            return true;
        });

        // The resource manager dies; a new one takes over with newer versions.
        long beforeRestart = Math.max(version(gws[0]), version(gws[1]));
        rm.close();
        rmBus.close();
        startResourceManager(rmConfig);
        await("the restarted manager's allocations are applied").atMost(DEADLINE)
                .until(() -> consistent(gws[0], gws[1], beforeRestart));

        // The broker dies: gateways keep serving with what they have, then reconnect.
        broker.close();
        await().atMost(DEADLINE).until(() -> !buses[0].isConnected() && !buses[1].isConnected());
        long servedBefore = loads.stream().mapToLong(ClosedLoopLoad::ok).sum();
        long versionWhileDown = Math.max(version(gws[0]), version(gws[1]));
        await("requests keep completing while the bus is down").atMost(DEADLINE)
                .until(() -> loads.stream().mapToLong(ClosedLoopLoad::ok).sum() > servedBefore + 200);
        broker = EmbeddedBroker.start("e2e-control", listen, null, null);
        await("everything reconnects").atMost(DEADLINE)
                .until(() -> buses[0].isConnected() && buses[1].isConnected() && rmBus.isConnected());
        await("allocations flow again").atMost(DEADLINE).until(() -> consistent(gws[0], gws[1], versionWhileDown));

        for (ClosedLoopLoad l : loads) {
            l.close();
        }
        long sent = loads.stream().mapToLong(ClosedLoopLoad::sent).sum();
        long ok = loads.stream().mapToLong(ClosedLoopLoad::ok).sum();
        long failed = loads.stream().mapToLong(ClosedLoopLoad::failed).sum();
        assertEquals(0, failed, "no request failed: " + loads.stream().map(ClosedLoopLoad::lastFailure).toList());
        assertEquals(sent, ok, "every request sent was answered");
        for (ClosedLoopLoad l : loads) {
            assertTrue(l.ok() > 0, "every client group was served");
        }
        for (Gateway g : gws) {
            // a completion is counted once its last write's callback ran, which may be just after the client read it
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().inFlight() == 0);
            assertEquals(g.metrics().totals().arrived(), g.metrics().totals().completed() + g.metrics().totals().faulted(),
                    "the gateway's counters balance");
        }
    }

    /**
     * With a control cycle of one hour, no allocation can come from the timer during the test: a
     * gateway that joins gets one at once, and a second gateway joining makes the manager re-split
     * the caps for both, still at once.
     */
    @Test
    void lateJoiningGateways_getAnAllocationAtOnce_notACycleLater() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            listen = "tcp://127.0.0.1:" + s.getLocalPort();
        }
        broker = EmbeddedBroker.start("e2e-join", listen, null, null);
        TestBackend b1 = new TestBackend();
        open.add(b1);
        String hourly = yaml("gw1", b1.url(), b1.url()).replace("cycle: 300ms", "cycle: 1h")
                .replace("reportingInterval: 300ms, window: 1500ms", "reportingInterval: 10m, window: 10m");
        startResourceManager(ConfigLoader.parse(hourly, "e2e-rm"));
        await().atMost(DEADLINE).until(rmBus::isConnected);
        await("alone, the manager is active once it has listened, and decides at once").atMost(DEADLINE)
                .until(() -> rm.status().active() && rm.status().cycles() == 1);
        long cyclesBefore = rm.status().cycles(); // the one it ran on becoming active
        Gateway[] gws = new Gateway[2];
        for (int i = 0; i < 2; i++) {
            SlagateConfig c = ConfigLoader.parse(hourly.replace("id: gw1", "id: gw" + (i + 1)), "e2e-gw" + (i + 1));
            gws[i] = new Gateway(c).start();
            ControlBus bus = new ControlBus(listen, null, null, "gw" + (i + 1));
            GatewayAgent agent = new GatewayAgent(gws[i], bus);
            bus.start();
            Gateway g = gws[i];
            open.add(() -> g.stop(Duration.ofSeconds(2)));
            open.add(bus);
            open.add(agent);
            if (i == 0) {
                await("the first gateway gets an allocation on joining").atMost(DEADLINE).until(() -> version(g) > 0);
                assertEquals(2 * N_S, g.queues().caps().allocation().totalCap(), "alone, it has every slot");
            }
        }
        await("both hold one allocation splitting every N_s").atMost(DEADLINE).until(() -> consistent(gws[0], gws[1], 0));
        assertEquals(2, rm.status().cycles() - cyclesBefore, "two decisions, both triggered by joins (no timer cycle in an hour, no report in ten minutes)");
    }
}
