package io.slagate.bus;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.HeartbeatMessage;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The bus client against a real embedded ActiveMQ broker, in-VM and over TCP on loopback. */
class ControlBusTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T track(T c) {
        open.add(c);
        return c;
    }

    private static HeartbeatMessage beat(String id) {
        return new HeartbeatMessage(BusMessage.SCHEMA, id, "test", HeartbeatMessage.ALIVE, 0, 0);
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void publishOverVm_receivedOverTcp() throws Exception {
        EmbeddedBroker broker = track(EmbeddedBroker.start("t1", "tcp://127.0.0.1:0", null, null));
        List<BusMessage> got = new CopyOnWriteArrayList<>();
        ControlBus sub = track(new ControlBus(broker.tcpUrl(), null, null, "sub").subscribe("t.hb", got::add).start());
        ControlBus pub = track(new ControlBus(broker.vmUrl(), null, null, "pub").start());
        await().atMost(DEADLINE).until(() -> sub.isConnected() && pub.isConnected());
        // a topic delivers only to consumers present when it is sent: publish until the first arrives
        await().atMost(DEADLINE).until(() -> {
            pub.publish("t.hb", beat("a"));
            return !got.isEmpty();
        });
        assertEquals(beat("a"), got.get(0));
    }

    @Test
    void malformedMessages_areSkipped_andTheListenerGoesOn() throws Exception {
        EmbeddedBroker broker = track(EmbeddedBroker.start("t2", "", null, null));
        List<BusMessage> got = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        ControlBus sub = track(new ControlBus(broker.vmUrl(), null, null, "sub").subscribe("t.x", m -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("a handler bug on the first message");
            }
            got.add(m);
        }).start());
        ControlBus pub = track(new ControlBus(broker.vmUrl(), null, null, "pub").start());
        await().atMost(DEADLINE).until(() -> sub.isConnected() && pub.isConnected());
        await().atMost(DEADLINE).until(() -> {
            pub.publish("t.x", beat("warm-up"));
            return calls.get() > 0;
        });
        long before = sub.malformed();
        pub.publishRaw("t.x", "garbage {");
        pub.publishRaw("t.x", "{\"type\":\"no-such-type\",\"schema\":1}");
        pub.publishRaw("t.x", "{\"type\":\"heartbeat\",\"schema\":99,\"componentId\":\"future\"}");
        pub.publishRaw("t.x", "");
        pub.publish("t.x", beat("after"));
        await().atMost(DEADLINE).until(() -> got.contains(beat("after")));
        assertEquals(4, sub.malformed() - before, "garbage, unknown type, newer schema, empty");
        assertFalse(got.stream().anyMatch(m -> m instanceof HeartbeatMessage h && "future".equals(h.componentId())));
    }

    @Test
    void brokerRestart_reconnects_subscriptionsRestored_andCallbackRunsAgain() throws Exception {
        int port = freePort();
        String listen = "tcp://127.0.0.1:" + port;
        EmbeddedBroker broker = EmbeddedBroker.start("t3", listen, null, null);
        AtomicInteger connectedCalls = new AtomicInteger();
        List<BusMessage> got = new CopyOnWriteArrayList<>();
        ControlBus sub = track(new ControlBus(listen, null, null, "sub").subscribe("t.r", got::add)
                .onConnected(connectedCalls::incrementAndGet).start());
        ControlBus pub = track(new ControlBus(listen, null, null, "pub").start());
        await().atMost(DEADLINE).until(() -> sub.isConnected() && pub.isConnected());
        assertEquals(1, connectedCalls.get());
        broker.close();
        await().atMost(DEADLINE).until(() -> !sub.isConnected());
        EmbeddedBroker again = track(EmbeddedBroker.start("t3", listen, null, null));
        await().atMost(DEADLINE).until(() -> sub.isConnected() && pub.isConnected());
        await().atMost(DEADLINE).until(() -> connectedCalls.get() == 2);
        await().atMost(DEADLINE).until(() -> {
            pub.publish("t.r", beat("after restart"));
            return got.contains(beat("after restart"));
        });
        assertTrue(again.tcpUrl().endsWith(":" + port));
    }

    @Test
    void startBeforeTheBroker_connectsWhenItComes() throws Exception {
        String listen = "tcp://127.0.0.1:" + freePort();
        ControlBus bus = track(new ControlBus(listen, null, null, "early").start());
        await().atMost(DEADLINE).until(() -> bus.lastError() != null);
        assertFalse(bus.isConnected());
        assertTrue(bus.publish("t.e", beat("while down")) || bus.dropped() > 0, "publishing while down never blocks nor throws");
        track(EmbeddedBroker.start("t4", listen, null, null));
        await().atMost(DEADLINE).until(bus::isConnected);
    }

    @Test
    void authentication_wrongPasswordRefused_rightOneAccepted() throws Exception {
        EmbeddedBroker broker = track(EmbeddedBroker.start("t5", "tcp://127.0.0.1:0", "gw", "s3cret-for-test"));
        ControlBus wrong = track(new ControlBus(broker.tcpUrl(), "gw", "guess", "wrong").start());
        ControlBus none = track(new ControlBus(broker.vmUrl(), null, null, "anonymous").start());
        ControlBus right = track(new ControlBus(broker.tcpUrl(), "gw", "s3cret-for-test", "right").start());
        await().atMost(DEADLINE).until(right::isConnected);
        await().atMost(DEADLINE).until(() -> wrong.lastError() != null && none.lastError() != null);
        assertFalse(wrong.isConnected());
        assertFalse(none.isConnected());
        assertFalse(wrong.lastError().contains("s3cret"), "no secret in errors: " + wrong.lastError());
    }

    @Test
    void refusedCredentials_reportedOnce_andNotRetried() throws Exception {
        EmbeddedBroker broker = track(EmbeddedBroker.start("t7", "tcp://127.0.0.1:0", "gw", "s3cret-for-test"));
        List<String> refusals = new CopyOnWriteArrayList<>();
        ControlBus wrong = track(new ControlBus(broker.tcpUrl(), "gw", "guess", "wrong").onRefused(refusals::add).start());
        await().atMost(DEADLINE).until(() -> !refusals.isEmpty());
        assertTrue(refusals.get(0).startsWith("bus authentication refused for user 'gw'"), refusals.get(0));
        assertFalse(refusals.get(0).contains("guess"), "no secret in the reason: " + refusals.get(0));
        assertEquals(refusals.get(0), wrong.refusal());
        // a callback registered after the refusal hears of it too
        List<String> late = new CopyOnWriteArrayList<>();
        wrong.onRefused(late::add);
        await().atMost(DEADLINE).until(() -> !late.isEmpty());
        // not retried: a retry would fail again and report again. Proving an absence takes a window; 600 ms holds
        // three retries at the bus's first backoffs (100, 200, 400 ms)
        String before = wrong.lastError();
        Thread.sleep(600);
        assertEquals(1, refusals.size(), "reported once: " + refusals);
        assertFalse(wrong.isConnected());
        assertEquals(before, wrong.lastError());
        // a network failure is not a refusal: that one is retried
        ControlBus nobody = track(new ControlBus("tcp://127.0.0.1:" + freePort(), "gw", "guess", "nobody").start());
        await().atMost(DEADLINE).until(() -> nobody.lastError() != null);
        assertEquals(null, nobody.refusal());
    }

    @Test
    void effectiveUrl_wrapsTcpInFailover_andVmNeverCreatesABroker() {
        assertEquals("vm://slagate?create=false", BusConnections.effectiveUrl("vm://slagate"));
        assertTrue(BusConnections.effectiveUrl("tcp://h:61616").startsWith("failover:(tcp://h:61616)?"));
        assertEquals("failover:(tcp://a:1,tcp://b:2)?initialReconnectDelay=100&maxReconnectDelay=2000&timeout=3000",
                BusConnections.effectiveUrl("failover:(tcp://a:1,tcp://b:2)"));
        assertEquals("failover:(tcp://a:1)?timeout=10&maxReconnectDelay=500&initialReconnectDelay=100",
                BusConnections.effectiveUrl("failover:(tcp://a:1)?timeout=10&maxReconnectDelay=500"), "the operator's own settings stay");
    }

    /**
     * A broker down for several seconds (long enough for ActiveMQ's default backoff to grow
     * to tens of seconds) is reconnected within 3 s of its return, whether the bus URL is a plain tcp://
     * one (which the bus wraps) or the operator's own failover:(…).
     */
    @Test
    void brokerBackAfterSeconds_bothUrlForms_reconnectWithinThreeSeconds() throws Exception {
        int port = freePort();
        String listen = "tcp://127.0.0.1:" + port;
        EmbeddedBroker broker = EmbeddedBroker.start("t6", listen, null, null);
        ControlBus plain = track(new ControlBus(listen, null, null, "plain").start());
        ControlBus failover = track(new ControlBus("failover:(" + listen + ")", null, null, "failover").start());
        await().atMost(DEADLINE).until(() -> plain.isConnected() && failover.isConnected());
        broker.close();
        await().atMost(DEADLINE).until(() -> !plain.isConnected() && !failover.isConnected());
        long downSince = System.nanoTime();
        // the outage itself, not a wait for a condition: the backoff of a client grows while the broker is away
        await().pollDelay(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(9)).until(() -> System.nanoTime() - downSince > 7_900_000_000L);
        track(EmbeddedBroker.start("t6", listen, null, null));
        long back = System.nanoTime();
        await().atMost(DEADLINE).until(() -> plain.isConnected() && failover.isConnected());
        double seconds = (System.nanoTime() - back) / 1e9;
        assertTrue(seconds < 3, "reconnected " + seconds + " s after the broker was back");
    }
}
