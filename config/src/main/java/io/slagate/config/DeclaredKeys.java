package io.slagate.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The keys a reading of a configuration declared, at every depth, each under its shape: list items as {@code []} and
 * the names a user chooses in a mapping (classes, grades, accounts) as {@code *}, e.g.
 * {@code classification.grades.*.rate}. For each object, the keys its allow-list accepts; for each value read, its
 * type, its default and its bounds as the loader reads it. How the reference (docs/CONFIGURATION.md) and the loader
 * are held to one declaration: a reading with a recorder collects it, and the reference test compares.
 */
final class DeclaredKeys {
    /** A value the loader reads: its type ("duration", "integer", …), its default as written in a file (null: none), its bounds. */
    record Value(String shape, String type, String defaultText, String bounds) {
    }

    private final Map<String, Set<String>> allowed = new TreeMap<>();
    private final Map<String, String> patterns = new TreeMap<>();
    private final Map<String, Value> values = new TreeMap<>();
    private final Map<String, Set<String>> defaults = new TreeMap<>();
    private final Set<String> accessed = new TreeSet<>();
    private final List<String> problems = new ArrayList<>();

    void problems(List<String> found) {
        problems.addAll(found);
    }

    /** The problems the reading met (none for a valid document). */
    List<String> problems() {
        return java.util.List.copyOf(problems);
    }

    void allowed(String shape, Collection<String> keys, String patternText) {
        allowed.computeIfAbsent(shape, s -> new TreeSet<>()).addAll(keys);
        if (patternText != null) {
            patterns.put(shape, patternText);
        }
    }

    void value(String shape, String type, String defaultText, String bounds) {
        values.putIfAbsent(shape, new Value(shape, type, defaultText, bounds));
        defaults.computeIfAbsent(shape, s -> new TreeSet<>()).add(String.valueOf(defaultText));
        accessed.add(shape);
    }

    void accessed(String shape) {
        accessed.add(shape);
    }

    /** Per object's shape, the keys it accepts (a pattern's keys appear as its description's first word). */
    Map<String, Set<String>> allowed() {
        Map<String, Set<String>> out = new TreeMap<>();
        allowed.forEach((shape, keys) -> out.put(shape, Set.copyOf(keys)));
        return out;
    }

    Map<String, String> patterns() {
        return Map.copyOf(patterns);
    }

    /** Every value read, by shape. */
    Map<String, Value> values() {
        return Map.copyOf(values);
    }

    /** The values read with more than one default (a key whose default is written twice, differently). */
    Map<String, Set<String>> conflictingDefaults() {
        Map<String, Set<String>> out = new TreeMap<>();
        defaults.forEach((shape, ds) -> {
            if (ds.size() > 1) {
                out.put(shape, ds);
            }
        });
        return out;
    }

    /** Every shape the loader looked at (values, objects, lists, mappings). */
    Set<String> accessed() {
        return Set.copyOf(accessed);
    }

    /** The shape of {@code name} under {@code parent} ("" at the top). */
    static String shape(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }
}
