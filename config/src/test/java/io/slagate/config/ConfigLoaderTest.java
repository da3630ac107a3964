package io.slagate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    private static final String MINIMAL = """
            servers:
              - { id: s1, url: "http://127.0.0.1:9001", concurrency: 10 }
            classes:
              - { name: gold, target: 2s }
              - { name: bronze, target: 3s }
            """;

    @Test
    void theGatewayListensOnLoopback_unlessConfigured() {
        SlagateConfig c = ConfigLoader.parse(MINIMAL, "min.yaml");
        assertEquals("127.0.0.1", c.gateway().listen().host());
        assertEquals(8080, c.gateway().listen().port());
        assertEquals("0.0.0.0", ConfigLoader.parse(MINIMAL.replace("servers:", "gateway: { listen: \":8080\" }\nservers:"), "all.yaml")
                .gateway().listen().host(), "an empty host is every interface, as written");
    }

    @Test
    void load_shippedConfig_isValid() {
        SlagateConfig c = ConfigLoader.load(Path.of("slagate.yaml"));
        assertEquals("gw1", c.gateway().id());
        assertEquals(8080, c.gateway().listen().port());
        assertEquals("127.0.0.1", c.gateway().listen().host(), "nothing listens beyond loopback unless configured");
        assertEquals("127.0.0.1", c.gateway().admin().host());
        assertEquals(8081, c.gateway().admin().port());
        assertEquals(2, c.servers().size());
        assertEquals(9001, c.servers().get(0).url().getPort());
        assertEquals(SchedulerMode.WRR, c.gateway().scheduler());
        assertEquals(Duration.ofSeconds(5), c.gateway().stats().reportingInterval());
    }

    @Test
    void parse_minimal_fillsDefaults() {
        SlagateConfig c = ConfigLoader.parse(MINIMAL, "t.yaml");
        assertEquals("gw1", c.gateway().id());
        assertEquals("bronze", c.classification().defaultClass());
        assertNull(c.classification().customerHeader());
        assertEquals("default", c.servers().get(0).pool());
        assertEquals(2.0, c.classes().get(0).targetSeconds(), 1e-9);
        assertEquals("pacifici", c.classes().get(0).utility().type());
        assertEquals(LoadBalancing.LEAST_OUTSTANDING, c.gateway().loadBalancing());
        assertEquals(FaultStatus.WSI, c.gateway().faultStatus());
    }

    @Test
    void parse_durationsAndSizes_inAllUnits() {
        SlagateConfig c = ConfigLoader.parse(MINIMAL + """
                gateway:
                  serverTimeout: 1.5m
                  connectTimeout: 250ms
                  maxRequestBytes: 512KiB
                """, "t.yaml");
        assertEquals(Duration.ofSeconds(90), c.gateway().serverTimeout());
        assertEquals(Duration.ofMillis(250), c.gateway().connectTimeout());
        assertEquals(512 * 1024, c.gateway().maxRequestBytes());
    }

    @Test
    void parse_badValues_listsEveryProblemWithKeyValueAndAllowed() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse("""
                gateway:
                  listen: "nowhere"
                  scheduler: lottery
                  serverTimeout: soon
                  colour: blue
                servers:
                  - { id: s1, url: "ftp://x", concurrency: 0 }
                  - { id: s1, url: "http://127.0.0.1:9002" }
                classes:
                  - { name: gold, target: -2s, utility: { type: cubic } }
                  - { name: gold, target: 1s, utility: { type: pacifici, phi: -1 } }
                classification:
                  rules:
                    - { grade: platinum, class: diamond }
                  defaultClass: nothing
                allocation:
                  weights: { gold: 0, silver: 2 }
                  caps: { s9: 3 }
                """, "bad.yaml"));
        String m = e.getMessage();
        assertTrue(m.startsWith("bad.yaml: "), m);
        assertTrue(m.contains("gateway.listen: \"nowhere\" is not an address"), m);
        assertTrue(m.contains("gateway.scheduler: \"lottery\" is not allowed; use one of: wrr, fcfs, priority"), m);
        assertTrue(m.contains("gateway.serverTimeout: \"soon\" is not a duration"), m);
        assertTrue(m.contains("gateway.colour: unknown key"), m);
        assertTrue(m.contains("servers[0].url: \"ftp://x\" must be an absolute http:// or https:// URL"), m);
        assertTrue(m.contains("servers[0].concurrency: 0 is out of range; allowed: [1, 100000]"), m);
        assertTrue(m.contains("servers[1].id: \"s1\" is used by another server"), m);
        assertTrue(m.contains("classes[0].target: \"-2s\" is not a duration"), m);
        assertTrue(m.contains("classes[0].utility.type: \"cubic\" is not a known utility function; known: pacifici, step"), m);
        assertTrue(m.contains("classes[1].name: \"gold\" is used by another class"), m);
        assertTrue(m.contains("classes[1].utility: phi = -1.0 must be > 0"), m);
        assertTrue(m.contains("classification.rules[0].class: \"diamond\" is not a configured class"), m);
        assertTrue(m.contains("classification.defaultClass: \"nothing\" is not a configured class"), m);
        assertTrue(m.contains("allocation.weights.gold: 0 is out of range"), m);
        assertTrue(m.contains("allocation.weights.silver: \"silver\" is not a configured class"), m);
        assertTrue(m.contains("allocation.caps.s9: \"s9\" is not a configured server"), m);
        assertEquals(16, e.problems().size(), m);
    }

    @Test
    void parse_percentileGoals_insteadOfOrBesideTheMean() {
        SlagateConfig c = ConfigLoader.parse("""
                servers:
                  - { id: s1, url: "http://127.0.0.1:9001", concurrency: 10 }
                classes:
                  - { name: gold, p95: 300ms }
                  - { name: silver, target: 1s, p99.9: 4s }
                  - { name: bronze, target: 3s }
                """, "t.yaml");
        TrafficClassConfig gold = c.classes().get(0);
        assertNull(gold.target());
        assertTrue(Double.isNaN(gold.targetSeconds()));
        assertEquals(95, gold.percentileGoal().percentile(), 0);
        assertEquals(0.3, gold.goalSeconds(), 1e-9);
        assertEquals("p95 ≤ 300ms", gold.goalText());
        TrafficClassConfig silver = c.classes().get(1);
        assertEquals(99.9, silver.percentileGoal().percentile(), 1e-9);
        assertEquals("p99.9", silver.percentileGoal().key());
        assertEquals(4.0, silver.goalSeconds(), 1e-9);
        assertEquals(1.0, silver.targetSeconds(), 1e-9);
        assertEquals("mean ≤ 1s, p99.9 ≤ 4s", silver.goalText());
        assertNull(c.classes().get(2).percentileGoal());
        assertEquals(3.0, c.classes().get(2).goalSeconds(), 1e-9);
    }

    @Test
    void parse_badPercentileGoals_nameTheKeyAndTheProblem() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse("""
                servers:
                  - { id: s1, url: "http://127.0.0.1:9001", concurrency: 10 }
                classes:
                  - { name: a, p100: 1s }
                  - { name: b, p0: 1s }
                  - { name: c, p95: 1s, p99: 2s }
                  - { name: d, p95: soon }
                  - { name: e }
                  - { name: f, q95: 1s }
                """, "t.yaml"));
        String all = String.join("\n", e.problems());
        assertTrue(all.contains("classes[0].p100: \"p100\" is not a percentile in (0, 100)"), all);
        assertTrue(all.contains("classes[1].p0: \"p0\" is not a percentile in (0, 100)"), all);
        assertTrue(all.contains("classes[2].p99: \"p99\" is a second percentile goal; a class has at most one (here p95)"), all);
        assertTrue(all.contains("classes[3].p95: \"soon\" is not a duration"), all);
        assertTrue(all.contains("classes[4].target") && all.contains("a goal is required"), all);
        assertTrue(all.contains("classes[5].q95: unknown key") && all.contains("pNN (a percentile goal"), all);
    }

    @Test
    void parse_importanceAndDiscretionary() {
        SlagateConfig c = ConfigLoader.parse("""
                servers:
                  - { id: s1, url: "http://127.0.0.1:9001", concurrency: 10 }
                classes:
                  - { name: gold, target: 1s, importance: 2 }
                  - { name: silver, target: 3s }
                  - { name: batch, discretionary: true }
                """, "t.yaml");
        assertEquals(2, c.classes().get(0).importance());
        assertEquals(0, c.classes().get(1).importance(), "the default level");
        TrafficClassConfig batch = c.classes().get(2);
        assertTrue(batch.discretionary());
        assertFalse(batch.hasGoal());
        assertNull(batch.target());
        assertTrue(Double.isNaN(batch.goalSeconds()));
        assertEquals("discretionary", batch.goalText());
    }

    @Test
    void parse_badImportanceOrDiscretionary_nameTheKeyAndTheProblem() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse("""
                servers:
                  - { id: s1, url: "http://127.0.0.1:9001", concurrency: 10 }
                classes:
                  - { name: a, target: 1s, importance: high }
                  - { name: b, target: 1s, importance: 1.5 }
                  - { name: c, discretionary: true }
                  - { name: d, discretionary: true }
                  - { name: e, discretionary: true, target: 2s }
                  - { name: f, discretionary: true, importance: 3 }
                """, "t.yaml"));
        String all = String.join("\n", e.problems());
        assertTrue(all.contains("classes[0].importance: \"high\" must be a whole number"), all);
        assertTrue(all.contains("classes[1].importance: 1.5 must be a whole number"), all);
        assertTrue(all.contains("classes[3].discretionary: true is set on c already; at most one class is discretionary"), all);
        assertTrue(all.contains("classes[4].target") && all.contains("is not allowed on the discretionary class"), all);
        assertTrue(all.contains("classes[5].importance: 3 is not allowed on the discretionary class"), all);
    }

    @Test
    void parse_tracing_offByDefault_andBadValuesNameTheirKey() {
        String servers = "servers: [ { id: s1, url: \"http://127.0.0.1:9001\", concurrency: 10 } ]\nclasses: [ { name: a, target: 1s } ]\n";
        assertFalse(ConfigLoader.parse(servers, "t.yaml").gateway().tracing().on());
        TracingSettings t = ConfigLoader.parse("gateway: { tracing: { endpoint: \"http://127.0.0.1:4318/v1/traces\" } }\n" + servers, "t.yaml")
                .gateway().tracing();
        assertTrue(t.on());
        assertEquals(0.1, t.sampling());
        assertEquals("slagate", t.serviceName());
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(
                "gateway: { tracing: { endpoint: \"ftp://collector/v1\", sampling: 1.5, serviceName: \"<x>\", exportInterval: 0s, spans: 1 } }\n"
                        + servers, "t.yaml"));
        String all = String.join("\n", e.problems());
        assertTrue(all.contains("gateway.tracing.endpoint: \"ftp://collector/v1\" must be an http or https URL"), all);
        assertTrue(all.contains("gateway.tracing.sampling"), all);
        assertTrue(all.contains("gateway.tracing.serviceName"), all);
        assertTrue(all.contains("gateway.tracing.exportInterval"), all);
        assertTrue(all.contains("spans"), all);
        ConfigException headers = assertThrows(ConfigException.class, () -> ConfigLoader.parse(
                "gateway: { tracing: { endpoint: \"http://c:4318/v1/traces\", headersEnv: { x-key: SLAGATE_NO_SUCH_VARIABLE_9, Host: PATH } } }\n"
                        + servers, "t.yaml"));
        String h = String.join("\n", headers.problems());
        assertTrue(h.contains("gateway.tracing.headersEnv.x-key: \"SLAGATE_NO_SUCH_VARIABLE_9\" names an environment variable that is not set"), h);
        assertTrue(h.contains("gateway.tracing.headersEnv: \"Host\" must be a header name other than"), h);
        TracingSettings withKey = ConfigLoader.parse("gateway: { tracing: { endpoint: \"http://c:4318/v1/traces\", headersEnv: { x-key: PATH } } }\n"
                + servers, "t.yaml").gateway().tracing();
        assertEquals(System.getenv("PATH"), withKey.headers().get("x-key"));
        assertFalse(withKey.toString().contains(System.getenv("PATH")), "a secret's value is not in its text");
        ConfigException missing = assertThrows(ConfigException.class, () -> ConfigLoader.parse("gateway: { tracing: { sampling: 1 } }\n" + servers, "t.yaml"));
        assertTrue(String.join("\n", missing.problems()).contains("gateway.tracing.endpoint"), missing.problems().toString());
    }

    @Test
    void parse_concurrencyAuto_scalarOrWithBounds() {
        SlagateConfig c = ConfigLoader.parse("""
                servers:
                  - { id: s1, url: "http://127.0.0.1:9001", concurrency: auto }
                  - { id: s2, url: "http://127.0.0.1:9002", concurrency: { auto: true, min: 2, max: 200, start: 10 } }
                  - { id: s3, url: "http://127.0.0.1:9003", concurrency: 7 }
                classes: [ { name: gold, target: 1s } ]
                """, "t.yaml");
        assertEquals(new AutoConcurrency(1, AutoConcurrency.DEFAULT_MAX, 1), c.servers().get(0).auto());
        assertEquals(1, c.servers().get(0).concurrency(), "the gateways hold min until the manager decides");
        assertEquals(new AutoConcurrency(2, 200, 10), c.servers().get(1).auto());
        assertEquals(2, c.servers().get(1).concurrency());
        assertNull(c.servers().get(2).auto());
        assertEquals(7, c.servers().get(2).concurrency());
    }

    @Test
    void parse_badConcurrencyAuto_namesTheServerAndTheProblem() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse("""
                servers:
                  - { id: a, url: "http://127.0.0.1:9001", concurrency: { auto: true, min: 10, max: 5 } }
                  - { id: b, url: "http://127.0.0.1:9002", concurrency: { auto: true, min: 0 } }
                  - { id: c, url: "jms:queue:Stock", concurrency: auto }
                  - { id: d, url: "http://127.0.0.1:9004", concurrency: { min: 2 } }
                  - { id: e, url: "http://127.0.0.1:9005", concurrency: { auto: true, start: 500, max: 100 } }
                  - { id: f, url: "http://127.0.0.1:9006", concurrency: automatic }
                classes: [ { name: gold, target: 1s } ]
                """, "t.yaml"));
        String all = String.join("\n", e.problems());
        assertTrue(all.contains("servers[0].concurrency.max: 5 is below min (10)"), all);
        assertTrue(all.contains("servers[1].concurrency.min: 0 is out of range"), all);
        assertTrue(all.contains("servers[2].concurrency: \"auto\" is not available on a JMS server"), all);
        assertTrue(all.contains("servers[3].concurrency: a mapping here is the automatic N_s"), all);
        assertTrue(all.contains("servers[4].concurrency.start: 500 must lie within [min, max] = [1, 100]"), all);
        assertTrue(all.contains("servers[5].concurrency: \"automatic\" must be a whole number"), all);
    }

    @Test
    void controllerForecast_defaultNone_badValueNamed() {
        assertEquals("none", ConfigLoader.parse(MINIMAL, "t.yaml").controller().forecast());
        assertEquals("auto", ConfigLoader.parse(MINIMAL + "controller: { forecast: auto }\n", "t.yaml").controller().forecast());
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigLoader.parse(MINIMAL + "controller: { forecast: crystal-ball }\n", "t.yaml"));
        assertTrue(e.problems().get(0).startsWith("controller.forecast: \"crystal-ball\" is not allowed; use one of: none"),
                e.problems().toString());
    }

    @Test
    void parse_notYaml_namesLine() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigLoader.parse("servers: [\n  { id: s1\n", "broken.yaml"));
        assertTrue(e.getMessage().startsWith("broken.yaml: 1 problem"), e.getMessage());
        assertTrue(e.getMessage().contains("not valid YAML at line"), e.getMessage());
    }

    @Test
    void parse_empty_saysWhatIsRequired() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse("gateway: {id: a}\n", "e.yaml"));
        assertTrue(e.getMessage().contains("servers: missing; at least one server is required"), e.getMessage());
        assertTrue(e.getMessage().contains("classes: missing; at least one traffic class is required"), e.getMessage());
    }

    @Test
    void parse_classPoolWithoutServers_isRejected() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse("""
                servers:
                  - { id: s1, url: "http://127.0.0.1:9001", pool: fast }
                classes:
                  - { name: gold, target: 2s, pool: slow }
                """, "p.yaml"));
        assertTrue(e.getMessage().contains("classes[0].pool: \"slow\" has no server; pools with servers: fast"), e.getMessage());
    }

    @Test
    void parse_jmsServers() {
        SlagateConfig c = ConfigLoader.parse("""
                servers: [ { id: q1, url: "jms:queue:StockUtility", concurrency: 4 }, { id: s1, url: "http://127.0.0.1:9001" } ]
                classes: [ { name: gold, target: 1s } ]
                """, "j.yaml");
        assertTrue(c.servers().get(0).isJms());
        assertEquals("StockUtility", c.servers().get(0).jmsQueue());
        assertTrue(!c.servers().get(1).isJms());
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse("""
                servers: [ { id: q1, url: "jms:topic:prices" } ]
                classes: [ { name: gold, target: 1s } ]
                """, "j.yaml"));
        assertTrue(e.getMessage().contains("servers[0].url: \"jms:topic:prices\" a JMS server is jms:queue:NAME"), e.getMessage());
    }

    @Test
    void parse_busTls_problemsNameTheirKeys() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(MINIMAL + """
                bus:
                  listen: "ssl://0.0.0.0:61617"
                  tls: { trustStore: /nonexistent/trust.p12, trustStorePasswordEnv: SLAGATE_SURELY_UNSET_VARIABLE, color: red }
                """, "b.yaml"));
        String m = e.getMessage();
        assertTrue(m.contains("bus.listen: \"ssl://0.0.0.0:61617\" is a TLS listener; set bus.tls.keyStore"), m);
        assertTrue(m.contains("bus.tls.trustStore: \"/nonexistent/trust.p12\" is not a readable file"), m);
        assertTrue(m.contains("bus.tls.trustStorePasswordEnv"), m);
        assertTrue(m.contains("bus.tls.color"), m);
    }

    @Test
    void aBusInClearToAnotherHost_isRefused_unlessPlaintextSaysTheOperatorMeansIt() {
        for (String bus : new String[] {"url: \"failover:(tcp://10.0.0.5:61616)\"", "listen: tcp://0.0.0.0:61616, user: a, passwordEnv: PATH",
            "url: \"failover:(ssl://10.0.0.5:61617,tcp://broker-2:61616)\"", "url: \"nio://[2001:db8::1]:61616\""}) {
            ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(MINIMAL + "bus: { " + bus + " }\n", "p.yaml"),
                    bus);
            assertTrue(e.getMessage().contains("in clear") && e.getMessage().contains("bus.plaintext"), e.getMessage());
            ConfigLoader.parse(MINIMAL + "bus: { " + bus + ", plaintext: true }\n", "p.yaml");
        }
        for (String bus : new String[] {"url: \"failover:(tcp://127.0.0.1:61616,tcp://localhost:61617)\"", "url: \"ssl://10.0.0.5:61617\"",
            "url: vm://slagate", "url: \"tcp://[::1]:61616\""}) {
            ConfigLoader.parse(MINIMAL + "bus: { " + bus + " }\n", "p.yaml"); // loopback, TLS or in-VM: nothing in clear on a network
        }
    }

    @Test
    void aBrokerOthersReachWithOneAccount_isNamedByCheckConfig_andOneWithRoleAccountsIsNot() {
        SlagateConfig single = ConfigLoader.parse(MINIMAL + "bus: { listen: \"tcp://127.0.0.1:61616\", user: a, passwordEnv: PATH }\n", "s.yaml");
        assertTrue(ConfigCheck.notes(single).contains(ConfigCheck.SINGLE_BUS_ACCOUNT), ConfigCheck.notes(single).toString());
        SlagateConfig roles = ConfigLoader.parse(MINIMAL + "bus: { listen: \"tcp://127.0.0.1:61616\", accounts: [ { user: gw, role: gateway,"
                + " passwordEnv: PATH } ] }\n", "r.yaml");
        assertFalse(ConfigCheck.notes(roles).contains(ConfigCheck.SINGLE_BUS_ACCOUNT));
        assertFalse(ConfigCheck.notes(ConfigLoader.parse(MINIMAL, "m.yaml")).contains(ConfigCheck.SINGLE_BUS_ACCOUNT), "in-VM only: nobody else");
    }

    @Test
    void aJwksOverPlainHttp_isAllowedOnlyToALiteralLoopbackAddress() {
        String auth = "gateway: { authentication: { jwt: { jwks: \"%s\", issuer: i, audience: a } } }\n";
        for (String host : new String[] {"127.evil.example", "127.0.0.1.nip.io", "10.0.0.5"}) {
            ConfigException e = assertThrows(ConfigException.class,
                    () -> ConfigLoader.parse(MINIMAL + auth.formatted("http://" + host + "/jwks.json"), "j.yaml"), host);
            assertTrue(e.getMessage().contains("plain http to another host"), e.getMessage());
        }
        for (String host : new String[] {"127.0.0.1", "127.1.2.3", "[::1]", "localhost"}) {
            ConfigLoader.parse(MINIMAL + auth.formatted("http://" + host + ":8999/jwks.json"), "j.yaml");
        }
    }

    @Test
    void parse_capAboveCapacity_isRejected() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(MINIMAL + """
                allocation:
                  caps: { s1: 11 }
                """, "c.yaml"));
        assertTrue(e.getMessage().contains("allocation.caps.s1: 11 is out of range; allowed: [0, 10]"), e.getMessage());
    }

    @Test
    void parse_customerFromHeader_andSubscriptions() {
        SlagateConfig c = ConfigLoader.parse(MINIMAL + """
                classification:
                  customerFrom: "header:X-Customer"
                  subscriptions:
                    alice: { "/services/Stock": gold, "*": silver }
                  rules:
                    - { grade: gold, class: gold }
                """, "s.yaml");
        assertEquals("X-Customer", c.classification().customerHeader());
        assertEquals("gold", c.classification().subscriptions().get("alice").get("/services/Stock"));
        assertEquals("gold", c.classification().rules().get(0).className());
        assertEquals("*", c.classification().rules().get(0).customer());
    }

    @Test
    void load_missingFile_isOneClearProblem(@TempDir Path dir) throws Exception {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(dir.resolve("nope.yaml")));
        assertTrue(e.getMessage().endsWith("nope.yaml: 1 problem" + System.lineSeparator() + "  - file not found"), e.getMessage());
        Path f = dir.resolve("ok.yaml");
        Files.writeString(f, MINIMAL);
        assertEquals(f.toString(), ConfigLoader.load(f).source());
    }

    @Test
    void loadBus_gatewayAccounts_bindIdsToAccounts_andAnEmptyListIsNamed(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bus.yaml");
        Files.writeString(f, "bus:\n  gatewayAccounts: { edge: [gw3, gw4], gw1: [gw1] }\n");
        assertEquals(Map.of("edge", List.of("gw3", "gw4"), "gw1", List.of("gw1")),
                ConfigLoader.loadBus(f).gatewayAccounts());
        Files.writeString(f, "bus:\n  gatewayAccounts: { edge: [] }\n");
        ConfigException bad = assertThrows(ConfigException.class, () -> ConfigLoader.loadBus(f));
        assertTrue(bad.getMessage().contains("bus.gatewayAccounts.edge") && bad.getMessage().contains("gateway ids"), bad.getMessage());
        Files.writeString(f, "bus:\n  gatewayAccounts: { edge: gw3 }\n");
        bad = assertThrows(ConfigException.class, () -> ConfigLoader.loadBus(f));
        assertTrue(bad.getMessage().contains("bus.gatewayAccounts.edge") && bad.getMessage().contains("list"), bad.getMessage());
    }

    @Test
    void loadBus_brokerOnlyFile_needsNoServersOrClasses_andNamesABadKey(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("broker.yaml");
        Files.writeString(f, "bus:\n  listen: tcp://127.0.0.1:61616\n  accounts:\n    - { user: rm, role: resource-manager, passwordEnv: PATH }\n");
        BusSettings bus = ConfigLoader.loadBus(f);
        assertEquals("tcp://127.0.0.1:61616", bus.listen());
        assertEquals("rm", bus.accounts().get(0).user());
        ConfigException full = assertThrows(ConfigException.class, () -> ConfigLoader.load(f));
        assertTrue(full.getMessage().contains("servers"), "a node still needs servers: " + full.getMessage());
        Files.writeString(f, "bus: { listen: tcp://127.0.0.1:61616, usr: slagate }\n");
        ConfigException bad = assertThrows(ConfigException.class, () -> ConfigLoader.loadBus(f));
        assertTrue(bad.getMessage().contains("bus.usr"), bad.getMessage());
        assertFalse(bad.getMessage().contains("servers"), "only bus: is checked: " + bad.getMessage());
    }

    @Test
    void controllerModel_unknownNameOrBadCorrectionBound_refusedNamingTheKey() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(MINIMAL
                + "controller: { model: mg1, correctionBound: -2 }\n", "t.yaml"));
        assertTrue(e.getMessage().contains("controller.model: \"mg1\" is not a known response-time model; known:"), e.getMessage());
        assertTrue(e.getMessage().contains("controller.correctionBound"), e.getMessage());
        ConfigException nan = assertThrows(ConfigException.class, () -> ConfigLoader.parse(MINIMAL
                + "controller: { correctionBound: 1e999 }\n", "t.yaml")); // infinite
        assertTrue(nan.getMessage().contains("controller.correctionBound"), nan.getMessage());
        for (String m : List.of("auto", "closed", "mmm", "mm1")) {
            assertEquals(m, ConfigLoader.parse(MINIMAL + "controller: { model: " + m + " }\n", "t.yaml").controller().model());
        }
    }

    @Test
    void parse_brokerListenerWithoutCredentials_refusedNamingTheKey() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigLoader.parse(MINIMAL + "bus: { listen: \"tcp://0.0.0.0:61616\" }\n", "t.yaml"));
        assertTrue(e.getMessage().contains("bus.listen") && e.getMessage().contains("without authentication"), e.getMessage());
        assertEquals("", ConfigLoader.parse(MINIMAL, "t.yaml").bus().listen(), "no listener unless asked for");
    }

    @Test
    void parseUntrusted_aliasBombNestingAndSize_refusedInOneShortMessage() {
        StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for (char c = 'b'; c <= 'k'; c++) {
            char p = (char) (c - 1);
            bomb.append(c).append(": &").append(c).append(" [*").append(p).append(", *").append(p).append(", *").append(p)
                    .append(", *").append(p).append(", *").append(p).append(", *").append(p).append("]\n");
        }
        for (String hostile : new String[] {bomb.toString(), "servers: " + "[".repeat(1000) + "]".repeat(1000),
                "servers: []\n# " + "x".repeat(ConfigLoader.MAX_UNTRUSTED_CHARS)}) {
            long t0 = System.nanoTime();
            ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parseUntrusted(hostile, "bus"));
            assertTrue(e.getMessage().lines().count() <= ConfigException.MAX_LISTED + 2 && e.getMessage().length() < 4000,
                    "one bounded message: " + e.getMessage().length());
            assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "refused without expanding it");
        }
    }

    @Test
    void parse_manyBadEntries_messageBounded() {
        StringBuilder rules = new StringBuilder(MINIMAL + "classification:\n  rules:\n");
        for (int i = 0; i < 5000; i++) {
            rules.append("    - { class: nope").append(i).append(" }\n");
        }
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(rules.toString(), "t.yaml"));
        assertEquals(5000, e.problems().size());
        assertTrue(e.getMessage().lines().count() <= ConfigException.MAX_LISTED + 2, "bounded: " + e.getMessage().lines().count());
        assertTrue(e.getMessage().contains("and 4975 more"));
    }

    @Test
    void parse_markupInNamesAndTexts_refused() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:9001", pool: "<script>x</script>" } ]
                classes: [ { name: basic, target: 1s, pool: "<script>x</script>" } ]
                classification:
                  customerFrom: "header:X-<b>"
                  subscriptions: { "<img src=x>": { "*": gold } }
                  rules: [ { operation: "urn:\\"onload", class: basic } ]
                """, "t.yaml"));
        String m = e.getMessage();
        for (String key : new String[] {"servers[0].pool", "classes[0].pool", "classification.customerFrom",
                "classification.subscriptions", "classification.rules[0].operation"}) {
            assertTrue(m.contains(key), key + " in " + m);
        }
    }

    @Test
    void parse_trustedProxiesAndClientLimits() {
        SlagateConfig c = ConfigLoader.parse(MINIMAL + """
                gateway: { trustedProxies: ["10.0.0.0/8", "192.0.2.7", "fd00::/8"], bufferedRequestBytes: 16KiB,
                           requestBodyTimeout: 2s, bufferedResponseBytes: 1MiB, responseWriteTimeout: 3s, underscoreHeaders: refuse }
                """, "t.yaml");
        assertEquals(List.of("10.0.0.0/8", "192.0.2.7", "fd00::/8"), c.gateway().clients().trustedProxies());
        assertEquals(16 * 1024, c.gateway().clients().bufferedRequestBytes());
        assertTrue(c.gateway().clients().refuseUnderscoreHeaders());
        assertEquals(8 * 1024, c.gateway().clients().requestBufferBytes(), "Jetty's own default");
        assertEquals(2 * 1024, ConfigLoader.parse(MINIMAL + "gateway: { requestBufferBytes: 2KiB }\n", "t.yaml")
                .gateway().clients().requestBufferBytes());
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(MINIMAL + """
                gateway: { trustedProxies: ["evil.example", "10.0.0.0/40"], underscoreHeaders: maybe, maxRequestBytes: 8KiB,
                           bufferedRequestBytes: 16KiB, requestBufferBytes: 512 }
                """, "t.yaml"));
        for (String key : new String[] {"gateway.trustedProxies[0]", "gateway.trustedProxies[1]", "gateway.underscoreHeaders",
                "gateway.bufferedRequestBytes", "gateway.requestBufferBytes"}) {
            assertTrue(e.getMessage().contains(key), key + " in " + e.getMessage());
        }
    }

    @Test
    void listener_relayByDefaultForPlainHttp_jettyWhenAsked_refusedWithTls_orUnknown() {
        assertTrue(ConfigLoader.parse(MINIMAL, "t.yaml").gateway().clients().relayListener(), "the relay listener by default");
        assertFalse(ConfigLoader.parse(MINIMAL + "gateway: { listener: jetty }\n", "t.yaml").gateway().clients().relayListener());
        ConfigException unknown = assertThrows(ConfigException.class,
                () -> ConfigLoader.parse(MINIMAL + "gateway: { listener: netty }\n", "t.yaml"));
        assertTrue(unknown.getMessage().contains("gateway.listener") && unknown.getMessage().contains("jetty, relay"), unknown.getMessage());
        ConfigException tls = assertThrows(ConfigException.class, () -> ConfigLoader.parse(MINIMAL
                + "gateway: { listener: relay, tls: { keyStore: /nonexistent/k.p12, passwordEnv: SLAGATE_SURELY_UNSET_VARIABLE } }\n", "t.yaml"));
        assertTrue(tls.getMessage().contains("gateway.listener") && tls.getMessage().contains("plain HTTP only"), tls.getMessage());
    }

    @Test
    void cidr_containsExactlyItsBlock() {
        Cidr c = Cidr.parse("10.1.0.0/16");
        assertTrue(c.contains(InetAddress.getLoopbackAddress()) == false);
        assertTrue(Cidr.parse("127.0.0.0/8").contains(InetAddress.getLoopbackAddress()));
        assertTrue(Cidr.parse("192.0.2.7").contains(addr("192.0.2.7")));
        assertFalse(Cidr.parse("192.0.2.7").contains(addr("192.0.2.8")));
        assertTrue(Cidr.parse("10.1.0.0/16").contains(addr("10.1.255.1")));
        assertFalse(Cidr.parse("10.1.0.0/16").contains(addr("10.2.0.1")));
        assertTrue(Cidr.parse("10.0.0.0/9").contains(addr("10.127.0.1")));
        assertFalse(Cidr.parse("10.0.0.0/9").contains(addr("10.128.0.1")));
        assertFalse(Cidr.parse("::1/128").contains(addr("127.0.0.1")), "families do not mix");
    }

    private static InetAddress addr(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void loadBalancing_perPool_andLocalitySettings() {
        SlagateConfig c = ConfigLoader.parse("""
                servers:
                  - { id: s1, url: "http://127.0.0.1:9001", pool: store }
                  - { id: s2, url: "http://127.0.0.1:9002", pool: quotes }
                classes:
                  - { name: gold, target: 2s, pool: store }
                  - { name: bronze, target: 3s, pool: quotes }
                gateway:
                  loadBalancing: { default: round-robin, store: locality }
                  locality: { epsilon: 0.5, key: X-Item-Group, workingSetHeader: none, remapInterval: 10s }
                """, "t.yaml");
        assertEquals(LoadBalancing.LOCALITY, c.gateway().loadBalancing("store"));
        assertEquals(LoadBalancing.ROUND_ROBIN, c.gateway().loadBalancing("quotes"));
        assertEquals(0.5, c.gateway().locality().epsilon(), 1e-12);
        assertEquals("X-Item-Group", c.gateway().locality().key());
        assertNull(c.gateway().locality().workingSetHeader(), "none: learn from response times only");
        assertEquals(Duration.ofSeconds(10), c.gateway().locality().remapInterval());
        // a scalar applies to every pool; the defaults of locality
        SlagateConfig d = ConfigLoader.parse(MINIMAL + "gateway: { loadBalancing: lard }\n", "t.yaml");
        assertEquals(LoadBalancing.LARD, d.gateway().loadBalancing("default"));
        assertEquals(LocalitySettings.DEFAULT_WORKING_SET_HEADER, d.gateway().locality().workingSetHeader());
        assertEquals(0.25, d.gateway().locality().epsilon(), 1e-12);
        SlagateConfig r = ConfigLoader.parse(MINIMAL + "gateway: { loadBalancing: lard-r }\n", "t.yaml");
        assertEquals(LoadBalancing.LARD_R, r.gateway().loadBalancing("default"));
        assertTrue(LoadBalancing.LARD_R.byRequestType());
        assertEquals("lard-r", LoadBalancing.LARD_R.configName());
    }

    @Test
    void loadBalancing_mistakes_nameTheirKey() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(MINIMAL + """
                gateway:
                  loadBalancing: { default: locality, shop: nearest, nowhere: lard }
                  locality: { epsilon: 0, key: "X Item", workingSetHeader: "a:b" }
                """, "e.yaml"));
        String m = e.getMessage();
        assertTrue(m.contains("gateway.loadBalancing.shop") && m.contains("nearest") && m.contains("locality, lard, lard-r"), m);
        assertTrue(m.contains("gateway.loadBalancing.nowhere") && m.contains("names a pool with no server"), m);
        assertTrue(m.contains("gateway.locality.epsilon") && m.contains("must be above 0"), m);
        assertTrue(m.contains("gateway.locality.key") && m.contains("HTTP header name"), m);
        assertTrue(m.contains("gateway.locality.workingSetHeader"), m);
        ConfigException scalar = assertThrows(ConfigException.class,
                () -> ConfigLoader.parse(MINIMAL + "gateway: { loadBalancing: nearest }\n", "e.yaml"));
        assertTrue(scalar.getMessage().contains("gateway.loadBalancing") && scalar.getMessage().contains("nearest"), scalar.getMessage());
        ConfigException negative = assertThrows(ConfigException.class,
                () -> ConfigLoader.parse(MINIMAL + "gateway: { locality: { epsilon: -1 } }\n", "e.yaml"));
        assertTrue(negative.getMessage().contains("gateway.locality.epsilon"), negative.getMessage());
    }

    @Test
    void flashCrowd_offByDefault_andItsMistakesNameTheirKey() {
        assertNull(ConfigLoader.parse(MINIMAL, "t.yaml").gateway().flashCrowd());
        FlashCrowdSettings f = ConfigLoader.parse(MINIMAL + "gateway: { flashCrowd: {} }\n", "t.yaml").gateway().flashCrowd();
        assertEquals(5, f.factor(), 1e-12);
        assertEquals(Duration.ofMinutes(2), f.maxDuration());
        assertTrue(f.protect());
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(MINIMAL + """
                gateway: { flashCrowd: { factor: 1, minRate: 0, maxDuration: 1s, protect: sometimes, alarm: loud } }
                """, "e.yaml"));
        String m = e.getMessage();
        assertTrue(m.contains("gateway.flashCrowd.factor"), m);
        assertTrue(m.contains("gateway.flashCrowd.minRate"), m);
        assertTrue(m.contains("gateway.flashCrowd.maxDuration"), m);
        assertTrue(m.contains("gateway.flashCrowd.protect"), m);
        assertTrue(m.contains("alarm"), m);
    }

    @Test
    void movableServers_andReconfiguration_andTheirMistakes() {
        SlagateConfig c = ConfigLoader.parse("""
                servers:
                  - { id: a1, url: "http://127.0.0.1:9001", pool: a }
                  - { id: b1, url: "http://127.0.0.1:9002", pool: b }
                  - { id: b2, url: "http://127.0.0.1:9003", pools: [b, a] }
                classes:
                  - { name: gold, target: 2s, pool: a }
                  - { name: bronze, target: 3s, pool: b }
                controller: { reconfiguration: { every: 10s, high: 0.9, low: 0.4, dwell: 5m, minServers: { b: 1 } } }
                """, "t.yaml");
        ServerConfig b2 = c.servers().get(2);
        assertEquals("b", b2.pool(), "with pools alone, it starts in the first");
        assertTrue(b2.movable());
        assertEquals(List.of("b", "a"), b2.pools());
        assertTrue(!c.servers().get(0).movable());
        assertEquals(0.9, c.controller().reconfiguration().high(), 1e-12);
        assertEquals(Duration.ofMinutes(5), c.controller().reconfiguration().dwell());
        assertEquals(1, c.controller().reconfiguration().minServers("b"));
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse("""
                servers:
                  - { id: a1, url: "http://127.0.0.1:9001", pool: a }
                  - { id: b1, url: "http://127.0.0.1:9002", pool: b, pools: [a, c] }
                classes:
                  - { name: gold, target: 2s, pool: a }
                controller: { reconfiguration: { high: 0.5, low: 0.6, minServers: { a: 3, z: 1 } } }
                """, "e.yaml"));
        String m = e.getMessage();
        assertTrue(m.contains("servers[1].pools") && m.contains("must include its pool"), m);
        assertTrue(m.contains("is not a pool (no server starts in it)"), m);
        assertTrue(m.contains("controller.reconfiguration.low") && m.contains("below high"), m);
        assertTrue(m.contains("controller.reconfiguration.minServers.a") && m.contains("above the pool"), m);
        assertTrue(m.contains("controller.reconfiguration.minServers.z") && m.contains("names no pool"), m);
    }

    @Test
    void tuning_needsASafeSide_andNamesEachMistake() {
        String servers = """
                servers:
                  - { id: s1, url: "http://127.0.0.1:9001", pool: a }
                  - { id: s2, url: "http://127.0.0.1:9002", pool: t }
                classes:
                  - { name: p, target: 1s, pool: a }
                  - { name: p-trial, target: 1s, pool: t }
                """;
        TuningSettings ok = ConfigLoader.parse(servers + """
                controller: { tuning: { safe: a, experimental: t, twins: { p: p-trial }, knobs: [ { name: concurrency, min: 1, max: 20 },
                  { name: workers, path: /admin/knobs, min: 1, max: 64 } ] } }
                """, "t.yaml").controller().tuning().get(0);
        assertEquals("simplex", ok.strategy());
        assertEquals(0.2, ok.share(), 1e-12);
        assertEquals(2, ok.knobs().size());
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(servers + """
                controller: { tuning: { strategy: guess, safe: a, experimental: a, share: 1.5,
                  knobs: [ { name: workers, min: 9, max: 3 }, { name: concurrency, max: 5 } ] } }
                """, "e.yaml"));
        String m = e.getMessage();
        assertTrue(m.contains("controller.tuning.strategy") && m.contains("guess"), m);
        assertTrue(m.contains("controller.tuning.twins") && m.contains("safe side"), m);
        assertTrue(m.contains("controller.tuning.experimental") && m.contains("must differ"), m);
        assertTrue(m.contains("controller.tuning.share"), m);
        assertTrue(m.contains("controller.tuning.knobs[0].path"), m);
        assertTrue(m.contains("controller.tuning.knobs[0].max") && m.contains("empty"), m);
        assertTrue(m.contains("controller.tuning.knobs[1].max") && m.contains("missing"), m);
        ConfigException wrongPool = assertThrows(ConfigException.class, () -> ConfigLoader.parse(servers + """
                controller: { tuning: { safe: a, experimental: t, twins: { p-trial: p }, knobs: [ { name: concurrency, min: 1, max: 20 } ] } }
                """, "e.yaml"));
        assertTrue(wrongPool.getMessage().contains("controller.tuning.twins.p-trial"), wrongPool.getMessage());

        // the best configuration written back: every knob, each within its bounds
        TuningSettings kept = ConfigLoader.parse(servers + """
                controller: { tuning: { safe: a, experimental: t, twins: { p: p-trial }, knobs: [ { name: concurrency, min: 1, max: 20 },
                  { name: workers, path: /admin/knobs, min: 1, max: 64 } ], best: { concurrency: 8, workers: 10 } } }
                """, "t.yaml").controller().tuning().get(0);
        assertEquals(Map.of("concurrency", 8.0, "workers", 10.0), kept.best());
        assertTrue(ok.best().isEmpty());
        ConfigException badBest = assertThrows(ConfigException.class, () -> ConfigLoader.parse(servers + """
                controller: { tuning: { safe: a, experimental: t, twins: { p: p-trial }, knobs: [ { name: concurrency, min: 1, max: 20 },
                  { name: workers, path: /admin/knobs, min: 1, max: 64 } ], best: { concurrency: 80, cache: 3 } } }
                """, "e.yaml"));
        String b = badBest.getMessage();
        assertTrue(b.contains("controller.tuning.best.concurrency") && b.contains("[1, 20]"), b);
        assertTrue(b.contains("controller.tuning.best.workers") && b.contains("every knob"), b);
        assertTrue(b.contains("controller.tuning.best.cache") && b.contains("unknown key"), b);
    }

    /** The queue timeout of a side's classes: slagate's own knob (no path), real-valued, in seconds within a class's range. */
    @Test
    void queueTimeoutKnob_aSideKnobInSeconds_boundsNamed() {
        String servers = """
                servers:
                  - { id: s1, url: "http://127.0.0.1:9001", pool: a }
                  - { id: s2, url: "http://127.0.0.1:9002", pool: t }
                classes:
                  - { name: p, target: 1s, pool: a }
                  - { name: p-trial, target: 1s, pool: t }
                """;
        TuningSettings ok = ConfigLoader.parse(servers + """
                controller: { tuning: { safe: a, experimental: t, twins: { p: p-trial }, knobs: [ { name: queueTimeout, min: 0.2, max: 5 } ] } }
                """, "t.yaml").controller().tuning().get(0);
        assertEquals(null, ok.knobs().get(0).path());
        assertTrue(!ok.knobs().get(0).integer(), "seconds, not whole");
        String m = assertThrows(ConfigException.class, () -> ConfigLoader.parse(servers + """
                controller: { tuning: { safe: a, experimental: t, twins: { p: p-trial }, knobs: [ { name: queueTimeout, min: 0, max: 7200 } ] } }
                """, "e.yaml")).getMessage();
        assertTrue(m.contains("controller.tuning.knobs[0].max") && m.contains("[0.001, 3600.0]"), m);
        m = assertThrows(ConfigException.class, () -> ConfigLoader.parse(servers + """
                controller: { tuning: { interleaved: true, knobs: [ { name: queueTimeout, min: 0.2, max: 5 } ] } }
                """, "e.yaml")).getMessage();
        assertTrue(m.contains("controller.tuning.knobs[0].name") && m.contains("safe side"), m);
    }

    /**
     * The statistics window: global (interleaved only), within what the gateways hold (a reporting interval to the
     * configured window), and each trial's settle outlasts its longest value.
     */
    @Test
    void windowKnob_withinTheGatewaysWindow_andSettleOutlastsIt() {
        String base = """
                gateway: { stats: { reportingInterval: 1s, window: 20s } }
                servers: [ { id: s1, url: "http://127.0.0.1:9001" } ]
                classes: [ { name: p, target: 1s } ]
                """;
        TuningSettings ok = ConfigLoader.parse(base + """
                controller: { tuning: { interleaved: true, settle: 20s, knobs: [ { name: window, min: 2, max: 20 } ] } }
                """, "t.yaml").controller().tuning().get(0);
        assertTrue(!ok.knobs().get(0).integer());
        String m = assertThrows(ConfigException.class, () -> ConfigLoader.parse(base + """
                controller: { tuning: { interleaved: true, settle: 20s, knobs: [ { name: window, min: 0.5, max: 60 } ] } }
                """, "e.yaml")).getMessage();
        assertTrue(m.contains("controller.tuning.knobs[0].max") && m.contains("gateway.stats.window"), m);
        m = assertThrows(ConfigException.class, () -> ConfigLoader.parse(base + """
                controller: { tuning: { interleaved: true, settle: 5s, knobs: [ { name: window, min: 2, max: 20 } ] } }
                """, "e.yaml")).getMessage();
        assertTrue(m.contains("controller.tuning.settle") && m.contains("previous setting"), m);
        m = assertThrows(ConfigException.class, () -> ConfigLoader.parse("""
                gateway: { stats: { reportingInterval: 1s, window: 20s } }
                servers: [ { id: s1, url: "http://127.0.0.1:9001", pool: a }, { id: s2, url: "http://127.0.0.1:9002", pool: t } ]
                classes: [ { name: p, target: 1s, pool: a }, { name: p-trial, target: 1s, pool: t } ]
                controller: { tuning: { safe: a, experimental: t, twins: { p: p-trial }, settle: 20s, knobs: [ { name: window, min: 2, max: 20 } ] } }
                """, "e.yaml")).getMessage();
        assertTrue(m.contains("controller.tuning.knobs[0].name") && m.contains("interleaved: true"), m);
    }

    /** The controller's own knobs are global: only with the operator's interleaved: true, and each mistake named. */
    @Test
    void controllerKnobs_needInterleaved_andEachMistakeNamed() {
        String servers = """
                servers:
                  - { id: s1, url: "http://127.0.0.1:9001", pool: a }
                  - { id: s2, url: "http://127.0.0.1:9002", pool: t }
                classes:
                  - { name: p, target: 1s, pool: a }
                  - { name: p-trial, target: 1s, pool: t }
                """;
        TuningSettings ok = ConfigLoader.parse(servers + """
                controller: { cycle: 5s, tuning: { interleaved: true, knobs: [ { name: damping, min: 0.1, max: 0.9 },
                  { name: model, choices: [auto, mm1] }, { name: cycle, min: 2, max: 20 } ] } }
                """, "t.yaml").controller().tuning().get(0);
        assertTrue(ok.interleaved());
        assertEquals(null, ok.safePool());
        assertEquals(List.of("auto", "mm1"), ok.knobs().get(1).choices());
        assertEquals(1, ok.knobs().get(1).max(), 1e-12, "the model knob's value is the index of its choice");
        assertTrue(!ok.knobs().get(0).integer(), "a controller knob is real unless said otherwise");

        String m = assertThrows(ConfigException.class, () -> ConfigLoader.parse(servers + """
                controller: { tuning: { safe: a, experimental: t, twins: { p: p-trial }, knobs: [ { name: damping, min: 0.1, max: 0.9 } ] } }
                """, "e.yaml")).getMessage();
        assertTrue(m.contains("controller.tuning.knobs[0].name") && m.contains("interleaved: true"), m);

        m = assertThrows(ConfigException.class, () -> ConfigLoader.parse(servers + """
                controller: { damping: 0.95, model: closed, tuning: { interleaved: true, safe: a, twins: { p: p-trial }, knobs: [
                  { name: concurrency, min: 1, max: 20 }, { name: damping, min: 0.1, max: 0.9 }, { name: resolution, min: 0.5, max: 5000 },
                  { name: model, choices: [auto, guess], min: 0 } ] } }
                """, "e.yaml")).getMessage();
        assertTrue(m.contains("controller.tuning.safe") && m.contains("no sides"), m);
        assertTrue(m.contains("controller.tuning.twins") && m.contains("no sides"), m);
        assertTrue(m.contains("controller.tuning.knobs[0].name") && m.contains("controller's own knobs only"), m);
        assertTrue(m.contains("controller.tuning.knobs[2].max") && m.contains("range [0.001, 1000.0]"), m);
        assertTrue(m.contains("controller.tuning.knobs[3].choices") && m.contains("guess"), m);
        assertTrue(m.contains("controller.tuning.knobs[3].min") && m.contains("no bounds"), m);
        assertTrue(m.contains("controller.damping") && m.contains("outside the tuning knob damping's bounds"), m);
        assertTrue(m.contains("controller.model") && m.contains("not among the choices"), m);

        m = assertThrows(ConfigException.class, () -> ConfigLoader.parse(servers + """
                controller: { tuning: { partitions: {
                  one: { interleaved: true, knobs: [ { name: damping, min: 0.1, max: 0.9 } ] },
                  two: { interleaved: true, knobs: [ { name: resolution, min: 0.5, max: 4 } ] } } } }
                """, "e.yaml")).getMessage();
        assertTrue(m.contains("controller.tuning.partitions.two.interleaved") && m.contains("one is interleaved already"), m);
    }

    @Test
    void tuningPartitions_eachAWorkLineOfItsOwn_andEachMistakeNamed() {
        String servers = """
                servers:
                  - { id: a1, url: "http://127.0.0.1:9001", pool: a }
                  - { id: a2, url: "http://127.0.0.1:9002", pool: a-trial }
                  - { id: b1, url: "http://127.0.0.1:9003", pool: b }
                  - { id: b2, url: "http://127.0.0.1:9004", pool: b-trial }
                classes:
                  - { name: p, target: 1s, pool: a }
                  - { name: p-trial, target: 1s, pool: a-trial }
                  - { name: q, target: 1s, pool: b }
                  - { name: q-trial, target: 1s, pool: b-trial }
                """;
        List<TuningSettings> parts = ConfigLoader.parse(servers + """
                controller: { tuning: { strategy: hill, period: 9s, partitions: {
                  quotes: { safe: a, experimental: a-trial, share: 0.3, twins: { p: p-trial }, knobs: [ { name: concurrency, min: 1, max: 20 } ] },
                  trades: { safe: b, experimental: b-trial, twins: { q: q-trial }, knobs: [ { name: workers, path: /admin/knobs, min: 1, max: 64 } ],
                            best: { workers: 12 } } } } }
                """, "t.yaml").controller().tuning();
        assertEquals(List.of("quotes", "trades"), parts.stream().map(TuningSettings::partition).toList());
        assertEquals("hill", parts.get(1).strategy(), "the search settings are shared");
        assertEquals(Duration.ofSeconds(9), parts.get(0).period());
        assertEquals(0.3, parts.get(0).share(), 1e-12);
        assertEquals(0.2, parts.get(1).share(), 1e-12);
        assertEquals(Map.of("workers", 12.0), parts.get(1).best());
        assertEquals("controller.tuning.partitions.trades.best", parts.get(1).bestKey());
        assertTrue(ConfigLoader.parse(servers, "t.yaml").controller().tuning().isEmpty(), "no tuning: no partition");

        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.parse(servers + """
                controller: { tuning: { safe: a, partitions: {
                  quotes: { safe: a, experimental: a-trial, twins: { p: p-trial }, knobs: [ { name: concurrency, min: 1, max: 20 } ], colour: red },
                  again: { safe: a-trial, experimental: b, twins: { q: q-trial }, knobs: [ { name: concurrency, min: 1, max: 20 } ] },
                  "bad name!": { safe: b, experimental: b-trial } } } }
                """, "e.yaml"));
        String m = e.getMessage();
        assertTrue(m.contains("controller.tuning.safe") && m.contains("belongs in each partition"), m);
        assertTrue(m.contains("controller.tuning.partitions.quotes.colour") && m.contains("unknown key"), m);
        assertTrue(m.contains("controller.tuning.partitions.again.safe") && m.contains("already tuned by partition quotes"), m);
        assertTrue(m.contains("controller.tuning.partitions.again.twins.q") && m.contains("must be a class of the safe pool a-trial"), m);
        assertTrue(m.contains("controller.tuning.partitions.bad name!") && m.contains("not a partition name"), m);
        ConfigException empty = assertThrows(ConfigException.class, () -> ConfigLoader.parse(servers + """
                controller: { tuning: { partitions: {} } }
                """, "e.yaml"));
        assertTrue(empty.getMessage().contains("controller.tuning.partitions") && empty.getMessage().contains("at least one partition"),
                empty.getMessage());
    }

    @Test
    void capacityStabilization_threeStatisticsWindowsUnlessSet() {
        String base = """
                gateway: { stats: { reportingInterval: 5s, window: 20s } }
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 4 } ]
                classes: [ { name: c, target: 1s } ]
                """;
        SlagateConfig shipped = ConfigLoader.parse(base, "stabilization-default");
        assertEquals(Duration.ofSeconds(60), shipped.controller().capacityStabilization(shipped.gateway().stats().window()));
        SlagateConfig none = ConfigLoader.parse(base + "controller: { capacityStabilization: 0s }\n", "stabilization-zero");
        assertEquals(Duration.ZERO, none.controller().capacityStabilization(none.gateway().stats().window()));
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigLoader.parse(base + "controller: { capacityStabilization: 2h }\n", "stabilization-too-long"));
        assertTrue(e.getMessage().contains("controller.capacityStabilization"), e.getMessage());
    }

    /** A server's URL as a prefix for paths: one trailing slash cut, a path kept, a bare authority as it is. */
    @Test
    void baseUrl_hasNoTrailingSlash() {
        assertEquals("http://s:9001/axis2", new ServerConfig("s", java.net.URI.create("http://s:9001/axis2/"), 1, "default", "/").baseUrl());
        assertEquals("http://s:9001/axis2", new ServerConfig("s", java.net.URI.create("http://s:9001/axis2"), 1, "default", "/").baseUrl());
        assertEquals("http://s:9001", new ServerConfig("s", java.net.URI.create("http://s:9001"), 1, "default", "/").baseUrl());
    }
}
