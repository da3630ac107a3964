package io.slagate.gateway.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A file of {@code name:secret-digest} lines (an htpasswd file, an API key file): read whole, each line
 * checked, and read again when its text changes. A line that is not an entry is named in {@link #problems} and
 * left out; the others hold. Blank lines and {@code #} comments are skipped.
 */
final class CredentialFile {
    /** What one file holds: name → digest (htpasswd) or digest → name (API keys), and what was wrong with it. */
    record Contents(Map<String, String> entries, List<String> problems) {
    }

    static final long MAX_BYTES = 64L << 20;

    private final Path path;
    private final BiFunction<String, String, String> check;
    private final boolean byDigest;
    /** The SHA-256 of the text last read, or null: never read. */
    private volatile byte[] digest;

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

    /**
     * The file's contents when its text differs from what was read last (by digest: a rotation that keeps the length
     * and the modification time is seen too), else null.
     */
    Contents readIfChanged() throws IOException {
        byte[] bytes = bytes();
        if (Arrays.equals(CredentialKey.digest(bytes), digest)) {
            return null;
        }
        return parse(bytes);
    }

    Contents read() throws IOException {
        return parse(bytes());
    }

    private byte[] bytes() throws IOException {
        if (Files.size(path) > MAX_BYTES) {
            throw new IOException("over " + MAX_BYTES + " bytes: not a credential file");
        }
        return Files.readAllBytes(path);
    }

    private Contents parse(byte[] bytes) {
        digest = CredentialKey.digest(bytes);
        List<String> lines = new String(bytes, StandardCharsets.UTF_8).lines().toList();
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
