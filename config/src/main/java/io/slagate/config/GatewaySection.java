package io.slagate.config;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code gateway:} section: listeners, scheduling, load balancing, timeouts, clients, upstream sharing. */
final class GatewaySection {
    private GatewaySection() {
    }

    static GatewaySettings gateway(ConfigNode g) {
        String id = g.string("id", "gw1");
        if (id != null && !ConfigLoader.NAME.matcher(id).matches()) {
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
        Duration server = g.duration("serverTimeout", Duration.ofSeconds(30), Duration.ofMillis(10), ConfigLoader.MAX_TIMEOUT);
        ConfigNode h = g.object("health");
        HealthSettings health = new HealthSettings(
                h.integer("failuresToEject", 3, 1, 1000),
                h.duration("backoff", Duration.ofSeconds(1), Duration.ofMillis(10), ConfigLoader.MAX_TIMEOUT),
                h.duration("maxBackoff", Duration.ofSeconds(2), Duration.ofMillis(10), ConfigLoader.MAX_TIMEOUT));
        if (health.maxBackoff().compareTo(health.backoff()) < 0) {
            h.problem("maxBackoff", ConfigNode.human(health.maxBackoff()),
                    "must be at least health.backoff (" + ConfigNode.human(health.backoff()) + ")");
        }
        ConfigNode st = g.object("stats");
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
            String ks = ConfigLoader.readable(t, "keyStore", t.requiredString("keyStore"));
            tls = new TlsSettings(ks, t.string("type", "PKCS12"), ConfigLoader.secretFromEnv(t, t.requiredString("passwordEnv")),
                    ConfigLoader.existingFile(t, "trustStore"), t.string("trustStoreType", "PKCS12"),
                    ConfigLoader.secretFromEnv(t, "trustStorePasswordEnv", t.string("trustStorePasswordEnv", null)));
        }
        return new GatewaySettings(id, listen, admin, mode, lb, fs, maxBytes, connect, server, health, stats, headers,
                maxConnections, tls, clients(g, maxBytes), g.bool("adminDump", false), g.bool("localLimit", false),
                locality(g, perPool), flashCrowd(g), g.integer("loops", 0, 0, 256), upstream(g),
                new StartupSettings(g.integer("startupCaps", 0, 0, 100_000),
                        g.duration("managerTimeout", Duration.ZERO, Duration.ZERO, Duration.ofHours(1))), accessLog(g),
                AuthenticationSection.authentication(g), tracing(g));
    }

