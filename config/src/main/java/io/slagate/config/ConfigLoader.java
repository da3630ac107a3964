package io.slagate.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.slagate.config.utility.UtilityFunctionProvider;
import io.slagate.config.utility.UtilityFunctions;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads and validates a slagate YAML configuration. Every problem in a file is reported at once, in
 * one {@link ConfigException} naming the file, the key, the value and what is allowed.
 */
public final class ConfigLoader {
    private static final ObjectMapper YAML = new ObjectMapper(yamlFactory(8 << 20));
    /** For documents from the bus or the console: at most this many characters, checked before parsing. */
    public static final int MAX_UNTRUSTED_CHARS = 1 << 20;
    private static final ObjectMapper UNTRUSTED_YAML = new ObjectMapper(yamlFactory(MAX_UNTRUSTED_CHARS));

    /**
     * The parser's own limits, whoever wrote the document: size, YAML aliases (an alias bomb expands
     * a few lines into gigabytes) and nesting depth. No configuration comes near them.
     */
    private static YAMLFactory yamlFactory(int codePoints) {
        org.yaml.snakeyaml.LoaderOptions limits = new org.yaml.snakeyaml.LoaderOptions();
        limits.setCodePointLimit(codePoints);
        limits.setMaxAliasesForCollections(20);
        limits.setNestingDepthLimit(30);
        limits.setAllowDuplicateKeys(false);
        // Jackson reads YAML as a stream of events (an alias is not expanded), so its own limits bound it too
        return YAMLFactory.builder().loaderOptions(limits).streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                .maxNestingDepth(64).maxStringLength(codePoints).maxDocumentLength(4L * codePoints).build()).build();
    }
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    /** An HTTP header name (RFC 9110 token), as customerFrom names one. */
    private static final Pattern HEADER = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}");
    /**
     * Free text that names request values (customers, services, operations, grades): printable, at most
     * 256 characters, nothing that is markup or quoting anywhere it is shown (console, logs, YAML).
     */
    private static final Pattern SAFE_TEXT = Pattern.compile("[^\\p{Cntrl}<>\"'`\\\\]{1,256}");

    private static void safeText(ConfigNode n, String key, String value) {
        if (value != null && !SAFE_TEXT.matcher(value).matches()) {
            n.problem(key, value, "must be 1-256 printable characters without < > \" ' ` or \\");
        }
    }
    /** The longest timeout, target or deadline a configuration may name (a class's queueTimeout among them). */
    public static final Duration MAX_TIMEOUT = Duration.ofHours(1);
    /** The shortest queue timeout a class may have. */
    public static final Duration MIN_QUEUE_TIMEOUT = Duration.ofMillis(1);
    /** Tuning knobs slagate sets itself on a side: N_s of its servers, the queue timeout of its classes (seconds). */
    private static final List<String> GATEWAY_KNOBS = List.of("concurrency", "queueTimeout");

    private ConfigLoader() {
    }

    public static SlagateConfig load(Path file) {
        return parse(read(file), file.toString());
    }

    /**
     * Only the {@code bus:} section of a file, for a process that is nothing but the broker: a
     * broker-only file needs no servers or classes (a full node's file works too; its other sections
     * are not checked here).
     */
    public static BusSettings loadBus(Path file) {
        String source = file.toString();
        List<String> problems = new ArrayList<>();
        ConfigNode top = new ConfigNode(root(read(file), source, YAML), "", problems);
        top.allowOnly("gateway", "servers", "classes", "classification", "allocation", "bus", "controller", "console");
        BusSettings bus = bus(top.object("bus"));
        if (!problems.isEmpty()) {
            throw new ConfigException(source, problems);
        }
        return bus;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file.toString(), List.of("file not found"));
        } catch (IOException e) {
            throw new ConfigException(file.toString(), List.of("cannot be read: " + e.getMessage()));
        }
    }

    public static SlagateConfig parse(String yaml, String source) {
        return parse(yaml, source, YAML);
    }

    /**
     * A document that came over the bus or through the console: refused in one line when over
     * {@link #MAX_UNTRUSTED_CHARS} (before any parsing), then parsed under the same limits.
     */
    public static SlagateConfig parseUntrusted(String yaml, String source) {
        if (yaml == null || yaml.length() > MAX_UNTRUSTED_CHARS) {
            throw new ConfigException(source, List.of("(document): " + (yaml == null ? "missing" : yaml.length() + " characters")
                    + "; at most " + MAX_UNTRUSTED_CHARS + " are accepted from the bus or the console"));
        }
        return parse(yaml, source, UNTRUSTED_YAML);
    }

    private static SlagateConfig parse(String yaml, String source, ObjectMapper mapper) {
        List<String> problems = new ArrayList<>();
        return parse(new ConfigNode(root(yaml, source, mapper), "", problems), problems, source);
    }

    private static JsonNode root(String yaml, String source, ObjectMapper mapper) {
        JsonNode root;
        try {
            root = mapper.readTree(yaml);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            String why = e.getOriginalMessage();
            throw new ConfigException(source, List.of("not valid YAML" + where + ": "
                    + (why != null && why.length() > 200 ? why.substring(0, 200) + "..." : why)));
        }
        if (root == null || root.isMissingNode() || !root.isObject()) {
            throw new ConfigException(source, List.of("(top level): the file must be a YAML mapping with at least `servers:` and `classes:`"));
        }
        return root;
    }

    private static SlagateConfig parse(ConfigNode top, List<String> problems, String source) {
        top.allowOnly("gateway", "servers", "classes", "classification", "allocation", "bus", "controller", "console");
        GatewaySettings gateway = gateway(top.object("gateway"));
        List<ServerConfig> servers = servers(top);
        List<TrafficClassConfig> classes = classes(top);
        ClassificationConfig classification = classification(top.object("classification"), classes);
        StaticAllocation allocation = allocation(top.object("allocation"), classes, servers);
        BusSettings bus = bus(top.object("bus"));
        ControllerSettings controller = controller(top.object("controller"));
        ConsoleSettings console = console(top.object("console"));
        crossCheck(top, servers, classes, gateway, controller);
        if (!problems.isEmpty()) {
            throw new ConfigException(source, problems);
        }
        return new SlagateConfig(source, gateway, servers, classes, classification, allocation, bus, controller, console);
    }

    private static GatewaySettings gateway(ConfigNode g) {
        g.allowOnly("id", "listen", "admin", "scheduler", "loadBalancing", "faultStatus", "maxRequestBytes",
                "connectTimeout", "serverTimeout", "health", "stats", "headerTimeout", "maxConnections", "tls",
                "bufferedRequestBytes", "requestBodyTimeout", "minRequestDataRate", "bufferedResponseBytes",
                "responseWriteTimeout", "trustedProxies", "underscoreHeaders", "requestBufferBytes", "adminDump", "localLimit", "locality", "flashCrowd",
                "loops", "upstreamReuse", "maxUpstreamConnections", "startupCaps", "managerTimeout");
        String id = g.string("id", "gw1");
        if (id != null && !NAME.matcher(id).matches()) {
            g.problem("id", id, "must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        HostPort listen = hostPort(g, "listen", new HostPort("127.0.0.1", 8080)); // loopback unless configured
        HostPort admin = hostPort(g, "admin", new HostPort("127.0.0.1", 8081));
        SchedulerMode mode = g.choice("scheduler", SchedulerMode.WRR, SchedulerMode::parse, "wrr", "fcfs", "priority");
        Map<String, LoadBalancing> perPool = new LinkedHashMap<>();
        LoadBalancing lb = loadBalancing(g, perPool);
        FaultStatus fs = g.choice("faultStatus", FaultStatus.WSI, FaultStatus::parse, "wsi", "http");
        long maxBytes = g.bytes("maxRequestBytes", 10L * 1024 * 1024, 1024, 2L * 1024 * 1024 * 1024);
        Duration connect = g.duration("connectTimeout", Duration.ofSeconds(2), Duration.ofMillis(10), Duration.ofMinutes(5));
        Duration server = g.duration("serverTimeout", Duration.ofSeconds(30), Duration.ofMillis(10), MAX_TIMEOUT);
        ConfigNode h = g.object("health");
        h.allowOnly("failuresToEject", "backoff", "maxBackoff");
        HealthSettings health = new HealthSettings(
                h.integer("failuresToEject", 3, 1, 1000),
                h.duration("backoff", Duration.ofSeconds(1), Duration.ofMillis(10), MAX_TIMEOUT),
                h.duration("maxBackoff", Duration.ofSeconds(2), Duration.ofMillis(10), MAX_TIMEOUT));
        if (health.maxBackoff().compareTo(health.backoff()) < 0) {
            h.problem("maxBackoff", ConfigNode.human(health.maxBackoff()),
                    "must be at least health.backoff (" + ConfigNode.human(health.backoff()) + ")");
        }
        ConfigNode st = g.object("stats");
        st.allowOnly("reportingInterval", "window");
        StatsSettings stats = new StatsSettings(
                st.duration("reportingInterval", Duration.ofSeconds(5), Duration.ofMillis(50), Duration.ofMinutes(10)),
                st.duration("window", Duration.ofSeconds(30), Duration.ofMillis(50), Duration.ofHours(1)));
        if (stats.window().compareTo(stats.reportingInterval()) < 0) {
            st.problem("window", ConfigNode.human(stats.window()),
                    "must be at least the reporting interval (" + ConfigNode.human(stats.reportingInterval()) + ")");
        }
        Duration headers = g.duration("headerTimeout", Duration.ofSeconds(10), Duration.ofMillis(100), Duration.ofMinutes(10));
        int maxConnections = g.integer("maxConnections", 10_000, 1, 1_000_000);
        TlsSettings tls = null;
        if (!g.child("tls").isMissing()) {
            ConfigNode t = g.object("tls");
            t.allowOnly("keyStore", "type", "passwordEnv");
            String ks = readable(t, "keyStore", t.requiredString("keyStore"));
            tls = new TlsSettings(ks, t.string("type", "PKCS12"), secretFromEnv(t, t.requiredString("passwordEnv")));
        }
        return new GatewaySettings(id, listen, admin, mode, lb, fs, maxBytes, connect, server, health, stats, headers,
                maxConnections, tls, clients(g, maxBytes), g.bool("adminDump", false), g.bool("localLimit", false),
                locality(g, perPool), flashCrowd(g), g.integer("loops", 0, 0, 256), upstream(g),
                new StartupSettings(g.integer("startupCaps", 0, 0, 100_000),
                        g.duration("managerTimeout", Duration.ZERO, Duration.ZERO, Duration.ofHours(1))));
    }

    private static final String[] UPSTREAM_REUSE = {"shared", "customer", "client-connection"};

    /** {@code upstreamReuse: customer} for every pool, or per pool: {@code {default: shared, payments: customer}}. */
    private static UpstreamSettings upstream(ConfigNode g) {
        int max = g.integer("maxUpstreamConnections", 0, 0, 100_000);
        ConfigNode r = g.child("upstreamReuse");
        if (!r.isObject()) {
            return new UpstreamSettings(g.choice("upstreamReuse", UpstreamReuse.SHARED, UpstreamReuse::parse, UPSTREAM_REUSE),
                    Map.of(), max);
        }
        UpstreamReuse fallback = UpstreamReuse.SHARED;
        Map<String, UpstreamReuse> perPool = new LinkedHashMap<>();
        for (String pool : r.entries().keySet()) {
            UpstreamReuse u = r.choice(pool, UpstreamReuse.SHARED, UpstreamReuse::parse, UPSTREAM_REUSE);
            if (pool.equals("default")) {
                fallback = u;
            } else {
                perPool.put(pool, u);
            }
        }
        return new UpstreamSettings(fallback, perPool, max);
    }

    /** {@code flashCrowd: {factor: 5, minRate: 5, maxDuration: 2m, protect: true}}, or absent: off. */
    private static FlashCrowdSettings flashCrowd(ConfigNode g) {
        if (g.child("flashCrowd").isMissing()) {
            return null;
        }
        ConfigNode f = g.object("flashCrowd");
        f.allowOnly("factor", "minRate", "maxDuration", "protect");
        double factor = f.number("factor", 5, 1.5, 1000);
        double minRate = f.number("minRate", 5, 0.01, 1e6);
        Duration max = f.duration("maxDuration", Duration.ofMinutes(2), Duration.ofSeconds(5), Duration.ofHours(24));
        return new FlashCrowdSettings(factor, minRate, max, f.bool("protect", true));
    }

    private static final String[] LOAD_BALANCING = {"least-outstanding", "round-robin", "locality", "lard"};

    /**
     * {@code loadBalancing: least-outstanding} for every pool, or per pool: {@code {default: least-outstanding,
     * stock: locality}} (pools not named take {@code default}); the pool names are checked against the servers'.
     */
    private static LoadBalancing loadBalancing(ConfigNode g, Map<String, LoadBalancing> perPool) {
        ConfigNode lb = g.child("loadBalancing");
        if (!lb.isObject()) {
            return g.choice("loadBalancing", LoadBalancing.LEAST_OUTSTANDING, LoadBalancing::parse, LOAD_BALANCING);
        }
        LoadBalancing fallback = LoadBalancing.LEAST_OUTSTANDING;
        for (Map.Entry<String, ConfigNode> e : lb.entries().entrySet()) {
            LoadBalancing p = lb.choice(e.getKey(), LoadBalancing.LEAST_OUTSTANDING, LoadBalancing::parse, LOAD_BALANCING);
            if (e.getKey().equals("default")) {
                fallback = p;
            } else {
                perPool.put(e.getKey(), p);
            }
        }
        return fallback;
    }

    private static LocalitySettings locality(ConfigNode g, Map<String, LoadBalancing> perPool) {
        ConfigNode l = g.object("locality");
        l.allowOnly("epsilon", "key", "workingSetHeader", "remapInterval");
        LocalitySettings d = LocalitySettings.DEFAULTS;
        double epsilon = l.number("epsilon", d.epsilon(), -1e9, 100);
        if (!(epsilon > 0)) {
            l.problem("epsilon", epsilon, "must be above 0: no server is loaded above (1 + epsilon) x the pool's mean, and 0 leaves no room to keep a type where its data is");
            epsilon = d.epsilon();
        }
        String key = l.string("key", null);
        if (key != null && !HEADER.matcher(key).matches()) {
            l.problem("key", key, "must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-), e.g. X-Item-Group");
            key = null;
        }
        String ws = l.string("workingSetHeader", d.workingSetHeader());
        if (ws != null && !ws.equals("none") && !HEADER.matcher(ws).matches()) {
            l.problem("workingSetHeader", ws, "must be an HTTP header name, or none to learn from response times only");
            ws = d.workingSetHeader();
        }
        Duration remap = l.duration("remapInterval", d.remapInterval(), Duration.ofMillis(100), Duration.ofHours(1));
        return new LocalitySettings(perPool, epsilon, key, "none".equals(ws) ? null : ws, remap);
    }

    private static ClientPolicy clients(ConfigNode g, long maxRequestBytes) {
        ClientPolicy d = ClientPolicy.DEFAULTS;
        long bufferedRequest = g.bytes("bufferedRequestBytes", Math.min(d.bufferedRequestBytes(), maxRequestBytes), 0, 64L << 20);
        if (bufferedRequest > maxRequestBytes) {
            g.problem("bufferedRequestBytes", bufferedRequest, "must not exceed maxRequestBytes (" + maxRequestBytes + ")");
        }
        Duration bodyTimeout = g.duration("requestBodyTimeout", d.requestBodyTimeout(), Duration.ofMillis(100), Duration.ofMinutes(10));
        long minRate = g.bytes("minRequestDataRate", d.minRequestDataRate(), 0, 1L << 30);
        long bufferedResponse = g.bytes("bufferedResponseBytes", d.bufferedResponseBytes(), 0, 64L << 20);
        Duration writeTimeout = g.duration("responseWriteTimeout", d.responseWriteTimeout(), Duration.ofMillis(100), Duration.ofMinutes(10));
        List<String> trusted = new ArrayList<>();
        List<ConfigNode> proxies = g.list("trustedProxies");
        for (int i = 0; i < proxies.size(); i++) {
            String cidr = proxies.get(i).asString();
            if (cidr != null) {
                String why = Cidr.problem(cidr);
                if (why != null) {
                    g.problem("trustedProxies[" + i + "]", cidr, why);
                } else {
                    trusted.add(cidr);
                }
            }
        }
        String underscore = g.string("underscoreHeaders", "drop");
        if (underscore != null && !underscore.equals("drop") && !underscore.equals("refuse")) {
            g.problem("underscoreHeaders", underscore, "is not allowed; use one of: drop, refuse");
        }
        long requestBuffer = g.bytes("requestBufferBytes", d.requestBufferBytes(), 1024, 64 * 1024);
        return new ClientPolicy(bufferedRequest, bodyTimeout, minRate, bufferedResponse, writeTimeout, trusted,
                "refuse".equals(underscore), (int) requestBuffer);
    }

    private static HostPort hostPort(ConfigNode n, String key, HostPort def) {
        String s = n.string(key, null);
        if (s == null) {
            return def;
        }
        HostPort hp = HostPort.parse(s);
        if (hp == null) {
            n.problem(key, s, "is not an address; write host:port, e.g. 127.0.0.1:8081, or :8080 for all interfaces");
            return def;
        }
        return hp;
    }

    private static List<ServerConfig> servers(ConfigNode top) {
        List<ServerConfig> out = new ArrayList<>();
        List<ConfigNode> list = top.list("servers");
        if (list.isEmpty() && !top.problemAlreadyAt("servers")) {
            top.missing("servers", "at least one server is required: - {id: s1, url: http://127.0.0.1:9001, concurrency: 10}");
        }
        Set<String> ids = new HashSet<>();
        for (ConfigNode s : list) {
            s.allowOnly("id", "url", "concurrency", "pool", "pools", "healthPath");
            String id = s.requiredString("id");
            if (id != null && !NAME.matcher(id).matches()) {
                s.problem("id", id, "must be 1-64 letters, digits, '.', '_' or '-'");
            } else if (id != null && !ids.add(id)) {
                s.problem("id", id, "is used by another server; server ids must be unique");
            }
            URI url = url(s);
            AutoConcurrency auto = autoConcurrency(s, url);
            // with auto, the gateways hold min until the manager decides: its first window measures the baseline there
            int n = auto != null ? auto.min() : s.child("concurrency").isObject() ? 10 : s.integer("concurrency", 10, 1, 100_000);
            String pool = s.string("pool", "default");
            if (pool != null && !NAME.matcher(pool).matches()) {
                s.problem("pool", pool, "must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
            }
            String healthPath = s.string("healthPath", "/");
            if (healthPath != null && !healthPath.startsWith("/")) {
                s.problem("healthPath", healthPath, "must start with '/'");
            }
            List<String> may = new ArrayList<>();
            for (ConfigNode p : s.list("pools")) {
                String name = p.asString();
                if (name != null && !may.contains(name)) {
                    may.add(name);
                }
            }
            if (!may.isEmpty() && pool != null) {
                if (s.child("pool").isMissing()) {
                    pool = may.get(0); // with pools alone, the first is where it starts
                } else if (!may.contains(pool)) {
                    s.problem("pools", may, "must include its pool (" + pool + "): the pool it serves at start");
                }
                may.remove(pool);
                may.add(0, pool);
            }
            out.add(new ServerConfig(id, url, n, pool, healthPath, auto, may));
        }
        return out;
    }

    /**
     * {@code concurrency: auto}, or {@code concurrency: {auto: true, min: 1, max: 200, start: 10}}; null for a
     * fixed N_s. Not on a JMS server: its reply time includes the broker's queueing, which a limit cannot tell
     * from the server's own, so the knee it would find is the broker's as much as the server's.
     */
    private static AutoConcurrency autoConcurrency(ConfigNode s, URI url) {
        ConfigNode c = s.child("concurrency");
        boolean scalar = !c.isMissing() && !c.isObject() && "auto".equals(c.text());
        if (!scalar && !c.isObject()) {
            return null;
        }
        int min = 1;
        int max = AutoConcurrency.DEFAULT_MAX;
        int start = 1;
        if (c.isObject()) {
            c.allowOnly("auto", "min", "max", "start");
            if (!c.bool("auto", false)) {
                c.problemHere("a mapping here is the automatic N_s: {auto: true, min: 1, max: 200, start: 10}; for a fixed N_s write a number");
                return null;
            }
            min = c.integer("min", 1, 1, 100_000);
            max = c.integer("max", AutoConcurrency.DEFAULT_MAX, 1, 100_000);
            start = c.integer("start", min, 1, 100_000);
            if (max < min) {
                c.problem("max", max, "is below min (" + min + ")");
                return null;
            }
            if (start < min || start > max) {
                c.problem("start", start, "must lie within [min, max] = [" + min + ", " + max + "]");
                return null;
            }
        }
        if (url != null && "jms".equals(url.getScheme())) {
            s.problem("concurrency", "auto", "is not available on a JMS server (" + url + "): its reply times include the broker's"
                    + " queueing, which the limit cannot tell from the server's own; give a number");
            return null;
        }
        return new AutoConcurrency(min, max, start);
    }

    private static URI url(ConfigNode s) {
        String text = s.requiredString("url");
        if (text == null) {
            return null;
        }
        if (text.startsWith("jms:")) {
            // SOAP over JMS (RFC 6167's jms URI, "queue" variant): the queue on the bus's broker
            if (!text.matches("jms:queue:[A-Za-z0-9_.\\-]+")) {
                s.problem("url", text, "a JMS server is jms:queue:NAME (letters, digits, '.', '_', '-'), on the broker of bus.url");
                return null;
            }
            return URI.create(text);
        }
        try {
            URI u = new URI(text);
            if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
                s.problem("url", text, "must be an absolute http:// or https:// URL with a host, or jms:queue:NAME");
                return null;
            }
            if (u.getQuery() != null || u.getFragment() != null) {
                s.problem("url", text, "must not have a query or fragment; the request's own path and query are appended");
                return null;
            }
            return u;
        } catch (URISyntaxException e) {
            s.problem("url", text, "is not a URL: " + e.getReason());
            return null;
        }
    }

    private static List<TrafficClassConfig> classes(ConfigNode top) {
        List<TrafficClassConfig> out = new ArrayList<>();
        List<ConfigNode> list = top.list("classes");
        if (list.isEmpty() && !top.problemAlreadyAt("classes")) {
            top.missing("classes", "at least one traffic class is required: - {name: basic, target: 3s}");
        }
        Set<String> names = new HashSet<>();
        String discretionaryName = null;
        for (ConfigNode c : list) {
            c.allowOnly(PERCENTILE_KEY, "pNN (a percentile goal, e.g. p95: 300ms)", "name", "target", "utility",
                    "queueBound", "queueTimeout", "pool", "fairness", "customerQueueBound", "deadline", "importance", "discretionary");
            String name = c.requiredString("name");
            if (name != null && !NAME.matcher(name).matches()) {
                c.problem("name", name, "must be 1-64 letters, digits, '.', '_' or '-'");
            } else if (name != null && !names.add(name)) {
                c.problem("name", name, "is used by another class; class names must be unique");
            }
            PercentileGoal percentile = percentileGoal(c);
            boolean discretionary = c.bool("discretionary", false);
            int importance = c.integer("importance", 0, -1000, 1000);
            if (discretionary) {
                if (!c.child("target").isMissing() || percentile != null) {
                    c.problem(percentile != null ? percentile.key() : "target", "a goal",
                            "is not allowed on the discretionary class: it has no goal and gets what the classes with goals leave");
                    percentile = null;
                }
                if (!c.child("importance").isMissing()) {
                    c.problem("importance", importance, "is not allowed on the discretionary class: it always comes after every level");
                }
                if (discretionaryName != null) {
                    c.problem("discretionary", true, "is set on " + discretionaryName + " already; at most one class is discretionary");
                }
                discretionaryName = name;
            } else if (c.child("target").isMissing() && percentile == null) {
                c.missing("target", "a goal is required: a mean target (target: 2s), a percentile goal (p95: 300ms) or both"
                        + " (or discretionary: true for a class without one)");
            }
            Duration target = discretionary || (c.child("target").isMissing() && percentile != null) ? null
                    : c.duration("target", Duration.ofSeconds(1), Duration.ofMillis(1), MAX_TIMEOUT);
            List<Duration> thresholds = new ArrayList<>(); // the same function rates each goal against its threshold (none: none)
            if (target != null) {
                thresholds.add(target);
            }
            if (percentile != null) {
                thresholds.add(percentile.target());
            }
            UtilityConfig utility = utility(c.object("utility"), thresholds);
            int bound = c.integer("queueBound", 1000, 0, 1_000_000);
            Duration timeout = c.duration("queueTimeout", Duration.ofSeconds(30), MIN_QUEUE_TIMEOUT, MAX_TIMEOUT);
            String pool = c.string("pool", "default");
            if (pool != null && !NAME.matcher(pool).matches()) {
                c.problem("pool", pool, "must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
            }
            String fairness = c.string("fairness", "customers");
            if (fairness != null && !fairness.equals("customers") && !fairness.equals("none")) {
                c.problem("fairness", fairness, "is not allowed; use one of: customers (a lane per customer, served in turn), none (one FIFO)");
            }
            int customerBound = c.integer("customerQueueBound", bound, 1, 1_000_000);
            if (customerBound > bound && !c.child("customerQueueBound").isMissing()) {
                c.problem("customerQueueBound", customerBound, "must not exceed queueBound (" + bound + ")");
            }
            Duration deadline = c.child("deadline").isMissing() ? null
                    : c.duration("deadline", Duration.ofSeconds(1), Duration.ofMillis(1), MAX_TIMEOUT);
            out.add(new TrafficClassConfig(name, target, utility, bound, timeout, pool, !"none".equals(fairness),
                    Math.min(customerBound, Math.max(bound, 1)), deadline, percentile, discretionary ? 0 : importance, discretionary));
        }
        return out;
    }

    /** {@code p95}, {@code p99.9}: a percentile goal's key. */
    public static final Pattern PERCENTILE_KEY = Pattern.compile("p[0-9]+(\\.[0-9]+)?");

    /** The class's percentile goal, or null; at most one per class, its percentile in (0, 100). */
    private static PercentileGoal percentileGoal(ConfigNode c) {
        PercentileGoal goal = null;
        for (String key : c.keys()) {
            if (!PERCENTILE_KEY.matcher(key).matches()) {
                continue;
            }
            double p = Double.parseDouble(key.substring(1));
            if (!(p > 0 && p < 100)) {
                c.problem(key, key, "is not a percentile in (0, 100); write e.g. p95: 300ms or p99.9: 2s");
                continue;
            }
            if (goal != null) {
                c.problem(key, key, "is a second percentile goal; a class has at most one (here " + goal.key() + ")");
                continue;
            }
            Duration d = c.duration(key, null, Duration.ofMillis(1), MAX_TIMEOUT);
            if (d != null) {
                goal = new PercentileGoal(p, d);
            }
        }
        return goal;
    }

    private static UtilityConfig utility(ConfigNode u, List<Duration> targets) {
        if (u.isMissing()) {
            return UtilityConfig.pacifici();
        }
        String type = u.string("type", "pacifici");
        UtilityFunctionProvider p = UtilityFunctions.provider(type);
        if (p == null) {
            u.problem("type", type, "is not a known utility function; known: " + String.join(", ", UtilityFunctions.types()));
            return UtilityConfig.pacifici();
        }
        List<String> keys = new ArrayList<>(p.parameterNames());
        keys.add("type");
        u.allowOnly(keys.toArray(String[]::new));
        Map<String, Double> params = new LinkedHashMap<>(p.parameters());
        for (String name : p.parameterNames()) {
            params.put(name, u.number(name, p.parameters().get(name), -1e12, 1e12));
        }
        Set<String> seen = new HashSet<>();
        for (Duration target : targets) {
            for (String problem : p.validate(target.toNanos() / 1e9, params)) {
                if (seen.add(problem)) {
                    u.problemHere(problem);
                }
            }
        }
        return new UtilityConfig(type, params);
    }

    private static ClassificationConfig classification(ConfigNode c, List<TrafficClassConfig> classes) {
        c.allowOnly("customerFrom", "subscriptions", "defaultGrade", "rules", "defaultClass");
        Set<String> classNames = new HashSet<>();
        classes.forEach(tc -> classNames.add(tc.name()));
        String from = c.string("customerFrom", "basic");
        String header = null;
        if (from != null && from.regionMatches(true, 0, "header:", 0, 7) && from.length() > 7) {
            header = from.substring(7).trim();
            if (!HEADER.matcher(header).matches()) {
                c.problem("customerFrom", from, "names no valid header; write header:NAME with NAME an HTTP header name");
            }
        } else if (from != null && !from.equalsIgnoreCase("basic")) {
            c.problem("customerFrom", from, "is not allowed; use basic (the HTTP Basic user name) or header:NAME");
        }
        Map<String, Map<String, String>> subscriptions = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigNode> customer : c.entries("subscriptions").entrySet()) {
            Map<String, String> byService = new LinkedHashMap<>();
            safeText(c.child("subscriptions"), customer.getKey(), customer.getKey());
            for (Map.Entry<String, ConfigNode> service : customer.getValue().entries().entrySet()) {
                String grade = service.getValue().asString();
                safeText(customer.getValue(), service.getKey(), service.getKey());
                safeText(customer.getValue(), service.getKey(), grade);
                if (grade != null) {
                    byService.put(service.getKey(), grade);
                }
            }
            if (byService.isEmpty()) {
                c.child("subscriptions").problem(customer.getKey(), "(empty)",
                        "must map services to grades, e.g. {\"/services/StockUtility\": gold, \"*\": silver}");
            }
            subscriptions.put(customer.getKey(), Map.copyOf(byService));
        }
        String defaultGrade = c.string("defaultGrade", "standard");
        safeText(c, "defaultGrade", defaultGrade);
        List<RuleConfig> rules = new ArrayList<>();
        for (ConfigNode r : c.list("rules")) {
            r.allowOnly("customer", "service", "operation", "grade", "class");
            String cls = r.requiredString("class");
            if (cls != null && !classNames.isEmpty() && !classNames.contains(cls)) {
                r.problem("class", cls, "is not a configured class; classes: " + String.join(", ", sorted(classNames)));
            }
            RuleConfig rule = new RuleConfig(r.string("customer", "*"), r.string("service", "*"),
                    r.string("operation", "*"), r.string("grade", "*"), cls);
            safeText(r, "customer", rule.customer());
            safeText(r, "service", rule.service());
            safeText(r, "operation", rule.operation());
            safeText(r, "grade", rule.grade());
            rules.add(rule);
        }
        String def = c.string("defaultClass", classes.isEmpty() ? null : classes.get(classes.size() - 1).name());
        if (def != null && !classNames.isEmpty() && !classNames.contains(def)) {
            c.problem("defaultClass", def, "is not a configured class; classes: " + String.join(", ", sorted(classNames)));
        }
        return new ClassificationConfig(header, subscriptions, defaultGrade, rules, def);
    }

    private static StaticAllocation allocation(ConfigNode a, List<TrafficClassConfig> classes, List<ServerConfig> servers) {
        a.allowOnly("weights", "caps");
        Set<String> classNames = new HashSet<>();
        classes.forEach(tc -> classNames.add(tc.name()));
        Map<String, Double> weights = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigNode> w : a.entries("weights").entrySet()) {
            if (!classNames.contains(w.getKey())) {
                a.child("weights").problem(w.getKey(), w.getKey(), "is not a configured class; classes: " + String.join(", ", sorted(classNames)));
                continue;
            }
            weights.put(w.getKey(), w.getValue().asNumber(1.0, 0.001, 1e9));
        }
        Map<String, ServerConfig> byId = new LinkedHashMap<>();
        servers.forEach(s -> byId.put(s.id(), s));
        Map<String, Integer> caps = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigNode> e : a.entries("caps").entrySet()) {
            ServerConfig s = byId.get(e.getKey());
            if (s == null) {
                a.child("caps").problem(e.getKey(), e.getKey(), "is not a configured server; servers: " + String.join(", ", sorted(byId.keySet())));
                continue;
            }
            double v = e.getValue().asNumber(s.concurrency(), 0, s.concurrency());
            if (v != Math.rint(v)) {
                a.child("caps").problem(e.getKey(), v, "must be a whole number (N_{g,s} counts requests)");
            }
            caps.put(e.getKey(), (int) v);
        }
        return new StaticAllocation(weights, caps);
    }

    private static BusSettings bus(ConfigNode b) {
        b.allowOnly("url", "embedded", "listen", "user", "passwordEnv", "accounts", "tls", "gatewayAccounts");
        boolean embedded = b.bool("embedded", true);
        String url = b.string("url", "vm://slagate");
        if (url != null && !url.matches("(vm|tcp|ssl|nio|nio\\+ssl|failover|auto|auto\\+ssl):.*")) {
            b.problem("url", url, "is not an ActiveMQ URL; e.g. vm://slagate, tcp://host:61616, failover:(tcp://a:61616,tcp://b:61616)");
        }
        // in-VM only unless a listener is asked for: nothing of the control plane on the network by default
        String listen = b.child("listen").isMissing() ? "" : b.child("listen").asString();
        if (listen != null && !listen.isEmpty() && !listen.matches("(tcp|ssl|nio|nio\\+ssl|auto|auto\\+ssl)://.+:\\d+.*")) {
            b.problem("listen", listen, "is not a connector URL; e.g. tcp://127.0.0.1:61616, or \"\" for none");
        }
        String user = b.string("user", null);
        String password = secretFromEnv(b, b.string("passwordEnv", null));
        List<BusAccount> accounts = new ArrayList<>();
        for (ConfigNode a : b.list("accounts")) {
            a.allowOnly("user", "role", "passwordEnv");
            String u = a.requiredString("user");
            String role = a.string("role", null);
            if (role == null || !BusAccount.ROLES.contains(role)) {
                a.problem("role", role, "is required; use one of: " + String.join(", ", BusAccount.ROLES));
            }
            accounts.add(new BusAccount(u, role, secretFromEnv(a, a.requiredString("passwordEnv"))));
        }
        BusTls tls = b.child("tls").isMissing() ? null : busTls(b.object("tls"));
        java.util.Map<String, List<String>> gatewayAccounts = new java.util.LinkedHashMap<>();
        ConfigNode ga = b.object("gatewayAccounts");
        for (String account : ga.entries().keySet()) {
            List<String> ids = new ArrayList<>();
            for (ConfigNode id : ga.list(account)) {
                String s = id.asString();
                if (s != null && !s.isEmpty()) {
                    ids.add(s);
                }
            }
            if (ids.isEmpty()) {
                ga.problem(account, "[]", "must list the gateway ids this account may speak for, e.g. [gw1, gw2]");
            }
            gatewayAccounts.put(account, ids);
        }
        if (listen != null && !listen.isEmpty() && embedded && user == null && accounts.isEmpty()) {
            b.problem("listen", listen, "opens the broker to other processes without authentication; set bus.user with "
                    + "bus.passwordEnv (or bus.accounts with roles), or listen: \"\" for in-VM only");
        }
        if (listen != null && isSsl(listen) && embedded && (tls == null || tls.keyStore() == null)) {
            b.problem("listen", listen, "is a TLS listener; set bus.tls.keyStore (the broker's certificate and key)");
        }
        return new BusSettings(url, embedded, listen == null ? "" : listen, user, password, accounts, tls, gatewayAccounts);
    }

    private static boolean isSsl(String url) {
        return url.contains("ssl://") || url.startsWith("ssl:");
    }

    private static BusTls busTls(ConfigNode t) {
        t.allowOnly("keyStore", "keyStoreType", "keyStorePasswordEnv", "trustStore", "trustStoreType", "trustStorePasswordEnv");
        String keyStore = existingFile(t, "keyStore");
        String keyPassword = null;
        if (keyStore != null) {
            keyPassword = secretFromEnv(t, "keyStorePasswordEnv", t.requiredString("keyStorePasswordEnv"));
        }
        String trustStore = existingFile(t, "trustStore");
        String trustPassword = secretFromEnv(t, "trustStorePasswordEnv", t.string("trustStorePasswordEnv", null));
        return new BusTls(keyStore, t.string("keyStoreType", "PKCS12"), keyPassword,
                trustStore, t.string("trustStoreType", "PKCS12"), trustPassword);
    }

    private static String existingFile(ConfigNode n, String key) {
        return readable(n, key, n.string(key, null));
    }

    private static String readable(ConfigNode n, String key, String path) {
        if (path != null && !java.nio.file.Files.isReadable(java.nio.file.Path.of(path))) {
            n.problem(key, path, "is not a readable file");
        }
        return path;
    }

    /**
     * A secret named by {@code passwordEnv}: read from that environment variable, so that no secret
     * sits in a configuration file; null when no variable is named, a problem when it is not set.
     */
    private static String secretFromEnv(ConfigNode n, String variable) {
        return secretFromEnv(n, "passwordEnv", variable);
    }

    private static String secretFromEnv(ConfigNode n, String key, String variable) {
        if (variable == null) {
            return null;
        }
        String value = System.getenv(variable);
        if (value == null) {
            n.problem(key, variable, "names an environment variable that is not set");
        }
        return value;
    }

    private static ConsoleSettings console(ConfigNode c) {
        c.allowOnly("listen", "usersFile", "sessionTimeout");
        HostPort listen = hostPort(c, "listen", new HostPort("127.0.0.1", 8082));
        String users = c.string("usersFile", "console-users.json");
        Duration timeout = c.duration("sessionTimeout", Duration.ofHours(8), Duration.ofMinutes(1), Duration.ofDays(30));
        return new ConsoleSettings(listen, users, timeout);
    }

    private static ControllerSettings controller(ConfigNode c) {
        c.allowOnly("cycle", "combining", "model", "resolution", "minWeight", "gatewayExpiry", "damping", "maxGateways",
                "correctionBound", "minGain", "forecast", "reconfiguration", "tuning");
        Duration cycle = c.duration("cycle", Duration.ofSeconds(5), Duration.ofMillis(20), Duration.ofHours(1));
        Combining combining = c.choice("combining", Combining.SUM, Combining::parse, "sum", "min");
        String model = c.string("model", "auto");
        List<String> models = List.of("auto", "closed", "mmm", "mm1");
        if (model != null && !models.contains(model)) {
            c.problem("model", model, "is not a known response-time model; known: " + String.join(", ", models));
        }
        double resolution = c.number("resolution", 1.0, 0.001, 1000);
        double minWeight = c.number("minWeight", 1.0, 0.001, 1e6);
        int expiry = c.integer("gatewayExpiry", 3, 1, 1000);
        double damping = c.number("damping", 0.5, 0.01, 1.0);
        int maxGateways = c.integer("maxGateways", 64, 1, 10_000);
        double correctionBound = c.number("correctionBound", 4.0, 1.0, 100.0);
        if (!Double.isFinite(correctionBound)) {
            c.problem("correctionBound", correctionBound, "must be a finite number from 1 to 100");
            correctionBound = 4.0;
        }
        double minGain = c.number("minGain", 0.02, 0, 10);
        String forecast = c.string("forecast", "none");
        if (forecast != null && !List.of("none", "trend", "auto").contains(forecast)) {
            c.problem("forecast", forecast, "is not allowed; use one of: none (the last window's rates), trend (Holt's linear"
                    + " trend, one cycle ahead), auto (the trend where its recent error is small)");
            forecast = "none";
        }
        List<TuningSettings> tuning = c.child("tuning").isMissing() ? List.of() : tuning(c.object("tuning"));
        for (TuningSettings t : tuning) {
            for (TuningSettings.Knob k : t.knobs()) {
                if (!k.controller() || !t.interleaved() || k.name().equals("window")) {
                    continue; // the window is the gateways' setting: checked against it in crossCheck
                }
                // the value in force is the tuner's first best: outside the knob's bounds, the first trial would move it,
                // whatever it measured
                double inForce = switch (k.name()) {
                    case "cycle" -> cycle.toNanos() / 1e9;
                    case "damping" -> damping;
                    case "resolution" -> resolution;
                    default -> k.choices().contains(model) ? 0 : Double.NaN;
                };
                if (Double.isNaN(inForce)) {
                    c.problem("model", model, "is not among the choices of the tuning knob model " + k.choices()
                            + ": tuning would replace it at its first trial");
                } else if (!k.name().equals("model") && (inForce < k.min() || inForce > k.max())) {
                    c.problem(k.name(), inForce, String.format(java.util.Locale.ROOT, "lies outside the tuning knob %s's bounds [%s, %s]"
                            + ": tuning would move it there at its first trial, whatever it measured", k.name(), k.min(), k.max()));
                }
            }
        }
        return new ControllerSettings(cycle, combining, model, resolution, minWeight, expiry, damping, maxGateways, correctionBound,
                minGain, forecast == null ? "none" : forecast, reconfiguration(c.object("reconfiguration")), tuning);
    }

    /**
     * The window knob spans whole reporting intervals of the windows the gateways hold (the configured one: it can only
     * shorten it), and each trial's settle must outlast its longest value, or a period would measure the previous
     * setting's answers.
     */
    private static void windowKnobs(ConfigNode top, StatsSettings stats, List<TuningSettings> tuning) {
        double interval = stats.reportingInterval().toNanos() / 1e9;
        double window = stats.window().toNanos() / 1e9;
        for (TuningSettings t : tuning) {
            String at = TuningSettings.DEFAULT.equals(t.partition()) ? "controller.tuning" : "controller.tuning.partitions." + t.partition();
            for (int i = 0; i < t.knobs().size(); i++) {
                TuningSettings.Knob k = t.knobs().get(i);
                if (!k.controller() || !k.name().equals("window")) {
                    continue;
                }
                if (k.min() < interval || k.max() > window) {
                    top.problem(at + ".knobs[" + i + "].max", k.max(), String.format(java.util.Locale.ROOT, "the bounds [%s, %s] leave what the "
                            + "gateways hold: from one reportingInterval (%s s) to the configured gateway.stats.window (%s s), which the "
                            + "knob can only shorten", k.min(), k.max(), interval, window));
                } else if (t.settle().toNanos() / 1e9 < k.max()) {
                    top.problem(at + ".settle", t.settle(), String.format(java.util.Locale.ROOT, "is shorter than the window knob's largest value"
                            + " (%s s): a trial's period would measure the previous setting's answers", k.max()));
                }
            }
        }
    }

    private static final String[] WORK_LINE_KEYS = {"safe", "experimental", "share", "twins", "knobs", "best", "interleaved"};

    /**
     * {@code controller.tuning}: checked here; its pools and classes against the rest in crossCheck. Either one work line
     * (its pools, twins and knobs beside the search settings) or {@code partitions}: a name → work line each, every one
     * with its own tuner under the shared search settings (Active Harmony's parameter partitioning).
     */
    private static List<TuningSettings> tuning(ConfigNode t) {
        ConfigNode parts = t.object("partitions");
        if (parts.isMissing()) {
            t.allowOnly("strategy", "period", "settle", "minGain", "abortDrop", "stallTrials", "drift", "safe", "experimental", "share",
                    "twins", "knobs", "best", "partitions", "interleaved");
        } else {
            t.allowOnly("strategy", "period", "settle", "minGain", "abortDrop", "stallTrials", "drift", "safe", "experimental", "share",
                    "twins", "knobs", "best", "partitions", "interleaved");
            for (String k : WORK_LINE_KEYS) {
                if (!t.child(k).isMissing()) {
                    t.problem(k, t.child(k).text(), "belongs in each partition when partitions are given (each work line has its own)");
                }
            }
        }
        String strategy = t.string("strategy", "simplex");
        if (strategy != null && !List.of("simplex", "hill", "restarts").contains(strategy)) {
            t.problem("strategy", strategy, "is not allowed; use one of: simplex, hill, restarts");
            strategy = "simplex";
        }
        Duration period = t.duration("period", Duration.ofSeconds(30), Duration.ofMillis(100), Duration.ofHours(24));
        Duration settle = t.duration("settle", Duration.ofSeconds(10), Duration.ZERO, Duration.ofHours(1));
        double minGain = t.number("minGain", 0.02, 0, 100);
        double abortDrop = t.number("abortDrop", 0.1, 0, 100);
        int stall = t.integer("stallTrials", 10, 1, 10_000);
        double drift = t.number("drift", 0.10, 0, 100);
        List<TuningSettings> out = new ArrayList<>();
        if (parts.isMissing()) {
            out.add(workLine(t, TuningSettings.DEFAULT, strategy, period, settle, minGain, abortDrop, stall, drift));
            return out;
        }
        if (parts.keys().isEmpty()) {
            t.missing("partitions", "at least one partition: {name: {safe: POOL, experimental: POOL, twins: {...}, knobs: [...]}}");
        }
        for (Map.Entry<String, ConfigNode> e : parts.entries().entrySet()) {
            if (!e.getKey().matches("[A-Za-z0-9_-]{1,64}")) {
                parts.problem(e.getKey(), e.getKey(), "is not a partition name: letters, digits, '-' and '_', at most 64");
                continue;
            }
            if (!e.getValue().isObject()) {
                parts.problem(e.getKey(), e.getValue().text(), "must be a mapping: {safe, experimental, share, twins, knobs}");
                continue;
            }
            out.add(workLine(e.getValue(), e.getKey(), strategy, period, settle, minGain, abortDrop, stall, drift));
        }
        return out;
    }

    /** One work line of the tuner: its two pools, the share of each class on the experimental one, twins, knobs, best. */
    private static TuningSettings workLine(ConfigNode t, String name, String strategy, Duration period, Duration settle,
                                           double minGain, double abortDrop, int stall, double drift) {
        if (!TuningSettings.DEFAULT.equals(name)) {
            t.allowOnly(WORK_LINE_KEYS);
        }
        // the operator's consent to trials on all traffic, with no safe side (the controller's own knobs are global)
        boolean interleaved = t.bool("interleaved", false);
        String safe = null;
        String experimental = null;
        double share = 0;
        Map<String, String> twins = new LinkedHashMap<>();
        if (interleaved) {
            for (String k : new String[] {"safe", "experimental", "share", "twins"}) {
                if (!t.child(k).isMissing()) {
                    t.problem(k, t.child(k).text(), "an interleaved partition has no sides: each trial runs on all traffic, between "
                            + "two periods of the best configuration");
                }
            }
        } else {
            safe = t.requiredString("safe");
            experimental = t.requiredString("experimental");
            share = t.number("share", 0.2, 0.01, 0.99);
            for (Map.Entry<String, ConfigNode> e : t.entries("twins").entrySet()) {
                String twin = e.getValue().asString();
                if (twin != null) {
                    twins.put(e.getKey(), twin);
                }
            }
            if (twins.isEmpty() && !t.problemAlreadyAt("twins")) {
                t.missing("twins", "tuning needs a safe side: name each class of the safe pool and its twin on the experimental pool,"
                        + " e.g. {premium: premium-trial} (or, for the controller's own knobs, interleaved: true)");
            }
        }
        List<TuningSettings.Knob> knobs = new ArrayList<>();
        List<ConfigNode> list = t.list("knobs");
        if (list.isEmpty() && !t.problemAlreadyAt("knobs")) {
            t.missing("knobs", "at least one knob: - {name: concurrency, min: 1, max: 50} or - {name: workers, path: /admin/knobs, min: 1, max: 64}");
        }
        for (ConfigNode k : list) {
            k.allowOnly("name", "path", "min", "max", "integer", "timeout", "choices");
            String knob = k.requiredString("name");
            String path = k.string("path", null);
            boolean controllerKnob = path == null && TuningSettings.CONTROLLER_KNOBS.contains(knob);
            boolean gatewayKnob = path == null && GATEWAY_KNOBS.contains(knob);
            if (knob != null && !gatewayKnob && !controllerKnob && path == null) {
                k.missing("path", "a backend knob is set through its admin endpoint: path: /admin/knobs");
            }
            if (path != null && !path.startsWith("/")) {
                k.problem("path", path, "must start with '/'");
            }
            if (controllerKnob && !interleaved) {
                k.problem("name", knob, "is the controller's own knob, global to every pool: its trials cannot be confined to the "
                        + "experimental side; tune it in a partition with interleaved: true (no safe side: each trial runs on all "
                        + "traffic, between two periods of the best configuration)");
            }
            if (interleaved && knob != null && !controllerKnob) {
                k.problem("name", knob, "an interleaved partition tunes the controller's own knobs only ("
                        + String.join(", ", TuningSettings.CONTROLLER_KNOBS) + "); a server's knobs are tuned with a safe side");
            }
            Duration timeout = k.duration("timeout", Duration.ofSeconds(2), Duration.ofMillis(10), Duration.ofMinutes(1));
            if (controllerKnob && knob.equals("model")) {
                knobs.add(modelKnob(k, timeout));
                continue;
            }
            if (!k.child("choices").isMissing()) {
                k.problem("choices", k.child("choices").text(), "only the model knob picks among names");
            }
            double min = k.number("min", Double.NaN, -1e12, 1e12);
            double max = k.number("max", Double.NaN, -1e12, 1e12);
            if (!(min < max)) {
                k.problem("max", max, "the bounds [" + min + ", " + max + "] are empty or missing: min and max are required, min below max");
            } else if (gatewayKnob && knob.equals("queueTimeout")
                    && (min < MIN_QUEUE_TIMEOUT.toNanos() / 1e9 || max > MAX_TIMEOUT.toNanos() / 1e9)) {
                k.problem("max", max, "the bounds [" + min + ", " + max + "] leave a class's queueTimeout range [" + MIN_QUEUE_TIMEOUT.toNanos() / 1e9
                        + ", " + MAX_TIMEOUT.toNanos() / 1e9 + "] (seconds)");
            } else if (controllerKnob) {
                // within what controller.KEY itself accepts
                double[] range = switch (knob) {
                    case "cycle", "window" -> new double[] {0.02, 3600};
                    case "damping" -> new double[] {0.01, 1};
                    default -> new double[] {0.001, 1000};
                };
                if (min < range[0] || max > range[1]) {
                    k.problem("max", max, String.format(java.util.Locale.ROOT, "the bounds [%s, %s] leave controller.%s's range [%s, %s]%s",
                            min, max, knob, range[0], range[1], knob.equals("cycle") || knob.equals("window") ? " (seconds)" : ""));
                }
            }
            boolean integer = k.bool("integer", !controllerKnob && !"queueTimeout".equals(knob));
            knobs.add(new TuningSettings.Knob(knob, path, min, max, integer, timeout));
        }
        // the best configuration found, as the console wrote it back: every knob named, each within its bounds
        Map<String, Double> best = new LinkedHashMap<>();
        ConfigNode bestNode = t.object("best");
        if (!bestNode.isMissing()) {
            for (TuningSettings.Knob k : knobs) {
                if (k.name() == null) {
                    continue;
                }
                double v = bestNode.number(k.name(), Double.NaN, k.min(), k.max());
                if (Double.isNaN(v)) {
                    if (!bestNode.problemAlreadyAt(k.name())) {
                        bestNode.missing(k.name(), "the best configuration names every knob (it is applied whole)");
                    }
                } else {
                    best.put(k.name(), v);
                }
            }
            bestNode.allowOnly(knobs.stream().map(TuningSettings.Knob::name).filter(java.util.Objects::nonNull).toArray(String[]::new));
        }
        return new TuningSettings(strategy, period, settle, minGain, abortDrop, stall, drift, safe, experimental, share, twins, knobs,
                best, name, interleaved);
    }

    /** The controller's model, picked among {@code choices} (known models, at least two); its value is the index. */
    private static TuningSettings.Knob modelKnob(ConfigNode k, Duration timeout) {
        for (String key : new String[] {"min", "max", "integer"}) {
            if (!k.child(key).isMissing()) {
                k.problem(key, k.child(key).text(), "the model knob picks among its choices: no bounds");
            }
        }
        List<String> known = List.of("auto", "closed", "mmm", "mm1");
        List<String> choices = new ArrayList<>();
        for (ConfigNode c : k.list("choices")) {
            String m = c.asString();
            if (m != null && !known.contains(m)) {
                k.problem("choices", m, "is not a known response-time model; known: " + String.join(", ", known));
            } else if (m != null && !choices.contains(m)) {
                choices.add(m);
            }
        }
        if (choices.size() < 2 && !k.problemAlreadyAt("choices")) {
            k.missing("choices", "at least two models to pick among, e.g. choices: [auto, mm1]");
        }
        return new TuningSettings.Knob("model", null, 0, Math.max(1, choices.size() - 1), true, timeout, choices);
    }

    private static ReconfigurationSettings reconfiguration(ConfigNode r) {
        r.allowOnly("every", "high", "low", "dwell", "minServers");
        ReconfigurationSettings d = ReconfigurationSettings.DEFAULTS;
        Duration every = r.duration("every", d.every(), Duration.ofMillis(100), Duration.ofHours(24));
        double high = r.number("high", d.high(), 0.01, 10);
        double low = r.number("low", d.low(), 0, 10);
        if (low >= high) {
            r.problem("low", low, "must be below high (" + high + "): a pool that gives a server must not be saturated");
        }
        Duration dwell = r.duration("dwell", d.dwell(), Duration.ZERO, Duration.ofHours(24));
        Map<String, Integer> min = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigNode> e : r.entries("minServers").entrySet()) {
            int v = r.object("minServers").integer(e.getKey(), 1, 0, 10_000);
            min.put(e.getKey(), v);
        }
        return new ReconfigurationSettings(every, high, low, dwell, min);
    }

    private static void crossCheck(ConfigNode top, List<ServerConfig> servers, List<TrafficClassConfig> classes,
                                   GatewaySettings gateway, ControllerSettings controller) {
        windowKnobs(top, gateway.stats(), controller.tuning());
        Set<String> pools = new HashSet<>();
        servers.forEach(s -> pools.add(s.pool()));
        for (int i = 0; i < servers.size(); i++) {
            for (String p : servers.get(i).pools()) {
                if (!pools.contains(p)) {
                    top.problem("servers[" + i + "].pools", p, "is not a pool (no server starts in it); pools: "
                            + String.join(", ", sorted(pools)));
                }
            }
        }
        for (String p : gateway.upstream().perPool().keySet()) {
            if (!pools.contains(p)) {
                top.problem("gateway.upstreamReuse." + p, gateway.upstream().perPool().get(p).text(),
                        "names no pool with servers; pools: " + String.join(", ", sorted(pools)) + " (or default)");
            }
        }
        Map<String, String> poolOwner = new HashMap<>(); // pool → the partition that tunes it: two tuners must not share servers
        String interleavedOwner = null; // the controller's knobs are global: one tuner turns them
        for (TuningSettings tuning : controller.tuning()) {
            String at = TuningSettings.DEFAULT.equals(tuning.partition()) ? "controller.tuning." : "controller.tuning.partitions."
                    + tuning.partition() + ".";
            if (tuning.interleaved() && interleavedOwner != null) {
                top.problem(at + "interleaved", true, "partition " + interleavedOwner + " is interleaved already: the controller's "
                        + "knobs are global, so one partition tunes them");
            } else if (tuning.interleaved()) {
                interleavedOwner = tuning.partition();
            }
            for (String p : new String[] {tuning.safePool(), tuning.experimentalPool()}) {
                String key = at + (p != null && p.equals(tuning.safePool()) ? "safe" : "experimental");
                if (p != null && !pools.contains(p)) {
                    top.problem(key, p, "is not a pool with servers; pools: " + String.join(", ", sorted(pools)));
                }
                String other = p == null ? null : poolOwner.putIfAbsent(p, tuning.partition());
                if (other != null && !other.equals(tuning.partition())) {
                    top.problem(key, p, "is already tuned by partition " + other + ": partitions are independent work lines,"
                            + " so no pool may be in two");
                }
            }
            if (tuning.safePool() != null && tuning.safePool().equals(tuning.experimentalPool())) {
                top.problem(at + "experimental", tuning.experimentalPool(), "must differ from the safe pool");
            }
            for (Map.Entry<String, String> tw : tuning.twins().entrySet()) {
                TrafficClassConfig safe = classes.stream().filter(x -> x.name().equals(tw.getKey())).findFirst().orElse(null);
                TrafficClassConfig twin = classes.stream().filter(x -> x.name().equals(tw.getValue())).findFirst().orElse(null);
                if (safe == null || !safe.pool().equals(tuning.safePool())) {
                    top.problem(at + "twins." + tw.getKey(), tw.getKey(), "must be a class of the safe pool " + tuning.safePool());
                }
                if (twin == null || !twin.pool().equals(tuning.experimentalPool())) {
                    top.problem(at + "twins." + tw.getKey(), tw.getValue(), "must be a class of the experimental pool "
                            + tuning.experimentalPool());
                }
            }
        }
        for (Map.Entry<String, Integer> m : controller.reconfiguration().minServers().entrySet()) {
            long size = servers.stream().filter(s -> s.pool().equals(m.getKey())).count();
            if (!pools.contains(m.getKey())) {
                top.problem("controller.reconfiguration.minServers." + m.getKey(), m.getValue(), "names no pool; pools: "
                        + String.join(", ", sorted(pools)));
            } else if (m.getValue() > size) {
                top.problem("controller.reconfiguration.minServers." + m.getKey(), m.getValue(), "is above the pool's "
                        + size + " server(s) at start");
            }
        }
        for (String p : gateway.locality().pools().keySet()) {
            if (!servers.isEmpty() && !pools.contains(p)) {
                top.problem("gateway.loadBalancing." + p, gateway.locality().pools().get(p).configName(),
                        "names a pool with no server; pools with servers: " + String.join(", ", sorted(pools)) + " (or default)");
            }
        }
        for (int i = 0; i < classes.size(); i++) {
            TrafficClassConfig c = classes.get(i);
            if (c.pool() != null && !servers.isEmpty() && !pools.contains(c.pool())) {
                top.problem("classes[" + i + "].pool", c.pool(), "has no server; pools with servers: " + String.join(", ", sorted(pools)));
            }
        }
    }

    private static List<String> sorted(Set<String> s) {
        List<String> l = new ArrayList<>(s);
        l.removeIf(x -> x == null);
        l.sort(null);
        return l;
    }
}
