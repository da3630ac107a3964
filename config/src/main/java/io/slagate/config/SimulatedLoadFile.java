package io.slagate.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a twin load file against the configuration it is simulated with: every class and server it names must be
 * the configuration's, and every problem is reported in one pass with its key, as a configuration file's are. Sizes
 * are bounded so that a run fits in memory: at most {@value #MAX_CLIENTS} clients and {@value #MAX_RATE} arrivals a
 * second in a phase, phases of at most 30 days.
 */
public final class SimulatedLoadFile {
    static final int MAX_CLIENTS = 100_000;
    static final double MAX_RATE = 10_000;
    private static final Duration MAX_PHASE = Duration.ofDays(30);
    private static final Duration MAX_TIME = Duration.ofHours(1);
    /** A configuration file's parser limits (aliases, depth, duplicate keys, size). */
    private static final ObjectMapper YAML = new ObjectMapper(ConfigLoader.yamlFactory(8 << 20));

    private SimulatedLoadFile() {
    }

    public static SimulatedLoad load(Path file, SlagateConfig config) {
        return parse(ConfigLoader.read(file), file.toString(), config);
    }

    public static SimulatedLoad parse(String yaml, String source, SlagateConfig config) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JsonProcessingException e) {
            throw new ConfigException(source, List.of("not valid YAML: " + e.getOriginalMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new ConfigException(source, List.of("(top level): a load file is a mapping with `classes:` and `phases:`"));
        }
        List<String> problems = new ArrayList<>();
        ConfigNode top = new ConfigNode(root, "", problems);
        int seeds = top.integer("seeds", 10, 1, 10_000);
        Map<String, SimulatedLoad.ServerLoad> servers = new LinkedHashMap<>();
        top.entries("servers").forEach((id, n) -> {
            if (config.servers().stream().noneMatch(s -> s.id().equals(id))) {
                n.problemHere("the configuration has no server " + id);
            }
            servers.put(id, server(n));
        });
        Map<String, SimulatedLoad.ClassLoad> classes = new LinkedHashMap<>();
        top.entries("classes").forEach((name, n) -> {
            if (config.classIndex(name) < 0) {
                n.problemHere("the configuration has no class " + name);
            }
            String customer = n.string("customer", null);
            classes.put(name, new SimulatedLoad.ClassLoad(customer, time(n.object("think")), time(n.object("work"))));
        });
        if (classes.isEmpty()) {
            top.missing("classes", "say what each class's clients do");
        }
        List<SimulatedLoad.Phase> phases = new ArrayList<>();
        List<ConfigNode> list = top.list("phases");
        if (list.isEmpty()) {
            top.missing("phases", "at least one phase: { duration: 10m, clients: { CLASS: N } }");
        }
        for (int i = 0; i < list.size(); i++) {
            phases.add(phase(list.get(i), i, classes));
        }
        top.reportUnknownKeys();
        if (!problems.isEmpty()) {
            throw new ConfigException(source, problems);
        }
        return new SimulatedLoad(seeds, servers, classes, phases);
    }

    private static SimulatedLoad.ServerLoad server(ConfigNode n) {
        String d = n.string("discipline", "delay");
        if (!List.of("delay", "ps", "fcfs").contains(d)) {
            n.problem("discipline", d, "must be delay, ps or fcfs");
        }
        ConfigNode slow = n.object("slowdown");
        double at = slow.isMissing() ? -1 : slow.duration("at", Duration.ZERO, Duration.ZERO, MAX_PHASE).toNanos() / 1e9;
        return new SimulatedLoad.ServerLoad(d, n.integer("processors", 1, 1, 100_000), n.number("speed", 1, 1e-3, 1e3), at,
                slow.number("speed", 1, 1e-3, 1e3));
    }

    private static SimulatedLoad.Time time(ConfigNode n) {
        String type = n.string("type", "exponential");
        if (!List.of("exponential", "lognormal", "bimodal", "fixed").contains(type)) {
            n.problem("type", type, "must be exponential, lognormal, bimodal or fixed");
        }
        double mean = n.duration("mean", Duration.ofSeconds(1), Duration.ZERO, MAX_TIME).toNanos() / 1e9;
        if (mean <= 0 && !type.equals("fixed")) {
            n.problem("mean", "0", "must be positive for a random time");
        }
        return new SimulatedLoad.Time(type, mean, n.number("cv", 1, 0.01, 100), n.number("p", 0.5, 0, 1),
                n.duration("longMean", Duration.ofSeconds(10), Duration.ofMillis(1), MAX_TIME).toNanos() / 1e9);
    }

    private static SimulatedLoad.Phase phase(ConfigNode n, int i, Map<String, SimulatedLoad.ClassLoad> classes) {
        String name = n.string("name", "phase " + (i + 1));
        if (n.child("duration").isMissing()) {
            n.missing("duration", "how long the phase lasts, e.g. 10m");
        }
        double seconds = n.duration("duration", Duration.ofMinutes(1), Duration.ofSeconds(1), MAX_PHASE).toNanos() / 1e9;
        Map<String, Integer> clients = new LinkedHashMap<>();
        int total = 0;
        ConfigNode clientsNode = n.object("clients");
        for (String cls : clientsNode.keys()) {
            known(clientsNode.child(cls), cls, classes);
            int c = clientsNode.integer(cls, 0, 0, MAX_CLIENTS);
            clients.put(cls, c);
            total += c;
        }
        if (total > MAX_CLIENTS) {
            n.problem("clients", total, "clients in all: at most " + MAX_CLIENTS + " can be simulated in one phase");
        }
        Map<String, Double> rates = new LinkedHashMap<>();
        ConfigNode ratesNode = n.object("rates");
        for (String cls : ratesNode.keys()) {
            known(ratesNode.child(cls), cls, classes);
            rates.put(cls, ratesNode.number(cls, 0, 0, MAX_RATE));
        }
        return new SimulatedLoad.Phase(name, seconds, clients, rates);
    }

    private static void known(ConfigNode n, String className, Map<String, SimulatedLoad.ClassLoad> classes) {
        if (!classes.containsKey(className)) {
            n.problemHere("class " + className + " is not under classes: of this load file");
        }
    }
}
