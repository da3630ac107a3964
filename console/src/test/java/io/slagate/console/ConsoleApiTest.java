package io.slagate.console;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.ControlBus;
import io.slagate.bus.EmbeddedBroker;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.ConfigMessage;
import io.slagate.bus.message.ControlMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.Combining;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every API endpoint over real HTTP, with a real embedded broker behind the console. */
class ConsoleApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    @TempDir
    static Path dir;
    private static EmbeddedBroker broker;
    private static ControlBus consoleBus;
    private static ControlBus observer;
    private static ConsoleServer console;
    private static String adminPassword;
    private static final List<BusMessage> controls = new CopyOnWriteArrayList<>();
    private static String base;

    static SlagateConfig config(Path configDir) throws Exception {
        Path file = configDir.resolve("slagate.yaml");
        Files.writeString(file, """
                gateway: { id: gw1 }
                servers: [ { id: s1, url: "http://127.0.0.1:9", concurrency: 10 } ]
                classes:
                  - { name: premium, target: 2s }
                  - { name: basic, target: 3s }
                classification:
                  subscriptions: { gold-customer: { "*": gold } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                console: { listen: "127.0.0.1:0" }
                """);
        return ConfigLoader.load(file);
    }

    @BeforeAll
    static void start() throws Exception {
        broker = EmbeddedBroker.start("console-test", "", null, null);
        consoleBus = new ControlBus(broker.vmUrl(), null, null, "console").start();
        observer = new ControlBus(broker.vmUrl(), null, null, "observer").subscribe(Topics.CONTROL, controls::add).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        console = ConsoleServer.start(config(dir), consoleBus, new PrintStream(out, true, StandardCharsets.UTF_8));
        Matcher m = Pattern.compile("password (\\S+)").matcher(out.toString(StandardCharsets.UTF_8));
        assertTrue(m.find(), "the first start prints the admin password: " + out);
        adminPassword = m.group(1);
        console.putUser("viewer", Role.READ_ONLY, "viewer-password-for-test".toCharArray());
        base = "http://127.0.0.1:" + console.port();
        await().atMost(DEADLINE).until(() -> consoleBus.isConnected() && observer.isConnected());
    }

    @AfterAll
    static void stop() throws Exception {
        console.close();
        consoleBus.close();
        observer.close();
        broker.close();
    }

    /** A browser-like client: one cookie jar per user. */
    private static final class Client {
        final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        String csrf;

        HttpResponse<String> get(String path) throws Exception {
            return http.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> send(String method, String path, String json, boolean withCsrf) throws Exception {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                    .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
            if (json != null) {
                b.header("Content-Type", "application/json");
            }
            if (withCsrf && csrf != null) {
                b.header(ConsoleHandler.CSRF_HEADER, csrf);
            }
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> login(String user, String password) throws Exception {
            HttpResponse<String> r = send("POST", "/api/login", JSON.writeValueAsString(Map.of("user", user, "password", password)), false);
            if (r.statusCode() == 200) {
                csrf = JSON.readTree(r.body()).path("csrf").asText();
            }
            return r;
        }
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body());
    }

    @Test
    void anonymous_getsNothingButTheLoginPage() throws Exception {
        Client c = new Client();
        for (String path : List.of("/api/classes", "/api/state", "/api/me", "/api/audit", "/api/history", "/api/servers", "/api/sla")) {
            assertEquals(401, c.get(path).statusCode(), path);
        }
        assertEquals(401, c.send("POST", "/api/controller/pause", null, false).statusCode());
        HttpResponse<String> root = c.get("/");
        assertEquals(302, root.statusCode());
        assertTrue(root.headers().firstValue("Location").orElse("").endsWith("/login.html"));
        assertEquals(200, c.get("/login.html").statusCode());
        HttpResponse<String> traversal = c.get("/../pom.xml");
        assertTrue(traversal.statusCode() == 400 || traversal.statusCode() == 404, "never served: " + traversal.statusCode());
        assertEquals(404, c.get("/console/../../pom.xml".replace("../", "")).statusCode());
    }

    @Test
    void login_setsAStrictHttpOnlyCookie_wrongPasswordRefused() throws Exception {
        Client c = new Client();
        assertEquals(401, c.login("admin", "not-the-password").statusCode());
        HttpResponse<String> ok = c.login("admin", adminPassword);
        assertEquals(200, ok.statusCode());
        String cookie = ok.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(cookie.contains("HttpOnly"), cookie);
        assertTrue(cookie.toLowerCase().contains("samesite=strict"), cookie);
        assertEquals("admin", json(c.get("/api/me")).path("role").asText());
        assertEquals(200, c.get("/").statusCode(), "the page, once logged in");
        assertEquals(200, c.send("POST", "/api/logout", null, true).statusCode());
        assertEquals(401, c.get("/api/me").statusCode(), "logged out");
    }

    @Test
    void readEndpoints_forEveryRole() throws Exception {
        Client viewer = new Client();
        assertEquals(200, viewer.login("viewer", "viewer-password-for-test").statusCode());
        JsonNode classes = json(viewer.get("/api/classes"));
        assertEquals("premium", classes.get(0).path("name").asText());
        assertEquals(2.0, classes.get(0).path("targetSeconds").asDouble());
        assertEquals("s1", json(viewer.get("/api/servers")).get(0).path("id").asText());
        assertTrue(json(viewer.get("/api/state")).has("gateways"));
        assertTrue(json(viewer.get("/api/history?seconds=60")).isArray());
        assertEquals(400, viewer.get("/api/history?seconds=-1").statusCode());
        assertTrue(json(viewer.get("/api/audit")).isArray());
        HttpResponse<String> cls = viewer.send("POST", "/api/classify",
                "{\"customer\":\"gold-customer\",\"service\":\"/services/StockUtility\",\"operation\":\"urn:getQuote\"}", true);
        assertEquals(200, cls.statusCode(), cls.body());
        assertEquals("premium", json(cls).path("class").asText());
        assertEquals("gold", json(cls).path("grade").asText());
    }

    @Test
    void slaReport_beforeAnyCount_isEmpty_andABadSpanNamesItsParameter() throws Exception {
        Client viewer = new Client();
        assertEquals(200, viewer.login("viewer", "viewer-password-for-test").statusCode());
        JsonNode none = json(viewer.get("/api/sla?since=10m"));
        assertEquals("since 10m", none.path("span").asText());
        assertEquals(0, none.path("rows").size(), "no store yet: no rows, not an error");
        for (String[] bad : new String[][] {{"since=10x", "since"}, {"since=401d", "since"}, {"month=2026-13", "month"},
                {"since=1h&month=2026-11", "month"}}) {
            HttpResponse<String> r = viewer.get("/api/sla?" + bad[0]);
            assertEquals(400, r.statusCode(), bad[0] + " " + r.body());
            assertEquals(bad[1], json(r).path("field").asText(), bad[0]);
        }
    }

    @Test
    void changes_needAdmin_andCsrf_andArePublishedAndAudited() throws Exception {
        Client viewer = new Client();
        viewer.login("viewer", "viewer-password-for-test");
        HttpResponse<String> denied = viewer.send("POST", "/api/controller/pause", null, true);
        assertEquals(403, denied.statusCode(), "read-only cannot change");
        Client admin = new Client();
        admin.login("admin", adminPassword);
        assertEquals(403, admin.send("POST", "/api/controller/pause", null, false).statusCode(), "no CSRF token");
        HttpResponse<String> pin = admin.send("POST", "/api/overrides/weight",
                "{\"gateway\":\"gw1\",\"class\":\"basic\",\"weight\":7.5,\"expiresInSeconds\":60}", true);
        assertEquals(200, pin.statusCode(), pin.body());
        await().atMost(DEADLINE).until(() -> controls.stream().anyMatch(m -> m instanceof ControlMessage c
                && c.command().equals(ControlMessage.PIN_WEIGHT) && c.value() == 7.5 && "admin".equals(c.user())));
        assertEquals(200, admin.send("DELETE", "/api/overrides/weight?gateway=gw1&class=basic", null, true).statusCode());
        assertEquals(200, admin.send("POST", "/api/overrides/capacity", "{\"server\":\"s1\",\"capacity\":4}", true).statusCode());
        assertEquals(200, admin.send("POST", "/api/controller/pause", null, true).statusCode());
        assertEquals(200, admin.send("POST", "/api/controller/resume", null, true).statusCode());
        await().atMost(DEADLINE).until(() -> controls.stream().anyMatch(m -> m instanceof ControlMessage c
                && c.command().equals(ControlMessage.RESUME)));
        assertEquals(403, viewer.send("POST", "/api/controller/tuning/start", null, true).statusCode(), "read-only cannot tune");
        for (String verb : List.of("start", "stop", "revert")) {
            assertEquals(200, admin.send("POST", "/api/controller/tuning/" + verb, null, true).statusCode(), verb);
            await().atMost(DEADLINE).until(() -> controls.stream().anyMatch(m -> m instanceof ControlMessage c
                    && c.command().equals("tuning-" + verb) && "admin".equals(c.user())));
        }
        assertEquals(404, admin.send("POST", "/api/controller/tuning/restart", null, true).statusCode());
        HttpResponse<String> noPartition = admin.send("POST", "/api/controller/tuning/stop?partition=nosuch", null, true);
        assertEquals(400, noPartition.statusCode(), "a partition the configuration does not name: " + noPartition.body());
        assertTrue(noPartition.body().contains("nosuch") && noPartition.body().contains("not configured"), noPartition.body());
        HttpResponse<String> notMovable = admin.send("POST", "/api/servers/s1/pool-pin", null, true);
        assertEquals(400, notMovable.statusCode(), "s1 serves one pool: " + notMovable.body());
        assertEquals(403, viewer.send("POST", "/api/servers/s1/pool-pin", null, true).statusCode(), "read-only cannot pin");
        JsonNode audit = json(admin.get("/api/audit"));
        List<String> actions = new ArrayList<>();
        audit.forEach(e -> actions.add(e.path("user").asText() + ":" + e.path("action").asText()));
        assertTrue(actions.containsAll(List.of("admin:pin-weight", "admin:unpin-weight", "admin:pin-capacity",
                "admin:pause", "admin:resume", "admin:tuning-start", "admin:tuning-stop", "admin:tuning-revert", "admin:login")),
                actions.toString());
    }

    @Test
    void users_managedByAdmins_readOnlyRefused_lastAdminKept_ownPasswordChanged() throws Exception {
        Client viewer = new Client();
        viewer.login("viewer", "viewer-password-for-test");
        assertEquals(403, viewer.get("/api/users").statusCode(), "read-only cannot list users");
        assertEquals(403, viewer.send("POST", "/api/users", "{\"user\":\"x\",\"role\":\"admin\",\"password\":\"long-enough-password\"}", true)
                .statusCode(), "nor create one");
        Client admin = new Client();
        admin.login("admin", adminPassword);
        record Bad(String body, int status, String field) {
        }
        for (Bad b : List.of(new Bad("{\"user\":\"ops\",\"role\":\"admin\",\"password\":\"short\"}", 400, "password"),
                new Bad("{\"user\":\"o p s\",\"role\":\"admin\",\"password\":\"ops-password-for-test\"}", 400, "user"),
                new Bad("{\"user\":\"ops\",\"role\":\"root\",\"password\":\"ops-password-for-test\"}", 400, "role"),
                new Bad("{\"user\":\"viewer\",\"role\":\"admin\",\"password\":\"ops-password-for-test\"}", 409, "user"))) {
            HttpResponse<String> r = admin.send("POST", "/api/users", b.body(), true);
            assertEquals(b.status(), r.statusCode(), r.body());
            assertEquals(b.field(), json(r).path("field").asText(), r.body());
        }
        HttpResponse<String> created = admin.send("POST", "/api/users", "{\"user\":\"ops\",\"role\":\"admin\",\"password\":\"ops-password-for-test\"}", true);
        assertEquals(200, created.statusCode(), created.body());
        assertTrue(created.body().contains("\"ops\"") && !created.body().contains("hash") && !created.body().contains("pbkdf2"),
                "names and roles only: " + created.body());

        Client ops = new Client();
        assertEquals("admin", json(ops.login("ops", "ops-password-for-test")).path("role").asText());
        assertEquals(200, admin.send("PUT", "/api/users/ops", "{\"role\":\"read-only\"}", true).statusCode());
        assertEquals(401, ops.get("/api/me").statusCode(), "a changed role ends the user's sessions");
        assertEquals("read-only", json(ops.login("ops", "ops-password-for-test")).path("role").asText());

        assertEquals(403, ops.send("PUT", "/api/me/password", "{\"current\":\"wrong-password-here\",\"password\":\"new-ops-password-1\"}", true)
                .statusCode(), "the current password is checked");
        assertEquals(200, ops.send("PUT", "/api/me/password", "{\"current\":\"ops-password-for-test\",\"password\":\"new-ops-password-1\"}", true)
                .statusCode(), "a read-only user changes their own password");
        assertEquals(401, new Client().login("ops", "ops-password-for-test").statusCode());
        assertEquals(200, new Client().login("ops", "new-ops-password-1").statusCode());

        HttpResponse<String> lastAdmin = admin.send("DELETE", "/api/users/admin", null, true);
        assertEquals(409, lastAdmin.statusCode(), "the last admin cannot be deleted: " + lastAdmin.body());
        assertEquals(409, admin.send("PUT", "/api/users/admin", "{\"role\":\"read-only\"}", true).statusCode(), "nor demoted");
        assertEquals(200, admin.send("DELETE", "/api/users/ops", null, true).statusCode());
        assertEquals(401, new Client().login("ops", "new-ops-password-1").statusCode(), "a deleted user cannot log in");
        assertEquals(404, admin.send("DELETE", "/api/users/ops", null, true).statusCode());

        String audit = admin.get("/api/audit?limit=1000").body();
        for (String action : List.of("user-create", "user-update", "password-change", "password-change-refused", "user-delete")) {
            assertTrue(audit.contains("\"" + action + "\""), action + " audited");
        }
        assertFalse(audit.contains("ops-password-for-test") || audit.contains("new-ops-password-1"), "no password in the audit log");
    }

    @Test
    void controllerSettings_validatedSavedPublished() throws Exception {
        Client viewer = new Client();
        viewer.login("viewer", "viewer-password-for-test");
        assertEquals(5.0, json(viewer.get("/api/controller")).path("cycleSeconds").asDouble(), 1e-9, "everyone reads them");
        assertEquals(403, viewer.send("PUT", "/api/controller", "{\"cycleSeconds\":2}", true).statusCode());
        Client admin = new Client();
        admin.login("admin", adminPassword);
        HttpResponse<String> bad = admin.send("PUT", "/api/controller", "{\"cycleSeconds\":0}", true);
        assertEquals(400, bad.statusCode(), bad.body());
        assertEquals("cycleSeconds", json(bad).path("field").asText());
        HttpResponse<String> badCombining = admin.send("PUT", "/api/controller", "{\"combining\":\"max\"}", true);
        assertEquals(400, badCombining.statusCode(), badCombining.body());
        assertEquals("combining", json(badCombining).path("field").asText(), badCombining.body());
        HttpResponse<String> ok = admin.send("PUT", "/api/controller", "{\"cycleSeconds\":2.5,\"combining\":\"min\"}", true);
        assertEquals(200, ok.statusCode(), ok.body());
        SlagateConfig saved = ConfigLoader.load(dir.resolve("slagate.yaml"));
        assertEquals(Duration.ofMillis(2500), saved.controller().cycle());
        assertEquals(Combining.MIN, saved.controller().combining());
        assertEquals("min", json(admin.get("/api/controller")).path("combining").asText());
        assertTrue(admin.get("/api/audit").body().contains("controller-update"));
        // put back what the other tests expect
        assertEquals(200, admin.send("PUT", "/api/controller", "{\"cycleSeconds\":5,\"combining\":\"sum\"}", true).statusCode());
    }

    @Test
    void validationErrors_nameTheField() throws Exception {
        Client admin = new Client();
        admin.login("admin", adminPassword);
        record Case(String body, String field) {
        }
        for (Case c : List.of(new Case("{\"gateway\":\"gw1\",\"class\":\"gold\",\"weight\":1}", "class"),
                new Case("{\"gateway\":\"gw1\",\"class\":\"basic\",\"weight\":-1}", "weight"),
                new Case("{\"class\":\"basic\",\"weight\":1}", "gateway"),
                new Case("{\"gateway\":\"gw1\",\"class\":\"basic\",\"weight\":1,\"expiresInSeconds\":-5}", "expiresInSeconds"))) {
            HttpResponse<String> r = admin.send("POST", "/api/overrides/weight", c.body(), true);
            assertEquals(400, r.statusCode(), c.body());
            assertEquals(c.field(), json(r).path("field").asText(), r.body());
        }
        HttpResponse<String> cap = admin.send("POST", "/api/overrides/capacity", "{\"server\":\"s1\",\"capacity\":2.5}", true);
        assertEquals("capacity", json(cap).path("field").asText());
        assertEquals("server", json(admin.send("POST", "/api/overrides/capacity", "{\"server\":\"s9\",\"capacity\":2}", true))
                .path("field").asText());
        HttpRequest form = HttpRequest.newBuilder(URI.create(base + "/api/overrides/weight"))
                .header("Content-Type", "application/x-www-form-urlencoded").header(ConsoleHandler.CSRF_HEADER, admin.csrf)
                .POST(HttpRequest.BodyPublishers.ofString("gateway=gw1&class=basic&weight=1")).build();
        assertEquals(415, admin.http.send(form, HttpResponse.BodyHandlers.ofString()).statusCode(), "JSON only");
        assertEquals(400, admin.send("POST", "/api/overrides/weight", "not json", true).statusCode());
        assertEquals(404, admin.get("/api/nothing-here").statusCode());
    }

    @Test
    void events_streamBusMessages() throws Exception {
        Client viewer = new Client();
        viewer.login("viewer", "viewer-password-for-test");
        CompletableFuture<String> seen = new CompletableFuture<>();
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/api/events")).build();
        viewer.http.sendAsync(req, HttpResponse.BodyHandlers.ofLines()).thenAccept(r -> r.body().forEach(line -> {
            if (line.startsWith("data:") && line.contains("\"stats\"")) {
                seen.complete(line);
            }
        }));
        StatsMessage s = new StatsMessage(BusMessage.SCHEMA, "gw1", 1, System.currentTimeMillis(), 30, 1,
                List.of(new FlowStatsMessage("premium", 2, 2, 0, 1.5, 0.5, 1.0, 3, 4, 6)),
                List.of(new ServerStatusMessage("s1", 10, 4, true)));
        await().atMost(DEADLINE).until(() -> {
            // as a gateway does: it joins, then reports (statistics of a gateway that never joined are not shown)
            observer.publish(Topics.HEARTBEAT_GATEWAY, new HeartbeatMessage(BusMessage.SCHEMA, "gw1",
                    "gateway", HeartbeatMessage.JOIN, System.currentTimeMillis(), 0));
            observer.publish(Topics.STATS, s);
            return seen.isDone();
        });
        assertTrue(seen.get().contains("\"gatewayId\":\"gw1\""));
        JsonNode history = json(viewer.get("/api/history?seconds=60"));
        assertTrue(history.size() > 0 && history.get(0).path("className").asText().equals("premium"));
    }

    @Test
    void classEditing_validatedSavedWithBackup_publishedAndAudited() throws Exception {
        List<BusMessage> configs = new CopyOnWriteArrayList<>();
        ControlBus listener = new ControlBus(broker.vmUrl(), null, null, "config-listener").subscribe(Topics.CONFIG, configs::add).start();
        try {
            await().atMost(DEADLINE).until(listener::isConnected);
            Client viewer = new Client();
            viewer.login("viewer", "viewer-password-for-test");
            assertEquals(403, viewer.send("PUT", "/api/classes/basic", "{\"targetSeconds\":4}", true).statusCode());
            Client admin = new Client();
            admin.login("admin", adminPassword);
            HttpResponse<String> bad = admin.send("PUT", "/api/classes/basic", "{\"targetSeconds\":0}", true);
            assertEquals(400, bad.statusCode());
            assertEquals("targetSeconds", json(bad).path("field").asText());
            HttpResponse<String> bound = admin.send("PUT", "/api/classes/basic", "{\"queueBound\":-1}", true);
            assertEquals(400, bound.statusCode(), bound.body());
            assertEquals("queueBound", json(bound).path("field").asText(), "the loader's own rule, mapped to the field: " + bound.body());
            assertEquals(404, admin.send("PUT", "/api/classes/gold", "{\"targetSeconds\":1}", true).statusCode());
            String before = Files.readString(dir.resolve("slagate.yaml"));
            HttpResponse<String> ok = admin.send("PUT", "/api/classes/basic",
                    "{\"targetSeconds\":4.5,\"utility\":{\"type\":\"pacifici\",\"parameters\":{\"phi\":2}}}", true);
            assertEquals(200, ok.statusCode(), ok.body());
            assertEquals(before, Files.readString(dir.resolve("slagate.yaml.bak")), "the old version is kept");
            assertEquals(4.5, ConfigLoader.load(dir.resolve("slagate.yaml")).classes().get(1).targetSeconds(), 1e-9, "saved");
            assertEquals(4.5, json(admin.get("/api/classes")).get(1).path("targetSeconds").asDouble(), 1e-9, "served");
            await().atMost(DEADLINE).until(() -> configs.stream().anyMatch(m -> m instanceof ConfigMessage c
                    && c.yaml().contains("4500ms") && "admin".equals(c.user())));
            // a percentile goal: beside the mean, then instead of it; bad ones name their field
            HttpResponse<String> p100 = admin.send("PUT", "/api/classes/basic", "{\"percentile\":100,\"percentileTargetSeconds\":1}", true);
            assertEquals(400, p100.statusCode(), p100.body());
            assertEquals("percentile", json(p100).path("field").asText());
            HttpResponse<String> noWithin = admin.send("PUT", "/api/classes/basic", "{\"percentile\":95}", true);
            assertEquals("percentileTargetSeconds", json(noWithin).path("field").asText(), noWithin.body());
            HttpResponse<String> nothing = admin.send("PUT", "/api/classes/basic", "{\"targetSeconds\":null,\"percentile\":null}", true);
            assertEquals(400, nothing.statusCode(), "a class needs a goal: " + nothing.body());
            assertEquals("targetSeconds", json(nothing).path("field").asText(), nothing.body());
            assertEquals(200, admin.send("PUT", "/api/classes/basic", "{\"percentile\":99.5,\"percentileTargetSeconds\":9}", true).statusCode());
            assertEquals("mean ≤ 4500ms, p99.5 ≤ 9s", json(admin.get("/api/classes")).get(1).path("goal").asText());
            assertEquals(200, admin.send("PUT", "/api/classes/basic", "{\"targetSeconds\":null,\"percentile\":95,\"percentileTargetSeconds\":1.5}", true)
                    .statusCode());
            TrafficClassConfig basic = ConfigLoader.load(dir.resolve("slagate.yaml")).classes().get(1);
            assertEquals(null, basic.target(), "the mean target removed");
            assertEquals(95, basic.percentileGoal().percentile(), 0, "one percentile goal: the earlier p99.5 replaced");
            assertEquals(1.5, basic.goalSeconds(), 1e-9);
            JsonNode served = json(admin.get("/api/classes")).get(1);
            assertTrue(served.path("targetSeconds").isNull(), served.toString());
            assertEquals(1.5, served.path("percentileTargetSeconds").asDouble(), 1e-9);
            // importance, and the discretionary class (which has no goal)
            assertEquals(200, admin.send("PUT", "/api/classes/basic", "{\"importance\":2}", true).statusCode());
            assertEquals(2, ConfigLoader.load(dir.resolve("slagate.yaml")).classes().get(1).importance());
            HttpResponse<String> badLevel = admin.send("PUT", "/api/classes/basic", "{\"importance\":\"high\"}", true);
            assertEquals("importance", json(badLevel).path("field").asText(), badLevel.body());
            assertEquals(200, admin.send("PUT", "/api/classes/basic", "{\"importance\":null}", true).statusCode());
            HttpResponse<String> both = admin.send("PUT", "/api/classes/basic", "{\"discretionary\":true}", true);
            assertEquals(400, both.statusCode(), "a discretionary class with a goal: " + both.body());
            assertEquals(200, admin.send("PUT", "/api/classes/basic", "{\"discretionary\":true,\"targetSeconds\":null,\"percentile\":null}", true)
                    .statusCode());
            JsonNode batch = json(admin.get("/api/classes")).get(1);
            assertEquals("discretionary", batch.path("goal").asText(), batch.toString());
            assertTrue(batch.path("goalSeconds").isNull());
            assertEquals(200, admin.send("PUT", "/api/classes/basic", "{\"discretionary\":false,\"targetSeconds\":3}", true).statusCode());
            HttpResponse<String> created = admin.send("POST", "/api/classes", "{\"name\":\"bronze\",\"targetSeconds\":10}", true);
            assertEquals(200, created.statusCode(), created.body());
            assertEquals(409, admin.send("POST", "/api/classes", "{\"name\":\"bronze\",\"targetSeconds\":10}", true).statusCode());
            assertEquals(200, admin.send("DELETE", "/api/classes/bronze", null, true).statusCode());
            HttpResponse<String> inUse = admin.send("DELETE", "/api/classes/premium", null, true);
            assertEquals(400, inUse.statusCode(), "a class a rule still names cannot go: " + inUse.body());
            List<String> actions = new ArrayList<>();
            json(admin.get("/api/audit")).forEach(e -> actions.add(e.path("action").asText()));
            assertTrue(actions.containsAll(List.of("class-update", "class-create", "class-delete")), actions.toString());
        } finally {
            listener.close();
        }
    }

    @Test
    void serversAndClassification_editedLive_drainPublished() throws Exception {
        Client admin = new Client();
        admin.login("admin", adminPassword);
        HttpResponse<String> ns = admin.send("PUT", "/api/servers/s1", "{\"concurrency\":6}", true);
        assertEquals(200, ns.statusCode(), ns.body());
        assertEquals(6, json(admin.get("/api/servers")).get(0).path("concurrency").asInt());
        HttpResponse<String> badUrl = admin.send("POST", "/api/servers", "{\"id\":\"s2\",\"url\":\"ftp://x\",\"concurrency\":4}", true);
        assertEquals(400, badUrl.statusCode(), badUrl.body());
        assertEquals("url", json(badUrl).path("field").asText(), badUrl.body());
        assertEquals(200, admin.send("POST", "/api/servers", "{\"id\":\"s2\",\"url\":\"http://127.0.0.1:8\",\"concurrency\":4}", true).statusCode());
        // concurrency: auto through the API: the bounds are served beside the N_s the gateways hold (min)
        assertEquals(200, admin.send("PUT", "/api/servers/s2", "{\"concurrency\":{\"auto\":true,\"min\":2,\"max\":50,\"start\":5}}", true)
                .statusCode());
        JsonNode s2 = json(admin.get("/api/servers")).get(1);
        assertEquals(2, s2.path("concurrency").asInt(), s2.toString());
        assertEquals(50, s2.path("auto").path("max").asInt(), s2.toString());
        assertTrue(json(admin.get("/api/servers")).get(0).path("auto").isNull());
        HttpResponse<String> badAuto = admin.send("PUT", "/api/servers/s2", "{\"concurrency\":{\"auto\":true,\"min\":9,\"max\":3}}", true);
        assertEquals(400, badAuto.statusCode(), badAuto.body());
        assertTrue(badAuto.body().contains("is below min"), badAuto.body());
        assertEquals(200, admin.send("POST", "/api/servers/s2/drain", null, true).statusCode());
        await().atMost(DEADLINE).until(() -> controls.stream().anyMatch(m -> m instanceof ControlMessage c
                && c.command().equals(ControlMessage.PIN_CAPACITY) && "s2".equals(c.serverId()) && c.value() == 0));
        assertEquals(200, admin.send("DELETE", "/api/servers/s2", null, true).statusCode());

        JsonNode section = json(admin.get("/api/classification"));
        assertEquals("basic", section.path("defaultClass").asText());
        HttpResponse<String> unknown = admin.send("PUT", "/api/classification",
                "{\"rules\":[{\"operation\":\"urn:buy*\",\"class\":\"platinum\"}],\"defaultClass\":\"basic\"}", true);
        assertEquals(400, unknown.statusCode(), unknown.body());
        assertEquals("classification", json(unknown).path("field").asText());
        HttpResponse<String> ok = admin.send("PUT", "/api/classification",
                "{\"rules\":[{\"operation\":\"urn:buy*\",\"class\":\"premium\"}],\"defaultClass\":\"basic\"}", true);
        assertEquals(200, ok.statusCode(), ok.body());
        HttpResponse<String> cls = admin.send("POST", "/api/classify", "{\"service\":\"/s\",\"operation\":\"urn:buyShares\"}", true);
        assertEquals("premium", json(cls).path("class").asText(), "the tester uses the new rules at once");
        assertEquals(200, admin.send("PUT", "/api/classification", JSON.writeValueAsString(section), true).statusCode(),
                "restored for the other tests");
    }

    @Test
    void usersFile_holdsOnlyHashes_andASecondStartCreatesNoPassword() throws Exception {
        Path users = dir.resolve("console-users.json");
        String text = Files.readString(users);
        assertFalse(text.contains(adminPassword), "the password itself is never stored");
        assertTrue(text.contains("pbkdf2-sha256$"));
        UserStore again = UserStore.open(users);
        assertNull(again.generatedPassword(), "no new password on the second start");
        assertNotNull(again.authenticate("admin", adminPassword.toCharArray()));
        assertNull(again.authenticate("admin", "x".toCharArray()));
        assertNull(again.authenticate("nobody", "x".toCharArray()));
    }
}