    /**
     * {@code tracing: {endpoint: "http://127.0.0.1:4318/v1/traces", sampling: 0.1, serviceName: slagate,
     * exportInterval: 1s, maxQueuedSpans: 4096}}; absent: off.
     */
    static TracingSettings tracing(ConfigNode g) {
        if (g.child("tracing").isMissing()) {
            return TracingSettings.OFF;
        }
        ConfigNode t = g.object("tracing");
        TracingSettings d = TracingSettings.OFF;
        String endpoint = t.requiredString("endpoint");
        URI uri = null;
        if (endpoint != null) {
            try {
                uri = new URI(endpoint);
                if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                    t.problem("endpoint", endpoint, "must be an http or https URL, e.g. http://127.0.0.1:4318/v1/traces");
                    uri = null;
                }
            } catch (java.net.URISyntaxException e) {
                t.problem("endpoint", endpoint, "is not a URL: " + e.getReason());
            }
        }
        String service = t.string("serviceName", d.serviceName());
        if (service != null) {
            ConfigLoader.safeText(t, "serviceName", service);
        }
        return new TracingSettings(uri, t.number("sampling", d.sampling(), 0, 1), service == null ? d.serviceName() : service,
                t.duration("exportInterval", d.exportInterval(), Duration.ofMillis(10), Duration.ofMinutes(10)),
                t.integer("maxQueuedSpans", d.maxQueuedSpans(), 1, 1_000_000), exportHeaders(t));
    }

    /** {@code headersEnv: {x-api-key: COLLECTOR_KEY}}: each header's value from the environment variable named. */
    private static Map<String, String> exportHeaders(ConfigNode t) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigNode> h : t.entries("headersEnv").entrySet()) {
            String name = h.getKey();
            if (!ConfigLoader.HEADER.matcher(name).matches() || RESTRICTED_EXPORT_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                t.problem("headersEnv", name, "must be a header name other than " + String.join(", ", RESTRICTED_EXPORT_HEADERS));
                continue;
            }
            String value = ConfigLoader.secretFromEnv(t, "headersEnv." + name, h.getValue().asString());
            if (value != null) {
                headers.put(name, value);
            }
        }
        return headers;
    }

    /**
     * {@code accessLog: {to: /var/log/slagate/access.log, format: json, maxFileSize: 100MiB, maxHistory: 7,
     * startTrace: false}}; absent: off. A file's directory must exist and be writable.
     */
    static AccessLogSettings accessLog(ConfigNode g) {
        if (g.child("accessLog").isMissing()) {
            return AccessLogSettings.OFF;
        }
        ConfigNode a = g.object("accessLog");
        AccessLogSettings d = AccessLogSettings.OFF;
        String to = a.string("to", "stdout");
        if (to == null || to.isBlank()) {
            a.problem("to", to, "must be off, stdout or a file path");
            to = d.to();
        } else if (!to.equals("off") && !to.equals("stdout")) {
            Path dir = Path.of(to).toAbsolutePath().getParent();
            if (dir == null || !Files.isDirectory(dir) || !Files.isWritable(dir)
                    || Files.exists(Path.of(to)) && !Files.isWritable(Path.of(to))) {
                a.problem("to", to, "cannot be written: its directory must exist and be writable");
            }
        }
        String format = a.string("format", "json");
        if (format != null && !format.equals("json")) {
            Matcher m = FORMAT_FIELD.matcher(format);
            boolean any = false;
            while (m.find()) {
                any = true;
                if (!List.of(AccessLogSettings.FIELDS).contains(m.group(1))) {
                    a.problem("format", format, "names %{" + m.group(1) + "}; the fields are " + String.join(", ", AccessLogSettings.FIELDS));
                }
            }
            if (!any) {
                a.problem("format", format, "must be json or a line with %{field} placeholders, e.g. \"%{time} %{status} %{total_ms}\"");
            }
        }
        return new AccessLogSettings(to, format == null ? d.format() : format,
                a.bytes("maxFileSize", d.maxFileSize(), 1024, 1L << 40), a.integer("maxHistory", d.maxHistory(), 1, 3650),
                a.bool("startTrace", false));
    }

    /** Headers the export's HTTP client sets itself. */
    static final List<String> RESTRICTED_EXPORT_HEADERS = List.of("connection", "content-length", "content-type", "expect", "host", "upgrade");

    static final Pattern FORMAT_FIELD = Pattern.compile("%\\{([^}]*)\\}");

    static final String[] UPSTREAM_REUSE = {"shared", "customer", "client-connection"};

    /** {@code upstreamReuse: customer} for every pool, or per pool: {@code {default: shared, payments: customer}}. */
    static UpstreamSettings upstream(ConfigNode g) {
        int max = g.integer("maxUpstreamConnections", 0, 0, 100_000);
        ConfigNode r = g.child("upstreamReuse");
        if (!r.isObject()) {
            return new UpstreamSettings(g.choice("upstreamReuse", UpstreamReuse.SHARED, UpstreamReuse::parse, UPSTREAM_REUSE),
                    Map.of(), max);
        }
        UpstreamReuse fallback = UpstreamReuse.SHARED;
        Map<String, UpstreamReuse> perPool = new LinkedHashMap<>();
        for (String pool : r.entries().keySet()) {
            UpstreamReuse u = r.namesChosen().choice(pool, UpstreamReuse.SHARED, UpstreamReuse::parse, UPSTREAM_REUSE);
            if (pool.equals("default")) {
                fallback = u;
            } else {
                perPool.put(pool, u);
            }
        }
        return new UpstreamSettings(fallback, perPool, max);
    }

    /** {@code flashCrowd: {factor: 5, minRate: 5, maxDuration: 2m, protect: true}}, or absent: off. */
    static FlashCrowdSettings flashCrowd(ConfigNode g) {
        if (g.child("flashCrowd").isMissing()) {
            return null;
        }
        ConfigNode f = g.object("flashCrowd");
        double factor = f.number("factor", 5, 1.5, 1000);
        double minRate = f.number("minRate", 5, 0.01, 1e6);
        Duration max = f.duration("maxDuration", Duration.ofMinutes(2), Duration.ofSeconds(5), Duration.ofHours(24));
        return new FlashCrowdSettings(factor, minRate, max, f.bool("protect", true));
    }

    static final String[] LOAD_BALANCING = {"least-outstanding", "round-robin", "locality", "lard", "lard-r"};

    /**
     * {@code loadBalancing: least-outstanding} for every pool, or per pool: {@code {default: least-outstanding,
     * stock: locality}} (pools not named take {@code default}); the pool names are checked against the servers'.
     */
    static LoadBalancing loadBalancing(ConfigNode g, Map<String, LoadBalancing> perPool) {
        ConfigNode lb = g.child("loadBalancing");
        if (!lb.isObject()) {
            return g.choice("loadBalancing", LoadBalancing.LEAST_OUTSTANDING, LoadBalancing::parse, LOAD_BALANCING);
        }
        LoadBalancing fallback = LoadBalancing.LEAST_OUTSTANDING;
        for (Map.Entry<String, ConfigNode> e : lb.entries().entrySet()) {
            LoadBalancing p = lb.namesChosen().choice(e.getKey(), LoadBalancing.LEAST_OUTSTANDING, LoadBalancing::parse, LOAD_BALANCING);
            if (e.getKey().equals("default")) {
                fallback = p;
            } else {
                perPool.put(e.getKey(), p);
            }
        }
        return fallback;
    }

    static LocalitySettings locality(ConfigNode g, Map<String, LoadBalancing> perPool) {
        ConfigNode l = g.object("locality");
        LocalitySettings d = LocalitySettings.DEFAULTS;
        double epsilon = l.number("epsilon", d.epsilon(), -1e9, 100);
        if (!(epsilon > 0)) {
            l.problem("epsilon", epsilon, "must be above 0: no server is loaded above (1 + epsilon) x the pool's mean, and 0 leaves no room to keep a type where its data is");
            epsilon = d.epsilon();
        }
        String key = l.string("key", null);
        if (key != null && !ConfigLoader.HEADER.matcher(key).matches()) {
            l.problem("key", key, "must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-), e.g. X-Item-Group");
            key = null;
        }
        String ws = l.string("workingSetHeader", d.workingSetHeader());
        if (ws != null && !ws.equals("none") && !ConfigLoader.HEADER.matcher(ws).matches()) {
            l.problem("workingSetHeader", ws, "must be an HTTP header name, or none to learn from response times only");
            ws = d.workingSetHeader();
        }
        Duration remap = l.duration("remapInterval", d.remapInterval(), Duration.ofMillis(100), Duration.ofHours(1));
        return new LocalitySettings(perPool, epsilon, key, "none".equals(ws) ? null : ws, remap);
    }

    static ClientPolicy clients(ConfigNode g, long maxRequestBytes) {
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
                "refuse".equals(underscore), (int) requestBuffer, g.bool("releaseRequestBuffer", d.releaseRequestBuffer()),
                relayListener(g));
    }

    /** {@code listener: jetty | relay}: the relay's reading serves plain HTTP only (TLS stays on Jetty's). */
    private static boolean relayListener(ConfigNode g) {
        boolean tls = !g.child("tls").isMissing();
        // the relay listener for plain HTTP (bench/results/byte-relay-design.md); Jetty's serves TLS
        String listener = g.string("listener", tls ? "jetty" : "relay");
        if (listener == null || listener.equals("jetty")) {
            return false;
        }
        if (!listener.equals("relay")) {
            g.problem("listener", listener, "is not allowed; use one of: jetty, relay");
            return false;
        }
        if (tls) {
            g.problem("listener", listener, "serves plain HTTP only; with gateway.tls use listener: jetty");
        }
        return true;
    }

    static HostPort hostPort(ConfigNode n, String key, HostPort def) {
        String s = n.string(key, def.toString());
        if (s == null || n.child(key).isMissing()) {
            return def;
        }
        HostPort hp = HostPort.parse(s);
        if (hp == null) {
            n.problem(key, s, "is not an address; write host:port, e.g. 127.0.0.1:8081, or :8080 for all interfaces");
            return def;
        }
        return hp;
    }
}
