package io.slagate.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.yaml.snakeyaml.LoaderOptions;

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
    static YAMLFactory yamlFactory(int codePoints) {
        LoaderOptions limits = new LoaderOptions();
        limits.setCodePointLimit(codePoints);
        limits.setMaxAliasesForCollections(20);
        limits.setNestingDepthLimit(30);
        limits.setAllowDuplicateKeys(false);
        // Jackson reads YAML as a stream of events (an alias is not expanded), so its own limits bound it too
        return YAMLFactory.builder().loaderOptions(limits).streamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(64).maxStringLength(codePoints).maxDocumentLength(4L * codePoints).build()).build();
    }

    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    /** An HTTP header name (RFC 9110 token), as customerFrom names one. */
    static final Pattern HEADER = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}");

    /**
     * Free text that names request values (customers, services, operations, grades): printable, at most
     * 256 characters, nothing that is markup or quoting anywhere it is shown (console, logs, YAML).
     */
    private static final Pattern SAFE_TEXT = Pattern.compile("[^\\p{Cntrl}<>\"'`\\\\]{1,256}");

    static void safeText(ConfigNode n, String key, String value) {
        if (value != null && !SAFE_TEXT.matcher(value).matches()) {
            n.problem(key, value, "must be 1-256 printable characters without < > \" ' ` or \\");
        }
    }

    /** The longest timeout, target or deadline a configuration may name (a class's queueTimeout among them). */
    public static final Duration MAX_TIMEOUT = Duration.ofHours(1);

    /** The shortest queue timeout a class may have. */
    public static final Duration MIN_QUEUE_TIMEOUT = Duration.ofMillis(1);

    private ConfigLoader() {
    }

    /** The environment variable that, when set, gives the gateway its id in place of the file's {@code gateway.id}. */
    public static final String GATEWAY_ID_ENV = "SLAGATE_GATEWAY_ID";

    /**
     * A configuration file; {@value #GATEWAY_ID_ENV}, when set, names the gateway (one file for every
     * replica of a deployment, each named by its own environment, a pod's name say).
     */
    public static SlagateConfig load(Path file) {
        SlagateConfig c = parse(read(file), file.toString());
        String id = System.getenv(GATEWAY_ID_ENV);
        if (id == null || id.isEmpty()) {
            return c;
        }
        if (!NAME.matcher(id).matches()) {
            throw new ConfigException(file.toString(), List.of(GATEWAY_ID_ENV + ": \"" + id.replaceAll("\\p{Cntrl}", "?")
                    + "\" must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit"));
        }
        return new SlagateConfig(c.source(), c.gateway().withId(id), c.servers(), c.classes(), c.classification(), c.allocation(),
                c.bus(), c.controller(), c.console(), c.sla());
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
        ConfigNode section = top.object("bus");
        BusSettings bus = BusSection.bus(section);
        section.reportUnknownKeys(); // the other sections are the node's, not checked here
        if (!problems.isEmpty()) {
            throw new ConfigException(source, problems);
        }
        return bus;
    }

    static String read(Path file) {
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

    /**
     * The keys the loader declares while reading {@code yaml}, at every depth (the reference test's view of the
     * loader); the document must be valid.
     */
    static DeclaredKeys declaredKeys(String yaml, String source) {
        List<String> problems = new ArrayList<>();
        DeclaredKeys keys = new DeclaredKeys();
        try {
            parse(new ConfigNode(root(yaml, source, YAML), "", problems, "", keys), problems, source);
        } catch (ConfigException e) {
            keys.problems(problems); // a document that exercises every key need not be a consistent configuration
        }
        return keys;
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
        GatewaySettings gateway = GatewaySection.gateway(top.object("gateway"));
        List<ServerConfig> servers = ServersSection.servers(top);
        List<TrafficClassConfig> classes = ClassesSection.classes(top);
        ClassificationConfig classification = ClassificationSection.classification(top.object("classification"), classes);
        StaticAllocation allocation = AllocationSection.allocation(top.object("allocation"), classes, servers);
        BusSettings bus = BusSection.bus(top.object("bus"));
        ControllerSettings controller = ControllerSection.controller(top.object("controller"));
        ConsoleSettings console = ConsoleSection.console(top.object("console"));
        SlaSettings sla = SlaSection.sla(top.object("sla"));
        CrossChecks.crossCheck(top, servers, classes, gateway, controller);
        CrossChecks.objectiveGrades(top, classes, classification);
        IdentityChecks.check(top, gateway, servers, classification, bus);
        top.reportUnknownKeys();
        if (!problems.isEmpty()) {
            throw new ConfigException(source, problems);
        }
        return new SlagateConfig(source, gateway, servers, classes, classification, allocation, bus, controller, console, sla);
    }

    /** {@code p95}, {@code p99.9}: a percentile goal's key. */
    public static final Pattern PERCENTILE_KEY = Pattern.compile("p[0-9]+(\\.[0-9]+)?");

    static String existingFile(ConfigNode n, String key) {
        return readable(n, key, n.string(key, null));
    }

    static String readable(ConfigNode n, String key, String path) {
        if (path != null && !Files.isReadable(Path.of(path))) {
            n.problem(key, path, "is not a readable file");
        }
        return path;
    }

    /**
     * A secret named by {@code passwordEnv}: read from that environment variable, so that no secret
     * sits in a configuration file; null when no variable is named, a problem when it is not set.
     */
    static String secretFromEnv(ConfigNode n, String variable) {
        return secretFromEnv(n, "passwordEnv", variable);
    }

    static String secretFromEnv(ConfigNode n, String key, String variable) {
        if (variable == null) {
            return null;
        }
        String value = System.getenv(variable);
        if (value == null) {
            n.problem(key, variable, "names an environment variable that is not set");
        }
        return value;
    }

    static List<String> sorted(Set<String> s) {
        List<String> l = new ArrayList<>(s);
        l.removeIf(x -> x == null);
        l.sort(null);
        return l;
    }
}
