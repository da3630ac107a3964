package io.slagate.gateway.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A file of {@code name:secret-digest} lines (an htpasswd file, an API key file): read whole, each line
 * checked, and read again when it changes. A line that is not an entry is named in {@link #problems} and
 * left out; the others hold. Blank lines and {@code #} comments are skipped.
 */
final class CredentialFile {
    /** What one file holds: name → digest (htpasswd) or digest → name (API keys), and what was wrong with it. */
    record Contents(Map<String, String> entries, List<String> problems) {
    }

    private final Path path;
    private final BiFunction<String, String, String> check;
    private final boolean byDigest;
    private volatile FileTime modified;
    private volatile long size = -1;

    /**
     * @param check    (name, digest) → why the line is no entry, or null
     * @param byDigest whether entries are looked up by digest (API keys) rather than by name (htpasswd)
     */
    CredentialFile(Path path, BiFunction<String, String, String> check, boolean byDigest) {
        this.path = path;
        this.check = check;
        this.byDigest = byDigest;
    }

    Path path() {
        return path;
    }

    /** Whether the file changed since it was last read (its time or size). */
    boolean changed() {
        try {
            return !Files.getLastModifiedTime(path).equals(modified) || Files.size(path) != size;
        } catch (IOException e) {
            return modified != null; // gone: read it (and fail) again
        }
    }

    Contents read() throws IOException {
        modified = Files.getLastModifiedTime(path);
        size = Files.size(path);
        List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        Map<String, String> entries = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            String name = colon < 0 ? null : line.substring(0, colon);
            String digest = colon < 0 ? null : line.substring(colon + 1);
            String why = name == null ? "is not name:digest" : name.isEmpty() || name.length() > 256 ? "has a name of "
                    + name.length() + " characters (1-256)" : check.apply(name, digest);
            if (why == null && (byDigest ? entries.putIfAbsent(digest, name) : entries.putIfAbsent(name, digest)) != null) {
                why = byDigest ? "repeats a key digest" : "repeats the name " + name;
            }
            if (why != null) {
                problems.add(path + " line " + (i + 1) + ": " + why + "; the line is left out");
            }
        }
        return new Contents(Map.copyOf(entries), List.copyOf(problems));
    }
}
