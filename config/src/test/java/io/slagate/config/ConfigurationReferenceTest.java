package io.slagate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The loader and docs/CONFIGURATION.md held to one declaration at every depth. A key is declared once, where the loader
 * reads it (its name, type, default and bounds); what a mapping accepts is what the reading looked up there
 * ({@link KnownKeys}), so no section keeps a list of its keys beside the reads. Two documents
 * (src/test/resources/every-key*.yaml) use every key the loader reads; a reading of them with a recorder
 * ({@link DeclaredKeys}) gives each mapping's keys and each value's shape, type and default. Then: every key read has
 * its row in the reference, with the default the loader uses; every row names a key the loader reads. List items are
 * written {@code []} and names a user chooses {@code *} ({@code classification.grades.*.rate}).
 */
class ConfigurationReferenceTest {
    private static final Path DOC = Path.of("..", "docs", "CONFIGURATION.md");
    /** A row: its key (one per row), its default cell. */
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| ([^|]*) \\|", Pattern.MULTILINE);
    private static final String PARTITION = "controller.tuning.partitions.*";
    private static final String TUNING = "controller.tuning";
    /**
     * Defaults that follow from other settings, each with what its row must say instead of a literal (the loader's
     * literal here is one configuration's value).
     */
    private static final Map<String, String> CONTEXTUAL = Map.of(
            "classes[].customerQueueBound", "the `queueBound`",
            "classification.defaultClass", "the last class",
            "gateway.listener", "`relay` for plain HTTP, `jetty` with `gateway.tls`",
            "controller.tuning.knobs[].integer", "whole numbers but for controller knobs and `queueTimeout`");
    private static final Pattern FIRST_LITERAL = Pattern.compile("^`([^`]*)`");

    private static final Map<String, Set<String>> allowed = new TreeMap<>();
    private static final Map<String, String> patterns = new TreeMap<>();
    private static final Map<String, DeclaredKeys.Value> values = new TreeMap<>();
    private static final Set<String> accessed = new TreeSet<>();
    private static final Map<String, Set<String>> conflicts = new TreeMap<>();
    private static final Map<String, String> rows = new TreeMap<>();

    @BeforeAll
    static void read() throws IOException {
        for (String file : List.of("every-key.yaml", "every-key-interleaved.yaml")) {
            String yaml = Files.readString(Path.of("src/test/resources", file));
            DeclaredKeys k = ConfigLoader.declaredKeys(yaml, file);
            assertEquals(List.of(), k.problems(), file + " must be a valid document");
            k.allowed().forEach((shape, keys) -> allowed.computeIfAbsent(shape.replace(PARTITION, TUNING), s -> new TreeSet<>())
                    .addAll(keys));
            patterns.putAll(k.patterns());
            k.values().forEach((shape, v) -> values.putIfAbsent(canonical(shape, k), v));
            k.accessed().forEach(a -> accessed.add(canonical(a, k)));
            conflicts.putAll(k.conflictingDefaults());
        }
        Matcher m = ROW.matcher(Files.readString(DOC));
        while (m.find()) {
            String before = rows.put(m.group(1), m.group(2).trim());
            assertEquals(null, before, "two rows for " + m.group(1));
        }
    }

    /**
     * The shape a reference row names: a partition's work line is the single work line's ({@code
     * controller.tuning.partitions.*.safe} is {@code controller.tuning.safe}); a key an allow-list accepts by pattern is
     * the pattern's name ({@code classes[].p95} is {@code classes[].pNN}).
     */
    private static String canonical(String shape, DeclaredKeys k) {
        String s = shape.replace(PARTITION, TUNING);
        int dot = s.lastIndexOf('.');
        String parent = dot < 0 ? "" : s.substring(0, dot);
        String pattern = k.patterns().get(parent);
        Set<String> plain = k.allowed().getOrDefault(parent, Set.of());
        return pattern != null && !plain.contains(s.substring(dot + 1)) ? parent + "." + pattern.split(" ")[0] : s;
    }

