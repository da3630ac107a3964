package io.slagate.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The keys a reading of a configuration knew, per mapping of the document: every key the loader looked up there (to
 * read it, to see whether it is present, or to say what is wrong with it), the keys a pattern accepts, and the
 * mappings whose keys are names the user chose. A key is declared once, where it is read; after the reading, every key
 * of a mapping the loader read that it never looked up is reported, with what it knows there: a typo must not be
 * silently ignored. A mapping the loader never looked into (a section another process reads) is not judged.
 */
final class KnownKeys {
    private final Map<JsonNode, Set<String>> named = new IdentityHashMap<>();
    private final Map<JsonNode, Pattern> patterns = new IdentityHashMap<>();
    private final Map<JsonNode, String> patternTexts = new IdentityHashMap<>();
    private final Set<JsonNode> chosen = Collections.newSetFromMap(new IdentityHashMap<>());

    /** The loader looked up {@code name} in {@code mapping}. */
    void named(JsonNode mapping, String name) {
        if (mapping != null && mapping.isObject()) {
            named.computeIfAbsent(mapping, m -> new TreeSet<>()).add(name);
        }
    }

    /** The keys the loader looked up in {@code mapping} so far. */
    Set<String> named(JsonNode mapping) {
        Set<String> names = named.get(mapping);
        return names == null ? Set.of() : Set.copyOf(names);
    }

    /** Keys of {@code mapping} matching {@code pattern} (described by {@code text}) are known. */
    void pattern(JsonNode mapping, Pattern pattern, String text) {
        if (mapping != null && mapping.isObject()) {
            patterns.put(mapping, pattern);
            patternTexts.put(mapping, text);
            named.computeIfAbsent(mapping, m -> new TreeSet<>());
        }
    }

    /** Every key of {@code mapping} is a name its user chose (classes, grades, accounts). */
    void chosen(JsonNode mapping) {
        if (mapping != null && mapping.isObject()) {
            chosen.add(mapping);
        }
    }

    /** Whether {@code name} in {@code mapping} is a name its user chose, or a key a pattern accepts there. */
    boolean byUser(JsonNode mapping, String name) {
        Pattern p = patterns.get(mapping);
        return chosen.contains(mapping) || p != null && p.matcher(name).matches();
    }

    /** Reports each key under {@code node} (at {@code path}) that the reading did not know, into {@code problems}. */
    void report(JsonNode node, String path, List<String> problems) {
        if (node == null) {
            return;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                report(node.get(i), path + "[" + i + "]", problems);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        boolean byName = chosen.contains(node);
        Set<String> known = named.get(node);
        if (!byName && known == null) {
            return; // never looked into
        }
        Pattern pattern = patterns.get(node);
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            String at = path.isEmpty() ? name : path + "." + name;
            if (byName || known.contains(name) || pattern != null && pattern.matcher(name).matches()) {
                report(e.getValue(), at, problems);
            } else {
                String text = patternTexts.get(node);
                problems.add(at + ": unknown key; allowed here: " + String.join(", ", known) + (text == null ? "" : ", " + text));
            }
        }
    }
}
