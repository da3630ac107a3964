package io.slagate.gateway;

import io.slagate.gateway.testing.TestConfigs;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.testing.Soap;
import io.slagate.gateway.testing.TestBackend;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The data plane's event loops: each runs both legs of its exchanges, so one stuck exchange must not
 * hold up the others on its loop, a loop's server connections serve only its own clients, and a
 * request admitted by another loop's completion is still answered, its own answer, once.
 */
class EventLoopTest {
    private final HttpClient client = new HttpClient();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeEach
    void startClient() throws Exception {
        client.setMaxConnectionsPerDestination(32);
        client.start();
    }

    @AfterEach
    void stopAll() throws Exception {
        client.stop();
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private Gateway start(String yaml) throws Exception {
        Gateway g = new Gateway(TestConfigs.parse(yaml, "test.yaml")).start();
        closeables.add(() -> g.stop(Duration.ofSeconds(2)));
        return g;
    }

    private Request post(Gateway g, String operation, String body) {
        return client.newRequest("http://127.0.0.1:" + g.port() + "/services/S").method(HttpMethod.POST)
                .headers(h -> h.put("SOAPAction", "\"" + operation + "\""))
                .body(new StringRequestContent("text/xml; charset=utf-8", body))
                .timeout(20, TimeUnit.SECONDS);
    }

    /** What a client got: the status and the body. */
    private record Answer(int getStatus, String getContentAsString) {
    }

    private static CompletableFuture<Answer> send(Request r) {
        CompletableFuture<Answer> f = new CompletableFuture<>();
        r.send(new BufferingResponseListener() {
            @Override
            public void onComplete(Result result) {
                if (result.isSucceeded()) {
                    f.complete(new Answer(result.getResponse().getStatus(), getContentAsString(StandardCharsets.UTF_8)));
                } else {
                    f.completeExceptionally(result.getFailure());
                }
            }
        });
        return f;
    }

    @Test
    void aServerThatNeverAnswers_doesNotDelayTheOtherExchangesOfItsLoop() throws Exception {
        TestBackend stuck = new TestBackend();
        closeables.add(stuck);
        stuck.behave(stuck.hold()); // takes the request, never answers until told
        TestBackend fine = new TestBackend();
        closeables.add(fine);
        fine.behave(TestBackend.echo());
        Gateway g = start("gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\", serverTimeout: 30s, loops: 1 }\n"
                + "servers:\n"
                + "  - { id: stuck, url: \"" + stuck.url() + "\", concurrency: 4, pool: slow }\n"
                + "  - { id: fine, url: \"" + fine.url() + "\", concurrency: 4, pool: quick }\n"
                + "classes:\n"
                + "  - { name: slow, target: 1s, pool: slow, queueBound: 100, queueTimeout: 30s }\n"
                + "  - { name: quick, target: 1s, pool: quick, queueBound: 1000, queueTimeout: 30s }\n"
                + "classification: { rules: [ { operation: \"urn:stuck\", class: slow } ], defaultClass: quick }\n");
        assertEquals(1, g.dataPlane().loops());

        CompletableFuture<Answer> waiting = send(post(g, "urn:stuck", Soap.envelope11("stuck")));
        TestBackend.Held held = stuck.takeHeld(10_000);
        assertTrue(held != null, "the stuck server never got its request");

        // 100 requests through the same (only) loop, from 8 connections, while the stuck exchange is open
        List<CompletableFuture<Answer>> quick = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            quick.add(send(post(g, "urn:getQuote", Soap.envelope11("q" + i))));
        }
        for (int i = 0; i < quick.size(); i++) {
            Answer r = quick.get(i).get(20, TimeUnit.SECONDS);
            assertEquals(200, r.getStatus());
            assertTrue(r.getContentAsString().contains("<ns:q" + i + " "), "request q" + i + " got another's answer: "
                    + r.getContentAsString());
        }
        assertFalse(waiting.isDone(), "the stuck exchange was answered without its server");

        held.reply(Soap.envelope11("late"));
        assertEquals(200, waiting.get(10, TimeUnit.SECONDS).getStatus());
        await().atMost(Duration.ofSeconds(5)).until(() -> g.metrics().totals().completed() == 101);
        assertEquals(0, g.metrics().totals().faulted());
        assertEquals(0, g.metrics().inFlight());
    }

    @Test
    void requestsAdmittedByAnotherLoopsCompletion_areAnsweredOnceWithTheirOwnAnswer() throws Exception {
        TestBackend b = new TestBackend();
        closeables.add(b);
        // echoes the body; executing counts from arrival until just before the answer leaves (the gateway
        // cannot learn sooner that a request ended, so a correct gateway never makes it exceed N_{g,s})
        AtomicInteger executing = new AtomicInteger();
        AtomicInteger maxExecuting = new AtomicInteger();
        b.behave(new Handler.Abstract() {
            @Override
            public boolean handle(org.eclipse.jetty.server.Request request, Response response,
                                  Callback callback) {
                maxExecuting.accumulateAndGet(executing.incrementAndGet(), Math::max);
                Content.Source.asString(request, StandardCharsets.UTF_8, new Promise<>() {
                    @Override
                    public void succeeded(String body) {
                        executing.decrementAndGet();
                        response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
                    }

                    @Override
                    public void failed(Throwable x) {
                        executing.decrementAndGet();
                        callback.failed(x);
                    }
                });
                return true;
            }
        }); // 300 requests at once on 32 connections queue behind the one slot
        Gateway g = start("gateway: { listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\", serverTimeout: 10s, loops: 2 }\n"
                + "servers:\n  - { id: s1, url: \"" + b.url() + "\", concurrency: 1 }\n"
                + "classes:\n  - { name: basic, target: 1s, queueBound: 10000, queueTimeout: 30s }\n");
        assertEquals(2, g.dataPlane().loops());
        long crossBefore = g.dataPlane().crossLoopTasks();

        int n = 300;
        List<CompletableFuture<Answer>> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(send(post(g, "urn:getQuote", Soap.envelope11("r" + i))));
        }
        for (int i = 0; i < n; i++) {
            Answer r = all.get(i).get(60, TimeUnit.SECONDS);
            assertEquals(200, r.getStatus(), "request r" + i);
            assertTrue(r.getContentAsString().contains("<ns:r" + i + " "), "request r" + i + " got another's answer: "
                    + r.getContentAsString());
        }
        assertEquals(1, maxExecuting.get(), "the server's one slot held");
        // client connections are spread over both loops, the one slot is freed on whichever loop its
        // exchange ran: about half the queued requests are admitted by the other loop's completion
        assertTrue(g.dataPlane().crossLoopTasks() - crossBefore > 10, "cross-loop admissions: " + (g.dataPlane().crossLoopTasks() - crossBefore));
        assertEquals(0, g.dataPlane().crossLoopHandOuts(0), "a server connection served an exchange of another loop");
        await().atMost(Duration.ofSeconds(5)).until(() -> g.metrics().totals().completed() == n);
        assertEquals(0, g.metrics().totals().faulted());
        assertEquals(0, g.metrics().inFlight());
        assertEquals(n, b.received());
    }
}
