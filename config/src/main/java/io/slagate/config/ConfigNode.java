package io.slagate.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A position in a parsed configuration tree that reads typed values and records, instead of
 * throwing, every problem it meets. Each problem names the key path, the offending value and what
 * is allowed. Reading continues after a problem (with the default value) so that one pass over a
 * file reports all of its problems.
 */
final class ConfigNode {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)");
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB|KB|MB|GB)?", Pattern.CASE_INSENSITIVE);

    private final JsonNode node;
    private final String path;
    private final List<String> problems;
    /** The path with list indexes as [] and chosen names as *; what {@link #declared} records under. */
    private final String shape;
    /** Where the keys read are recorded (the reference test); null when reading a file. */
    private final DeclaredKeys declared;
    /** Whether this mapping's keys are names its user chose ({@link #namesChosen}). */
    private final boolean chosen;
    /** The keys the reading looked up, per mapping of the whole document ({@link #reportUnknownKeys}). */
    private final KnownKeys known;

    ConfigNode(JsonNode node, String path, List<String> problems) {
        this(node, path, problems, path, null);
    }

    ConfigNode(JsonNode node, String path, List<String> problems, String shape, DeclaredKeys declared) {
        this(node, path, problems, shape, declared, false, new KnownKeys());
    }

    private ConfigNode(JsonNode node, String path, List<String> problems, String shape, DeclaredKeys declared, boolean chosen,
                       KnownKeys known) {
        this.node = node;
        this.path = path;
        this.problems = problems;
        this.shape = shape;
        this.declared = declared;
        this.chosen = chosen;
        this.known = known;
    }

    /**
     * Reports, under this node, every key of a mapping the reading looked into that it never looked up: a key is
     * declared where it is read, and a typo must not be silently ignored. Called once the reading is done.
     */
    void reportUnknownKeys() {
        known.report(node, path, problems);
    }

    /**
     * This mapping read by the names its user chose (pools, classes): its keys are declared as {@code *}. The node is
     * the same; only what a recorder is told differs.
     */
    ConfigNode namesChosen() {
        return new ConfigNode(node, path, problems, shape + ".*", declared, true, known);
    }

    /** The shape of key {@code name} here. */
    private String shapeOf(String name) {
        return chosen ? shape : DeclaredKeys.shape(shape, name);
    }

    private ConfigNode at(JsonNode child, String childPath, String childShape) {
        if (declared != null) {
            declared.accessed(childShape);
        }
        return new ConfigNode(child, childPath, problems, childShape, declared, false, known);
    }

    /** Records a value read here, with its type, default and bounds (when a recorder is set). */
    private void declare(String name, String type, Object def, String bounds) {
        if (declared != null) {
            String text = def == null ? null : def instanceof Duration d ? human(d)
                    : def instanceof Double v ? fmt(v) : def instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT).replace('_', '-')
                    : String.valueOf(def);
            declared.value(shapeOf(name), type, text, bounds);
        }
    }

    String path() {
        return path;
    }

    /** True when a problem was already recorded for {@code name} (avoids a second, vaguer message). */
    boolean problemAlreadyAt(String name) {
        String k = key(name);
        return problems.stream().anyMatch(p -> p.startsWith(k + ":") || p.startsWith(k + "["));
    }

    boolean isMissing() {
        return node == null || node.isMissingNode() || node.isNull();
    }

    /** Whether this is a mapping (an object). */
    boolean isObject() {
        return !isMissing() && node.isObject();
    }

    /** The scalar's text, or null when this is missing or not a scalar. */
    String text() {
        return isMissing() || !node.isValueNode() ? null : node.asText();
    }

    String key(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    void problem(String key, Object value, String allowed) {
        looked(key);
        problems.add(key(key) + ": " + show(value) + " " + allowed);
    }

    void missing(String key, String what) {
        looked(key);
        problems.add(key(key) + ": missing; " + what);
    }

    void problemHere(String message) {
        problems.add((path.isEmpty() ? "(top level)" : path) + ": " + message);
    }

    /** The reading looked up {@code name} here: a key the loader knows at this place. */
    private void looked(String name) {
        if (!isMissing() && node.isObject()) {
            known.named(node, name);
            // the keys of a mapping of chosen names are the user's, and a pattern's are the pattern's: not the loader's keys
            if (declared != null && !chosen && !known.byUser(node, name)) {
                declared.allowed(shape, List.of(name), null);
            }
        }
    }

    /** The keys the reading looked up in this mapping so far. */
    Set<String> lookedUp() {
        return isMissing() ? Set.of() : known.named(node);
    }

    /**
     * Keys present here, not looked up here, that belong elsewhere ({@code names}: where the reading looked them up):
     * each reported with {@code why}, rather than as an unknown key.
     */
    void misplaced(Set<String> names, String why) {
        if (isMissing() || !node.isObject()) {
            return;
        }
        Set<String> here = known.named(node);
        for (String name : names) {
            if (!here.contains(name) && node.has(name)) {
                problem(name, node.get(name).isValueNode() ? node.get(name).asText() : node.get(name), why);
            }
        }
    }

    /** The keys of this mapping that match {@code pattern} (described by {@code text}, e.g. {@code pNN}): known here. */
    List<String> keysMatching(Pattern pattern, String text) {
        List<String> out = new ArrayList<>();
        if (!isMissing() && node.isObject()) {
            known.pattern(node, pattern, text);
            if (declared != null) {
                declared.allowed(shape, List.of(), text);
            }
            node.fieldNames().forEachRemaining(k -> {
                if (pattern.matcher(k).matches()) {
                    out.add(k);
                }
            });
        }
        return out;
    }

    /** The keys of this mapping, names its user chose (none when it is missing or not a mapping). */
    List<String> keys() {
        List<String> out = new ArrayList<>();
        if (!isMissing() && node.isObject()) {
            known.chosen(node);
            node.fieldNames().forEachRemaining(out::add);
        }
        return out;
    }

    ConfigNode child(String name) {
        looked(name);
        JsonNode child = (isMissing() || !node.isObject()) ? null : node.get(name);
        return at(child, key(name), shapeOf(name));
    }

    /** The object at {@code name}; a problem if it is present but not an object. */
    ConfigNode object(String name) {
        ConfigNode child = child(name);
        if (!child.isMissing() && !child.node.isObject()) {
            problems.add(child.path + ": " + show(child.node) + " must be a mapping of keys to values");
            return new ConfigNode(null, child.path, problems, child.shape, declared, false, known);
        }
        return child;
    }

    List<ConfigNode> list(String name) {
        ConfigNode child = child(name);
        List<ConfigNode> out = new ArrayList<>();
        if (child.isMissing()) {
            return out;
        }
        if (!child.node.isArray()) {
            problems.add(child.path + ": " + show(child.node) + " must be a list");
            return out;
        }
        for (int i = 0; i < child.node.size(); i++) {
            out.add(at(child.node.get(i), child.path + "[" + i + "]", child.shape + "[]"));
        }
        return out;
    }

    /** The entries of a mapping, in file order. */
    Map<String, ConfigNode> entries(String name) {
        ConfigNode child = object(name);
        return child.entries();
    }

    Map<String, ConfigNode> entries() {
        Map<String, ConfigNode> out = new LinkedHashMap<>();
        if (isMissing() || !node.isObject()) {
            return out;
        }
        known.chosen(node);
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), at(e.getValue(), key(e.getKey()), DeclaredKeys.shape(shape, "*")));
        }
        return out;
    }

    /** This node as a scalar string (for values of a mapping), or null with a problem. */
    String asString() {
        if (isMissing() || !node.isValueNode()) {
            problems.add(path + ": " + show(node) + " must be a single value");
            return null;
        }
        return node.asText();
    }

    String string(String name, String def) {
        declare(name, "text", def, null);
        return text(name, def);
    }

    private String text(String name, String def) {
        ConfigNode c = child(name);
        if (c.isMissing()) {
            return def;
        }
        if (!c.node.isValueNode()) {
            problems.add(c.path + ": " + show(c.node) + " must be a single value");
            return def;
        }
        String s = c.node.asText().trim();
        if (s.isEmpty()) {
            problems.add(c.path + ": empty value; a non-empty text is required");
            return def;
        }
        return s;
    }

    String requiredString(String name) {
        declare(name, "text", "(required)", null);
        String s = text(name, null);
        if (s == null && child(name).isMissing()) {
            missing(name, "a non-empty text is required");
        }
        return s;
    }

    <E> E choice(String name, E def, Function<String, E> parse, String... allowed) {
        declare(name, "choice", def, String.join(", ", allowed));
        String s = text(name, null);
        if (s == null) {
            return def;
        }
        E e = parse.apply(s.toLowerCase(Locale.ROOT));
        if (e == null) {
            problem(name, s, "is not allowed; use one of: " + String.join(", ", allowed));
            return def;
        }
        return e;
    }

    int integer(String name, int def, int min, int max) {
        declare(name, "integer", def, "[" + min + ", " + max + "]");
        ConfigNode c = child(name);
        if (c.isMissing()) {
            return def;
        }
        if (!c.node.canConvertToInt() || !(c.node.isIntegralNumber() || isIntegralText(c.node))) {
            problems.add(c.path + ": " + show(c.node) + " must be a whole number in [" + min + ", " + max + "]");
            return def;
        }
        int v = c.node.isNumber() ? c.node.intValue() : Integer.parseInt(c.node.asText().trim());
        if (v < min || v > max) {
            problems.add(c.path + ": " + v + " is out of range; allowed: [" + min + ", " + max + "]");
            return def;
        }
        return v;
    }

    private static boolean isIntegralText(JsonNode n) {
        return n.isTextual() && n.asText().trim().matches("-?\\d{1,9}");
    }

    double number(String name, double def, double min, double max) {
        declare(name, "number", def, "[" + fmt(min) + ", " + fmt(max) + "]");
        ConfigNode c = child(name);
        if (c.isMissing()) {
            return def;
        }
        return c.asNumber(def, min, max);
    }

    double asNumber(double def, double min, double max) {
        double v;
        if (node != null && node.isNumber()) {
            v = node.doubleValue();
        } else {
            try {
                v = Double.parseDouble(node == null ? "" : node.asText().trim());
            } catch (NumberFormatException e) {
                problems.add(path + ": " + show(node) + " must be a number in [" + fmt(min) + ", " + fmt(max) + "]");
                return def;
            }
        }
        if (!(v >= min && v <= max)) {
            problems.add(path + ": " + fmt(v) + " is out of range; allowed: [" + fmt(min) + ", " + fmt(max) + "]");
            return def;
        }
        return v;
    }

    boolean bool(String name, boolean def) {
        declare(name, "boolean", def, null);
        ConfigNode c = child(name);
        if (c.isMissing()) {
            return def;
        }
        if (c.node.isBoolean()) {
            return c.node.booleanValue();
        }
        problems.add(c.path + ": " + show(c.node) + " must be true or false");
        return def;
    }

    /** A duration such as {@code 250ms}, {@code 5s}, {@code 1.5m}, {@code 1h}; a bare number is milliseconds. */
    Duration duration(String name, Duration def, Duration min, Duration max) {
        declare(name, "duration", def, human(min) + " to " + human(max));
        ConfigNode c = child(name);
        if (c.isMissing()) {
            return def;
        }
        Duration d = parseDuration(c.node);
        if (d == null) {
            problems.add(c.path + ": " + show(c.node) + " is not a duration; write e.g. 250ms, 5s, 2m or 1h");
            return def;
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            problems.add(c.path + ": " + show(c.node) + " is out of range; allowed: " + human(min) + " to " + human(max));
            return def;
        }
        return d;
    }

    /** A size in bytes such as {@code 1048576}, {@code 512KiB} or {@code 10MiB}. */
    long bytes(String name, long def, long min, long max) {
        declare(name, "size", sizeText(def), min + " to " + max + " bytes");
        ConfigNode c = child(name);
        if (c.isMissing()) {
            return def;
        }
        Matcher m = SIZE.matcher(c.node.asText().trim());
        if (!c.node.isValueNode() || !m.matches()) {
            problems.add(c.path + ": " + show(c.node) + " is not a size; write e.g. 65536, 512KiB or 10MiB");
            return def;
        }
        long v;
        try {
            long base = Long.parseLong(m.group(1));
            String unit = m.group(2) == null ? "B" : m.group(2).toUpperCase(Locale.ROOT);
            long mult = switch (unit) {
                case "KIB", "KB" -> 1024L;
                case "MIB", "MB" -> 1024L * 1024;
                case "GIB", "GB" -> 1024L * 1024 * 1024;
                default -> 1L;
            };
            v = Math.multiplyExact(base, mult);
        } catch (ArithmeticException | NumberFormatException e) {
            v = Long.MAX_VALUE;
        }
        if (v < min || v > max) {
            problems.add(c.path + ": " + show(c.node) + " is out of range; allowed: " + min + " to " + max + " bytes");
            return def;
        }
        return v;
    }

    static Duration parseDuration(JsonNode n) {
        if (n == null || !n.isValueNode()) {
            return null;
        }
        if (n.isNumber()) {
            return n.doubleValue() >= 0 ? Duration.ofNanos((long) (n.doubleValue() * 1_000_000)) : null;
        }
        Matcher m = DURATION.matcher(n.asText().trim());
        if (!m.matches()) {
            return null;
        }
        double v = Double.parseDouble(m.group(1));
        double nanosPer = switch (m.group(2)) {
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m" -> 60e9;
            case "h" -> 3600e9;
            default -> 86400e9;
        };
        double nanos = v * nanosPer;
        return nanos > Long.MAX_VALUE / 2.0 ? null : Duration.ofNanos(Math.round(nanos));
    }

    static String human(Duration d) {
        long ms = d.toMillis();
        if (ms % 3_600_000 == 0 && ms > 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0 && ms > 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }

    /** A size as a file would write it: 10MiB, 64KiB, or bytes. */
    static String sizeText(long v) {
        if (v > 0 && v % (1024L * 1024 * 1024) == 0) {
            return v / (1024L * 1024 * 1024) + "GiB";
        }
        if (v > 0 && v % (1024L * 1024) == 0) {
            return v / (1024L * 1024) + "MiB";
        }
        if (v > 0 && v % 1024 == 0) {
            return v / 1024 + "KiB";
        }
        return Long.toString(v);
    }

    private static String fmt(double v) {
        if (v == Double.MAX_VALUE) {
            return "∞";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }

    private static String show(Object value) {
        if (value == null) {
            return "(missing)";
        }
        if (value instanceof JsonNode n) {
            if (n.isMissingNode() || n.isNull()) {
                return "(empty)";
            }
            if (n.isTextual()) {
                String t = n.asText();
                return "\"" + (t.length() > 60 ? t.substring(0, 57) + "..." : t) + "\"";
            }
            String s = n.toString();
            return s.length() > 60 ? s.substring(0, 57) + "..." : s;
        }
        return value instanceof String ? "\"" + value + "\"" : String.valueOf(value);
    }
}
