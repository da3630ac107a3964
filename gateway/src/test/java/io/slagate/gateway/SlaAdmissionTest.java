package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.proxy.GatewayExchangeAccess;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.testing.RawHttp;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Customers and deadlines at one gateway over real HTTP: a customer flooding its class waits in its own lane while the
 * class's other customers keep their turns; a request that can no longer meet its deadline is answered
 * with deadline-exceeded instead of being sent, and one that is sent carries what is left of its deadline.
 */
class SlaAdmissionTest {
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private Gateway gateway(String backendUrl, String classExtra) throws Exception {
        Gateway g = new Gateway(TestConfigs.parse("""
                gateway: { listen: "127.0.0.1:0", admin: "127.0.0.1:0" }
                servers: [ { id: s1, url: "%s", concurrency: 1 } ]
                classes: [ { name: basic, target: 1s, queueTimeout: 20s%s } ]
                classification: { customerFrom: "header:X-Customer" }
                """.formatted(backendUrl, classExtra), "sla.yaml")).start();
        closeables.add(() -> g.stop(Duration.ofSeconds(2)));
        return g;
    }

    private static CompletableFuture<RawHttp.Response> send(int port, String headers) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return RawHttp.exchange(port, RawHttp.post("/services/S", headers, Soap.envelope11("getQuote")));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** The order in which a noisy customer's 12 requests and a quiet one's 2, sent just after, are answered. */
    private List<String> answerOrder(String fairness) throws Exception {
        TestBackend b = new TestBackend();
        closeables.add(b);
        b.behave(b.hold());
        Gateway g = gateway(b.url(), ", fairness: " + fairness);
        List<String> order = new CopyOnWriteArrayList<>();
        List<CompletableFuture<RawHttp.Response>> all = new ArrayList<>();
        // the first one alone, so that it is in service before the others queue: otherwise its lane is either idle
        // (the next noisy request opens a fresh lane, served before quiet's) or backlogged (quiet's fresh lane goes
        // first), by a race between the scheduler and the arrivals
        all.add(send(g.port(), "X-Customer: noisy\r\n").whenComplete((r, x) -> order.add("noisy")));
        await().atMost(Duration.ofSeconds(10)).until(() -> b.heldCount() == 1);
        for (int i = 1; i < 12; i++) {
            all.add(send(g.port(), "X-Customer: noisy\r\n").whenComplete((r, x) -> order.add("noisy")));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> g.queues().counts().waiting(0) == 11 && b.heldCount() == 1);
        for (int i = 0; i < 2; i++) {
            all.add(send(g.port(), "X-Customer: quiet\r\n").whenComplete((r, x) -> order.add("quiet")));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> g.queues().counts().waiting(0) == 13);
        for (int i = 0; i < 14; i++) { // one slot: answer the held request, the next one is admitted and held
            b.takeHeld(10_000).reply("<ok/>");
            int answered = i + 1;
            await().atMost(Duration.ofSeconds(10)).until(() -> order.size() == answered);
        }
        for (CompletableFuture<RawHttp.Response> f : all) {
            assertEquals(200, f.get(10, TimeUnit.SECONDS).status());
        }
        assertEquals(14, g.metrics().totals().completed());
        return order;
    }

    @Test
    void noisyCustomer_waitsInItsOwnLane_theQuietOneKeepsItsTurns() throws Exception {
        List<String> fair = answerOrder("customers");
        // the noisy customer's first request was being served; then the lanes alternate: quiet is answered 3rd and 5th
        assertEquals(List.of("noisy", "noisy", "quiet", "noisy", "quiet"), fair.subList(0, 5), fair.toString());
        List<String> fifo = answerOrder("none");
        assertEquals(List.of("quiet", "quiet"), fifo.subList(12, 14), "one FIFO: the quiet customer waits behind the flood");
    }

