package io.slagate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/CONFIGURATION.md against the loader: every key the loader accepts in a section (gateway.X,
 * servers[].X, classes[].X, …) has a row in the reference, and every row names a key the loader
 * accepts. A key added to one and not the other fails the build.
 */
class ConfigurationReferenceTest {
    private static final Set<String> SECTIONS = Set.of("gateway", "servers[]", "classes[]", "classification", "allocation", "bus",
            "controller", "console");
    /** A row's first cell: one key, or several ("`servers[].id`, `url`, `concurrency`", "`bus.user` / `bus.passwordEnv`"). */
    private static final Pattern ROW = Pattern.compile("^\\| (`[^|]+)\\|", Pattern.MULTILINE);
    private static final Pattern KEY = Pattern.compile("`([^`]+)`");

    @Test
    void everyKeyTheLoaderAccepts_isDocumented_andEveryDocumentedKeyIsAccepted() throws Exception {
        Set<String> declared = new TreeSet<>();
        ConfigNode.DECLARED = (path, keys) -> {
            String p = path.replaceAll("\\[\\d+]", "[]");
            if (SECTIONS.contains(p)) {
                keys.forEach(k -> declared.add(p + "." + k));
            }
        };
        try {
            ConfigLoader.parse("""
                    servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 4 } ]
                    classes: [ { name: c, target: 1s } ]
                    """, "reference-test");
        } finally {
            ConfigNode.DECLARED = null;
        }
        Path doc = Path.of("..", "docs", "CONFIGURATION.md");
        Matcher m = ROW.matcher(Files.readString(doc));
        Set<String> documented = new TreeSet<>();
        while (m.find()) {
            String parent = null;
            for (Matcher k = KEY.matcher(m.group(1)); k.find(); ) {
                // "servers[].concurrency: auto", "classification.rules[]", "bus.accounts[]": the key is the first two segments;
                // a bare name after the first key ("`gateway.health.failuresToEject`, `backoff`") is the first key's sibling
                String key = k.group(1).split("[ :]")[0].replaceAll("\\[]$", "");
                if (!key.contains(".") && parent != null) {
                    key = parent + "." + key;
                } else if (key.contains(".")) {
                    parent = key.substring(0, key.lastIndexOf('.'));
                }
                String[] seg = key.split("\\.");
                if (seg.length >= 2) {
                    documented.add(seg[0] + "." + seg[1]);
                }
            }
        }
        Set<String> undocumented = new TreeSet<>(declared);
        undocumented.removeAll(documented);
        Set<String> unknown = new TreeSet<>(documented);
        unknown.removeAll(declared);
        assertEquals(List.of(), List.copyOf(undocumented), "keys the loader accepts with no row in " + doc);
        assertEquals(List.of(), List.copyOf(unknown), "rows in " + doc + " naming no key the loader accepts");
    }
}
