package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.bus.ControlBus;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.agent.GatewayAgent;
import io.slagate.gateway.testing.Soap;
import io.slagate.node.EmbeddedSystem;
import io.slagate.sla.SlaReport;
import io.slagate.sla.SlaSpan;
import io.slagate.sla.SlaStore;
import io.slagate.sla.SlaStores;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SLA attainment as the store keeps it: two customers of two classes, one class meeting its target and one not, sent
 * through three gateways; the store's rows equal what the clients counted (requests, and those answered within the
 * target), and the same rows are read after the system stopped and started again on the same store.
 */
class SlaStoreEndToEndTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    private String config(String id, int backendPort) {
        return """
                gateway: { id: %s, listen: "127.0.0.1:0", admin: "127.0.0.1:0", stats: { reportingInterval: 1s, window: 5s } }
                servers: [ { id: s1, url: "http://127.0.0.1:%d", concurrency: 20 } ]
                classes:
                  - { name: premium, target: 1s, objective: 99%% }
                  - { name: basic, target: 100ms, objective: 99%%, customerObjectives: { globex: 90%% } }
                classification:
                  subscriptions: { acme: { "*": gold }, globex: { "*": standard } }
                  rules: [ { grade: gold, class: premium }, { grade: standard, class: basic } ]
                  defaultClass: basic
                sla: { store: "jdbc:sqlite:%s" }
                """.formatted(id, backendPort, dir.resolve("sla.db"));
    }

    /** A server answering premium's requests at once and every other one of basic's after 300 ms. */
    private static Server backend() throws Exception {
        Server server = new Server();
        ServerConnector c = new ServerConnector(server);
        c.setHost("127.0.0.1");
        server.addConnector(c);
        AtomicInteger slow = new AtomicInteger();
        java.util.concurrent.ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                boolean late = "urn:getSlow".equals(request.getHeaders().get("SOAPAction").replace("\"", ""))
                        && slow.incrementAndGet() % 2 == 0;
                Content.Source.consumeAll(request, Callback.from(() -> timer.schedule(() -> {
                    response.setStatus(200);
                    response.getHeaders().put("Content-Type", "text/xml");
                    response.write(true, StandardCharsets.UTF_8.encode(Soap.envelope11("ok")), callback);
                }, late ? 300 : 1, java.util.concurrent.TimeUnit.MILLISECONDS), callback::failed));
                return true;
            }
        });
        server.start();
        return server;
    }

    /** What one customer's client saw: its requests answered, and those answered within {@code targetMillis}. */
    private record Seen(int answered, int within) {
    }

    private Seen send(int[] ports, String customer, String operation, long targetMillis, int requests) throws Exception {
        int answered = 0;
        int within = 0;
        String auth = "Basic " + Base64.getEncoder().encodeToString((customer + ":x").getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < requests; i++) {
            int port = ports[i % ports.length];
            long start = System.nanoTime();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/svc"))
                    .timeout(Duration.ofSeconds(10)).header("Content-Type", "text/xml").header("SOAPAction", "\"urn:" + operation + "\"")
                    .header("Authorization", auth).POST(HttpRequest.BodyPublishers.ofString(Soap.envelope11(operation))).build(),
                    HttpResponse.BodyHandlers.ofString());
            long millis = (System.nanoTime() - start) / 1_000_000;
            if (r.statusCode() == 200) {
                answered++;
                if (millis <= targetMillis) {
                    within++;
                }
            }
        }
        return new Seen(answered, within);
    }

    private static List<SlaReport.Row> report(SlagateConfig config) throws Exception {
        try (SlaStore store = SlaStores.of(config).open()) {
            long now = System.currentTimeMillis();
            return SlaReport.of(store, config, SlaSpan.since(600, now, "10m"), null, now).rows();
        }
    }

    @Test
    void storeRows_equalWhatTheClientsCounted_acrossThreeGateways_andSurviveARestart() throws Exception {
        Server backend = backend();
        int backendPort = ((ServerConnector) backend.getConnectors()[0]).getLocalPort();
        SlagateConfig gw1 = ConfigLoader.parse(config("gw1", backendPort), "gw1.yaml");
        List<Gateway> others = new ArrayList<>();
        List<ControlBus> buses = new ArrayList<>();
        List<SlaReport.Row> before;
        Seen acme;
        Seen globex;
        try (EmbeddedSystem system = EmbeddedSystem.start(gw1, EmbeddedSystem.Parts.CORE)) {
            List<Integer> ports = new ArrayList<>(List.of(system.gateway().port()));
            for (String id : List.of("gw2", "gw3")) {
                Gateway g = new Gateway(ConfigLoader.parse(config(id, backendPort), id + ".yaml")).start();
                ControlBus bus = new ControlBus(system.broker().vmUrl(), null, null, id);
                new GatewayAgent(g, bus);
                bus.start();
                others.add(g);
                buses.add(bus);
                ports.add(g.port());
            }
            int[] p = ports.stream().mapToInt(Integer::intValue).toArray();
            ExecutorService clients = Executors.newFixedThreadPool(2);
            Future<Seen> a = clients.submit(() -> send(p, "acme", "getQuote", 1000, 150));
            Future<Seen> g = clients.submit(() -> send(p, "globex", "getSlow", 100, 150));
            acme = a.get();
            globex = g.get();
            clients.shutdown();
            assertEquals(150, acme.answered());
            assertEquals(150, globex.answered());
            await("every gateway's counts written").atMost(DEADLINE).until(() -> report(gw1).stream().mapToLong(SlaReport.Row::requests).sum() == 300);
            before = report(gw1);
            for (ControlBus b : buses) {
                b.close();
            }
            for (Gateway o : others) {
                o.stop(Duration.ofSeconds(1));
            }
        }
        assertEquals(2, before.size(), before.toString());
        SlaReport.Row acmeRow = before.get(0);
        SlaReport.Row globexRow = before.get(1);
        assertEquals(List.of("acme", "premium", 150L), List.of(acmeRow.customer(), acmeRow.className(), acmeRow.requests()));
        assertEquals(List.of("globex", "basic", 150L), List.of(globexRow.customer(), globexRow.className(), globexRow.requests()));
        // the gateway times from the request's arrival to its answer, the client a little more: within 1%
        assertEquals(acme.within() / 150.0, acmeRow.attainment(), 0.01, "acme: " + acmeRow);
        assertEquals(globex.within() / 150.0, globexRow.attainment(), 0.01, "globex: " + globexRow);
        assertTrue(globexRow.attainment() < 0.6 && globexRow.budgetRemaining() < 0, "globex misses its 90%: " + globexRow);
        assertEquals(0.90, globexRow.objective(), 1e-9, "globex's own objective for basic");
        assertEquals(0.99, acmeRow.objective(), 1e-9);

        try (EmbeddedSystem again = EmbeddedSystem.start(gw1, EmbeddedSystem.Parts.CORE)) {
            assertEquals(before, report(gw1), "the same rows after a restart on the same store");
        } finally {
            backend.stop();
        }
    }
}
