package io.slagate.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.ConfigLoader;
import io.slagate.gateway.Gateway;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import io.slagate.load.service.WorkingSetModel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Locality dispatch through a real gateway to two real Axis2 Bookstore servers. Two families of
 * operations read disjoint tables (the front page: promotions and lists; the customer pages: customers and
 * orders); each family fits one server's cache, both do not. Once the gateway has learned the working sets
 * the servers declare, each family runs on its own server, so nearly every read is a cache hit; a server
 * that fails takes its family to the other server at once, and no client sees it.
 */
class LocalityDispatchEndToEndTest {
    private static final String[] FRONT = {"home", "newProducts", "bestSellers"};
    private static final String[] CUSTOMER = {"customerRegistration", "orderInquiry", "orderDisplay"};
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void eachFamilyRunsWhereItsDataIs_andAFailedServersFamilyMovesWithoutALostRequest() throws Exception {
        // 400 items: front page 100 (promo 40 + lists 60), customer pages 110 (customers 50 + orders 60); caches of 120
        WorkingSetModel model = new WorkingSetModel(400, 120, Duration.ZERO, Duration.ZERO, Duration.ZERO, 4, 10);
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0, 0), ServiceTime.of(Duration.ofMillis(1), 0), null, model)) {
            String yaml = """
                    gateway:
                      id: gw1
                      listen: "127.0.0.1:0"
                      admin: "127.0.0.1:0"
                      loadBalancing: { store: locality }
                      locality: { remapInterval: 200ms }
                      health: { failuresToEject: 1, backoff: 10s, maxBackoff: 10s }
                    servers:
                      - { id: s1, url: "%s", concurrency: 8, pool: store }
                      - { id: s2, url: "%s", concurrency: 8, pool: store }
                    classes:
                      - { name: shop, target: 1s, pool: store }
                    """.formatted(backend.urls().get(0), backend.urls().get(1));
            Gateway gw = new Gateway(ConfigLoader.parse(yaml, "locality-e2e")).start();
            try {
                String url = "http://127.0.0.1:" + gw.port() + "/services/Bookstore";
                String stats = "http://127.0.0.1:" + gw.adminPort() + "/stats";
                // a hostile client first: 300 made-up operations, each answered (by Axis2's fault), none learned as a type
                for (int i = 0; i < 300; i++) {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "text/xml")
                            .header("SOAPAction", "urn:madeUp" + i).POST(HttpRequest.BodyPublishers.ofString(
                                    "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body>"
                                            + "<x/></soapenv:Body></soapenv:Envelope>")).build(), HttpResponse.BodyHandlers.ofString());
                    assertTrue(r.statusCode() >= 400, "a made-up operation is the server's fault to answer: " + r.statusCode());
                }
                int sent = 300;
                // learn: until the mapping puts each family on a server of its own (polled, with a deadline)
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (!familiesApart(get(stats))) {
                    assertTrue(System.nanoTime() < deadline, "no mapping with the families apart: " + get(stats).path("locality"));
                    sendRound(url);
                    sent += FRONT.length + CUSTOMER.length;
                }
                // warm: each server's cache fills with its family's items; then measure the hit ratio the servers report
                for (int i = 0; i < 60; i++) {
                    sendRound(url);
                }
                int[] hitsMisses = new int[2];
                for (int i = 0; i < 40; i++) {
                    sendRound(url, hitsMisses);
                }
                sent += 100 * (FRONT.length + CUSTOMER.length);
                double hitRatio = hitsMisses[0] / (double) (hitsMisses[0] + hitsMisses[1]);
                // dispatched without regard to the families, each cache would hold 120 of the 210 items in use: about 57%
                assertTrue(hitRatio > 0.9, "hit ratio " + hitRatio + " with the families apart");

                JsonNode before = get(stats);
                String failing = serverOf(before, "/services/Bookstore urn:home");
                backend.stop(failing.equals("s1") ? 0 : 1);
                for (int i = 0; i < 30; i++) {
                    sendRound(url); // every request answered 200: the one that met the dead server went to the other, unsent
                }
                sent += 30 * (FRONT.length + CUSTOMER.length);
                JsonNode after = get(stats);
                assertEquals(FRONT.length + CUSTOMER.length, after.path("locality").get(0).path("types").asInt(),
                        "only the operations the servers answered are types; the made-up ones took no place");
                for (JsonNode g : after.path("locality").get(0).path("groups")) {
                    assertFalse(failing.equals(g.path("server").asText()), "a group still on the failed server: " + after.path("locality"));
                }
                long deadlineBalance = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                JsonNode last = get(stats);
                while (last.path("completed").asLong() != sent && System.nanoTime() < deadlineBalance) {
                    last = get(stats);
                }
                assertEquals(sent, last.path("arrived").asLong());
                assertEquals(sent, last.path("completed").asLong(), "every request answered by a server");
                assertEquals(0, last.path("faulted").asLong());
            } finally {
                gw.stop(Duration.ofSeconds(2));
            }
        }
    }

    private void sendRound(String url) throws Exception {
        sendRound(url, null);
    }

    private void sendRound(String url, int[] hitsMisses) throws Exception {
        List<String> ops = new ArrayList<>(List.of(FRONT));
        ops.addAll(List.of(CUSTOMER));
        for (String op : ops) {
            String body = "<?xml version=\"1.0\"?><soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                    + " xmlns:ns=\"http://service.load.slagate.io\"><soapenv:Body><ns:" + op + "><ns:who>t</ns:who></ns:" + op
                    + "></soapenv:Body></soapenv:Envelope>";
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "text/xml")
                    .header("SOAPAction", "urn:" + op).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), op + ": " + r.body());
            assertTrue(r.body().contains(op + ": "), "its own answer: " + r.body());
            if (hitsMisses != null) {
                String[] hm = r.headers().firstValue(WorkingSetModel.CACHE_HEADER).orElseThrow().split("/");
                hitsMisses[0] += Integer.parseInt(hm[0]);
                hitsMisses[1] += Integer.parseInt(hm[1]);
            }
        }
    }

    private JsonNode get(String url) throws Exception {
        return JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    /** Whether the mapping has two groups on two servers, one family in each. */
    private static boolean familiesApart(JsonNode stats) {
        JsonNode groups = stats.path("locality").path(0).path("groups");
        if (groups.size() != 2) {
            return false;
        }
        String front = serverOf(stats, "/services/Bookstore urn:" + FRONT[0]);
        for (String op : FRONT) {
            if (!front.equals(serverOf(stats, "/services/Bookstore urn:" + op))) {
                return false;
            }
        }
        String customer = serverOf(stats, "/services/Bookstore urn:" + CUSTOMER[0]);
        for (String op : CUSTOMER) {
            if (!customer.equals(serverOf(stats, "/services/Bookstore urn:" + op))) {
                return false;
            }
        }
        return !front.equals(customer) && !front.isEmpty();
    }

    private static String serverOf(JsonNode stats, String type) {
        for (JsonNode g : stats.path("locality").path(0).path("groups")) {
            for (JsonNode t : g.path("types")) {
                if (t.asText().equals(type)) {
                    return g.path("server").asText();
                }
            }
        }
        return "";
    }
}
