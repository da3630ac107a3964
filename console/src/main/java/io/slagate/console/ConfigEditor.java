package io.slagate.console;

import io.slagate.config.AtomicFiles;
import io.slagate.config.ConfigException;
import io.slagate.config.ConfigLoader;
import io.slagate.config.PercentileGoal;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TuningSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

/**
 * Edits the SLA classes of the configuration file: each change is applied to a copy of the YAML
 * document, validated by the same loader as a start-up (so the same rules and messages), then
 * written atomically with the previous version kept as {@code FILE.bak}. A refused change names the
 * field. Comments of the file survive in the {@code .bak} only: the new file is re-serialized.
 */
public final class ConfigEditor {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));
    private static final Pattern CLASS_PROBLEM = Pattern.compile("(?:classes|servers)\\[\\d+]\\.([A-Za-z]+)(?:[0-9]+(?:\\.[0-9]+)?)?(?:\\.([A-Za-z]+))?:\\s*(.*)");
    private static final Pattern SECTION_PROBLEM = Pattern.compile("(classification)[.\\[].*");

    private final Path file;
    private volatile SlagateConfig config;
    private String yaml;

    public ConfigEditor(Path file, SlagateConfig current) throws IOException {
        this.file = file;
        this.config = current;
        this.yaml = file != null && Files.isRegularFile(file) ? Files.readString(file) : null;
    }

    public SlagateConfig config() {
        return config;
    }

    /** The YAML text of the configuration in force (after the last change). */
    public synchronized String yaml() {
        return yaml;
    }

    /** Creates or replaces a class from the console's JSON form; returns the new configuration. */
    public synchronized SlagateConfig putClass(String name, JsonNode form, boolean mustExist) throws IOException {
        ObjectNode root = document();
        ArrayNode classes = root.withArray("classes");
        int at = indexOf(classes, name);
        if (mustExist && at < 0) {
            throw new Api.ApiError(404, "no class named " + name, "name");
        }
        if (!mustExist && at >= 0) {
            throw new Api.ApiError(409, "a class named " + name + " exists already", "name");
        }
        ObjectNode c = at >= 0 ? (ObjectNode) classes.get(at) : classes.addObject();
        c.put("name", name);
        goal(c, form);
        if (form.has("queueBound")) {
            c.set("queueBound", form.get("queueBound"));
        }
        if (form.has("importance")) {
            if (form.get("importance").isNull() || form.get("importance").asInt(0) == 0 && form.get("importance").isNumber()) {
                c.remove("importance"); // the default level
            } else {
                c.set("importance", form.get("importance"));
            }
        }
        if (form.has("discretionary")) {
            if (form.get("discretionary").asBoolean(false)) {
                c.put("discretionary", true);
            } else {
                c.remove("discretionary");
            }
        }
        if (form.has("queueTimeoutSeconds")) {
            c.set("queueTimeout", seconds(form.get("queueTimeoutSeconds"), "queueTimeoutSeconds"));
        }
        if (form.has("utility")) {
            c.set("utility", utility(form.get("utility")));
        }
        return save(root);
    }

    /** The class's goal from the form: its mean target, its percentile target, or both (a null removes one). */
    private static void goal(ObjectNode c, JsonNode form) {
        if (form.has("targetSeconds")) {
            if (form.get("targetSeconds").isNull()) {
                c.remove("target"); // a percentile goal alone (the loader says so if there is none)
            } else {
                c.set("target", seconds(form.get("targetSeconds"), "targetSeconds"));
            }
        }
        if (form.has("percentile")) {
            for (Iterator<String> it = c.fieldNames(); it.hasNext(); ) {
                if (ConfigLoader.PERCENTILE_KEY.matcher(it.next()).matches()) {
                    it.remove();
                }
            }
            JsonNode p = form.get("percentile");
            if (!p.isNull()) {
                if (!p.isNumber() || !(p.asDouble() > 0 && p.asDouble() < 100)) {
                    throw new Api.ApiError(400, "percentile must be a number in (0, 100), e.g. 95 or 99.9", "percentile");
                }
                double v = p.asDouble();
                String key = new PercentileGoal(v, Duration.ZERO).key();
                c.set(key, seconds(form.get("percentileTargetSeconds"), "percentileTargetSeconds"));
            }
        }
    }

    /** The class's utility function from the form: its type and parameters. */
    private static ObjectNode utility(JsonNode u) {
        ObjectNode out = YAML.createObjectNode();
        out.put("type", u.path("type").asText("pacifici"));
        for (Iterator<String> it = u.path("parameters").fieldNames(); it.hasNext(); ) {
            String p = it.next();
            out.set(p, u.path("parameters").get(p));
        }
        return out;
    }

    /** Creates or replaces a server: its URL, N_s and pool. */
    public synchronized SlagateConfig putServer(String id, JsonNode form, boolean mustExist) throws IOException {
        ObjectNode root = document();
        ArrayNode servers = root.withArray("servers");
        int at = indexOf(servers, "id", id);
        if (mustExist && at < 0) {
            throw new Api.ApiError(404, "no server named " + id, "id");
        }
        if (!mustExist && at >= 0) {
            throw new Api.ApiError(409, "a server named " + id + " exists already", "id");
        }
        ObjectNode s = at >= 0 ? (ObjectNode) servers.get(at) : servers.addObject();
        s.put("id", id);
        for (String f : new String[] {"url", "concurrency", "pool"}) {
            if (form.has(f)) {
                s.set(f, form.get(f));
            }
        }
        return save(root);
    }

    public synchronized SlagateConfig deleteServer(String id) throws IOException {
        ObjectNode root = document();
        ArrayNode servers = root.withArray("servers");
        int at = indexOf(servers, "id", id);
        if (at < 0) {
            throw new Api.ApiError(404, "no server named " + id, "id");
        }
        servers.remove(at);
        return save(root);
    }

    /**
     * Changes the controller's cycle Γ ({@code cycleSeconds}) and/or combining function
     * ({@code combining}: sum, eq. 2a, or min, eq. 2b); the rest of the section stays.
     */
    public synchronized SlagateConfig putController(JsonNode form) throws IOException {
        ObjectNode root = document();
        ObjectNode controller = root.with("controller");
        if (form.has("cycleSeconds")) {
            JsonNode v = form.get("cycleSeconds");
            if (!v.isNumber() || !(v.asDouble() > 0)) {
                throw new Api.ApiError(400, "cycleSeconds must be a positive number of seconds", "cycleSeconds");
            }
            controller.put("cycle", Math.round(v.asDouble() * 1000) + "ms");
        }
        if (form.has("combining")) {
            controller.set("combining", form.get("combining"));
        }
        return save(root);
    }

    /**
     * Writes a tuning partition's best configuration back as {@code controller.tuning.best} (the unpartitioned form) or
     * {@code controller.tuning.partitions.NAME.best}, so that a restart starts from it; whole numbers are
     * written as integers. Refused (400) when the file has no such partition or a value is outside its knob's bounds.
     */
    public synchronized SlagateConfig putTuningBest(String partition, Map<String, Double> best) throws IOException {
        ObjectNode root = document();
        JsonNode tuning = root.path("controller").path("tuning");
        if (!TuningSettings.DEFAULT.equals(partition)) {
            tuning = tuning.path("partitions").path(partition);
        }
        if (!tuning.isObject()) {
            throw new Api.ApiError(400, "the configuration file has no tuning partition " + partition, null);
        }
        ObjectNode out = ((ObjectNode) tuning).putObject("best");
        best.forEach((k, v) -> {
            if (v == Math.rint(v) && Math.abs(v) < 1e15) {
                out.put(k, (long) (double) v);
            } else {
                out.put(k, v);
            }
        });
        return save(root);
    }

    /** Replaces the classification section: customer source, subscriptions, grades, rules, default class. */
    public synchronized SlagateConfig putClassification(JsonNode section) throws IOException {
        if (section == null || !section.isObject()) {
            throw new Api.ApiError(400, "classification must be an object", "classification");
        }
        ObjectNode root = document();
        root.set("classification", section);
        return save(root);
    }

    /** The classification section as it stands in the file (for the editor). */
    public synchronized JsonNode classification() throws IOException {
        return yaml == null ? YAML.createObjectNode() : YAML.readTree(yaml).path("classification");
    }

    public synchronized SlagateConfig deleteClass(String name) throws IOException {
        ObjectNode root = document();
        ArrayNode classes = root.withArray("classes");
        int at = indexOf(classes, name);
        if (at < 0) {
            throw new Api.ApiError(404, "no class named " + name, "name");
        }
        classes.remove(at);
        return save(root);
    }

    private ObjectNode document() throws IOException {
        if (yaml == null) {
            throw new Api.ApiError(409, "this console was not started from a configuration file; nothing to edit", null);
        }
        return (ObjectNode) YAML.readTree(yaml);
    }

    private static int indexOf(ArrayNode classes, String name) {
        return indexOf(classes, "name", name);
    }

    private static int indexOf(ArrayNode items, String key, String value) {
        for (int i = 0; i < items.size(); i++) {
            if (value.equals(items.get(i).path(key).asText())) {
                return i;
            }
        }
        return -1;
    }

    private static JsonNode seconds(JsonNode v, String field) {
        if (v == null || !v.isNumber() || !(v.asDouble() > 0)) {
            throw new Api.ApiError(400, field + " must be a number of seconds > 0", field);
        }
        return YAML.getNodeFactory().textNode(Math.round(v.asDouble() * 1000) + "ms");
    }

    private SlagateConfig save(ObjectNode root) throws IOException {
        String text = YAML.writeValueAsString(root);
        SlagateConfig next;
        try {
            next = ConfigLoader.parseUntrusted(text, file.toString());
        } catch (ConfigException e) {
            String first = e.problems().get(0);
            Matcher m = CLASS_PROBLEM.matcher(first);
            String field = null;
            if (SECTION_PROBLEM.matcher(first).matches()) {
                field = "classification";
            } else if (first.startsWith("controller.cycle")) {
                field = "cycleSeconds";
            } else if (first.startsWith("controller.combining")) {
                field = "combining";
            } else if (m.matches()) {
                field = switch (m.group(1)) {
                    case "target" -> "targetSeconds";
                    case "p" -> "percentile";
                    case "queueTimeout" -> "queueTimeoutSeconds";
                    default -> m.group(1);
                };
            }
            throw new Api.ApiError(400, String.join("; ", e.problems()), field);
        }
        Files.copy(file, file.resolveSibling(file.getFileName() + ".bak"), StandardCopyOption.REPLACE_EXISTING);
        AtomicFiles.write(file, "# written by the slagate console; the previous version is " + file.getFileName() + ".bak\n" + text, false);
        yaml = text;
        config = next;
        return next;
    }
}