    /** Every key an allow-list accepts, by shape (a pattern as its description's first word: classes[].pNN). */
    private static Set<String> allowedShapes() {
        Set<String> out = new TreeSet<>();
        allowed.forEach((shape, keys) -> keys.forEach(k -> out.add(DeclaredKeys.shape(shape, k))));
        patterns.forEach((shape, text) -> out.add(DeclaredKeys.shape(shape, text.split(" ")[0])));
        return out;
    }

    @Test
    void everyAllowedKey_isRead_byTheDocumentsThatUseEveryKey() {
        Set<String> unread = new TreeSet<>();
        allowed.forEach((shape, keys) -> keys.forEach(k -> {
            if (!accessed.contains(DeclaredKeys.shape(shape, k))) {
                unread.add(DeclaredKeys.shape(shape, k));
            }
        }));
        assertEquals(Set.of(), unread, "keys an allow-list accepts that the loader never read (add them to every-key*.yaml, or "
                + "drop them from the allow-list)");
    }

    @Test
    void everyKeyRead_isAllowedWhereItIs() {
        Set<String> refused = new TreeSet<>();
        Set<String> all = allowedShapes();
        for (String shape : values.keySet()) {
            int dot = shape.lastIndexOf('.');
            String parent = dot < 0 ? "" : shape.substring(0, dot);
            if (!shape.endsWith(".*") && allowed.containsKey(parent) && !all.contains(shape) && !patterns.containsKey(parent)) {
                refused.add(shape);
            }
        }
        assertEquals(Set.of(), refused, "keys the loader reads that its allow-list refuses (no file could set them)");
    }

    /** The one place: no section lists its keys beside the reads that declare them. */
    @Test
    void noSection_listsItsKeysBesideTheirReads() throws IOException {
        Pattern list = Pattern.compile("allowOnly\\(|String\\[\\] \\w*KEYS\\b|List<String> \\w*KEYS\\b");
        Set<String> found = new TreeSet<>();
        try (var files = Files.list(Path.of("src/main/java/io/slagate/config"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = list.matcher(Files.readString(f));
                while (m.find()) {
                    found.add(f.getFileName() + ": " + m.group());
                }
            }
        }
        assertEquals(Set.of(), found, "a list of keys beside their reads: declare a key once, where it is read");
    }

    @Test
    void noKey_hasTwoDefaults() {
        assertEquals(Map.of(), conflicts, "keys read in two places with different defaults");
    }

    @Test
    void everyKey_hasItsRow_withTheLoadersDefault() {
        Set<String> undocumented = new TreeSet<>();
        Set<String> leaves = new TreeSet<>(values.keySet());
        for (String shape : allowedShapes()) {
            boolean container = allowed.containsKey(shape) || values.keySet().stream().anyMatch(v -> v.startsWith(shape + ".")
                    || v.startsWith(shape + "[]"));
            if (!container) {
                leaves.add(shape);
            }
        }
        Map<String, String> wrongDefault = new TreeMap<>();
        for (String shape : leaves) {
            String row = rows.get(shape);
            if (row == null) {
                undocumented.add(shape);
                continue;
            }
            DeclaredKeys.Value v = values.get(shape);
            if (CONTEXTUAL.containsKey(shape)) {
                if (!row.equals(CONTEXTUAL.get(shape))) {
                    wrongDefault.put(shape, "a default that follows from other settings: write " + CONTEXTUAL.get(shape));
                }
            } else if (v != null && v.defaultText() != null && !v.defaultText().equals("(required)") && !v.defaultText().equals("NaN")) {
                Matcher lit = FIRST_LITERAL.matcher(row);
                if (!lit.find() || !lit.group(1).equals(v.defaultText())) {
                    wrongDefault.put(shape, "loader `" + v.defaultText() + "`, reference " + row);
                }
            }
        }
        assertEquals(Set.of(), undocumented, "keys the loader reads with no row in " + DOC);
        assertEquals(Map.of(), wrongDefault, "rows whose default (the cell's first `literal`) is not the loader's");
    }

    @Test
    void everyRow_namesAKeyTheLoaderReads() {
        Set<String> known = new TreeSet<>(allowedShapes());
        known.addAll(values.keySet());
        Set<String> unknown = new TreeSet<>(rows.keySet());
        unknown.removeAll(known);
        assertEquals(Set.of(), unknown, "rows in " + DOC + " naming no key the loader reads");
    }
}
