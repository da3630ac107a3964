package io.slagate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServerKnobs;
import io.slagate.load.service.ServiceTime;
import io.slagate.load.service.WorkingSetModel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A synthetic server's knobs: the pool bounds what executes, resized live; the endpoint sets or refuses. */
class ServerKnobsTest {
    private static int peakWith(ServerKnobs k, int callers) throws InterruptedException {
        ServiceTime t = ServiceTime.of(Duration.ofMillis(3), 0);
        k.takePeak();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            Thread th = new Thread(() -> {
                for (int j = 0; j < 15; j++) {
                    k.perform(t, "getQuote");
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        return k.takePeak();
    }

    @Test
    void thePool_boundsWhatExecutes_andResizesLive() throws Exception {
        ServerKnobs k = new ServerKnobs(3, 0);
        assertEquals(3, peakWith(k, 10));
        k.workers(6);
        assertEquals(6, peakWith(k, 10));
        k.workers(2);
        assertEquals(2, peakWith(k, 10));
        assertThrows(IllegalArgumentException.class, () -> k.workers(0), "a bounded pool is not dropped");
        assertThrows(IllegalArgumentException.class, () -> k.workers(ServerKnobs.MAX_WORKERS + 1));
        assertEquals(2, k.workers());
    }

    @Test
    void theEndpoint_readsSetsAndRefuses_leavingTheSettingAsItWas() throws Exception {
        try (BackendServer b = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.of(Duration.ofMillis(1), 0).withWorkers(4), null,
                WorkingSetModel.store(500))) {
            HttpClient http = HttpClient.newHttpClient();
            String base = b.urls().get(0) + "/admin/knobs";
            assertEquals("{\"workers\":4,\"contentionKnee\":0,\"processors\":0,\"connectionCost\":0,\"cacheItems\":500}", get(http, base).trim());
            assertEquals(204, put(http, base + "/workers", "9").statusCode());
            assertEquals(204, put(http, base + "/contentionKnee", "6").statusCode());
            assertEquals(204, put(http, base + "/cacheItems", "1000").statusCode());
            assertEquals("{\"workers\":9,\"contentionKnee\":6,\"processors\":0,\"connectionCost\":0,\"cacheItems\":1000}", get(http, base).trim());
            assertEquals(9, b.knobs().get(0).workers());
            for (String[] bad : new String[][] {{"/workers", "many"}, {"/workers", "-1"}, {"/cacheItems", "99999"}, {"/colour", "3"},
                {"/processors", "-2"}, {"/connectionCost", "100000"}}) {
                HttpResponse<String> r = put(http, base + bad[0], bad[1]);
                assertEquals(400, r.statusCode(), bad[0] + " " + bad[1]);
                assertTrue(!r.body().isBlank(), "says why: " + r.body());
            }
            assertEquals("{\"workers\":9,\"contentionKnee\":6,\"processors\":0,\"connectionCost\":0,\"cacheItems\":1000}", get(http, base).trim(), "nothing changed");
        }
    }

    @Test
    void aConnectionCost_stretchesEveryRequestByThePoolPastTheKnee_busyOrIdle() {
        assertEquals(1, ServerKnobs.poolStretch(8, 8, 6), 1e-12, "up to the knee: none");
        assertEquals(1 + 0.06 * 24, ServerKnobs.poolStretch(32, 8, 6), 1e-12);
        assertEquals(1, ServerKnobs.poolStretch(32, 0, 6), 1e-12, "no knee: none");
        ServerKnobs k = new ServerKnobs(4, 8);
        assertThrows(IllegalArgumentException.class, () -> k.connectionCost(-1));
        k.connectionCost(6);
        assertEquals(6, k.connectionCost());
    }

    @Test
    void contentionPastTheKnee_stretchesEachRequest_soThroughputFallsAgain() {
        assertEquals(1, ServerKnobs.stretch(8, 8), 1e-12, "up to the knee: none");
        assertEquals(2, ServerKnobs.stretch(16, 8), 1e-12);
        assertEquals(5, ServerKnobs.stretch(24, 8), 1e-12);
        assertEquals(1, ServerKnobs.stretch(100, 0), 1e-12, "no knee: none");
        // throughput n / stretch(n): 8 at the knee, 8 at twice it, 4.8 at three times: an optimum to find
        assertTrue(24 / ServerKnobs.stretch(24, 8) < 8 / ServerKnobs.stretch(8, 8));
    }

    @Test
    void contentionConfinedToSomeOperations_leavesTheOthersAlone() {
        ServerKnobs k = new ServerKnobs(0, 4);
        assertTrue(k.contends("getQuote") && k.contends("buyShares"), "by default every operation contends");
        k.contendingOperations(Set.of("buyShares", "sellShares"));
        assertTrue(k.contends("buyShares"));
        assertTrue(!k.contends("getQuote"), "reads take no locks");
        k.contendingOperations(Set.of());
        assertTrue(k.contends("getQuote"), "empty: every operation again");
    }

    private static String get(HttpClient http, String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static HttpResponse<String> put(HttpClient http, String url, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).PUT(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