    @Test
    void customerQueueBound_refusesTheFloodingCustomer_notTheOthers() throws Exception {
        TestBackend b = new TestBackend();
        closeables.add(b);
        b.behave(b.hold());
        Gateway g = gateway(b.url(), ", customerQueueBound: 3");
        List<CompletableFuture<RawHttp.Response>> noisy = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            noisy.add(send(g.port(), "X-Customer: noisy\r\n"));
        }
        // one in service, three waiting, two refused
        await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().faulted(FaultReason.QUEUE_FULL) == 2);
        CompletableFuture<RawHttp.Response> quiet = send(g.port(), "X-Customer: quiet\r\n");
        await().atMost(Duration.ofSeconds(10)).until(() -> g.queues().counts().waiting(0) == 4);
        for (int i = 0; i < 5; i++) {
            b.takeHeld(10_000).reply("<ok/>");
        }
        assertEquals(200, quiet.get(10, TimeUnit.SECONDS).status());
        long refused = noisy.stream().map(f -> f.join().header("X-Slagate-Fault")).filter("queue-full"::equals).count();
        assertEquals(2, refused);
        assertEquals(7, g.metrics().totals().arrived());
        await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().inFlight() == 0); // the last completions counted
        assertEquals(g.metrics().totals().arrived(), g.metrics().totals().completed() + g.metrics().totals().faulted(), "counters balance");
    }

    @Test
    void deadline_notMetInTheQueue_isAnsweredNotSent_andTheRestIsPassedOn() throws Exception {
        TestBackend b = new TestBackend();
        closeables.add(b);
        b.behave(b.hold());
        Gateway g = gateway(b.url(), ", deadline: 5s");
        CompletableFuture<RawHttp.Response> first = send(g.port(), "");
        await().atMost(Duration.ofSeconds(10)).until(() -> b.heldCount() == 1);
        // waits behind it; the client gives it 150 ms, which run out in the queue
        RawHttp.Response late = send(g.port(), "X-Request-Deadline: 150\r\n").get(10, TimeUnit.SECONDS);
        assertEquals("deadline-exceeded", late.header("X-Slagate-Fault"));
        assertEquals(1, b.received(), "never sent to the server");
        assertTrue(late.header("Retry-After") != null, "retryable: " + late.headers());
        // a header that does not parse is ignored (counted): the class's deadline applies
        CompletableFuture<RawHttp.Response> odd = send(g.port(), "X-Request-Deadline: soon\r\n");
        await().atMost(Duration.ofSeconds(10)).until(() -> g.queues().counts().waiting(0) == 1);
        b.takeHeld(10_000).reply("<ok/>");
        assertEquals(200, first.get(10, TimeUnit.SECONDS).status());
        b.takeHeld(10_000).reply("<ok/>");
        assertEquals(200, odd.get(10, TimeUnit.SECONDS).status());
        long passedOn = Long.parseLong(b.lastHeaders().get("X-Request-Deadline"));
        assertTrue(passedOn > 0 && passedOn <= 5000, "what is left of the class's 5 s: " + passedOn);
        assertEquals("basic", b.lastHeaders().get("X-Slagate-Class"));
        assertEquals(1.0, g.registry().get("slagate.requests.deadline.header.invalid").counter().count());
        assertEquals(3, g.metrics().totals().arrived());
        // the client may read the last byte before the gateway's write callback has counted the completion: poll
        await().atMost(Duration.ofSeconds(10)).until(() -> g.metrics().inFlight() == 0);
        assertEquals(g.metrics().totals().arrived(), g.metrics().totals().completed() + g.metrics().totals().faulted(), "counters balance");
        assertEquals(1, g.metrics().faulted(FaultReason.DEADLINE_EXCEEDED));
    }

    @Test
    void deadlineHeader_parsing() {
        assertEquals(150, GatewayExchangeAccess.parseMillis("150"));
        assertEquals(0, GatewayExchangeAccess.parseMillis(" 0 "));
        for (String bad : new String[] {"", "-5", "1.5", "soon", "99999999", "3600001", "１２"}) {
            assertEquals(-1, GatewayExchangeAccess.parseMillis(bad), bad);
        }
    }
}
