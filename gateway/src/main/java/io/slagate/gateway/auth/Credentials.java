package io.slagate.gateway.auth;

import io.slagate.gateway.auth.CredentialFile.Contents;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The credential files in force: the htpasswd file (name → bcrypt hash) and the API key file (digest →
 * customer). Each is swapped whole when its text changes; a file that cannot be read keeps what was held
 * and says why, so a half-written file never locks every customer out.
 */
final class Credentials {
    private static final Logger LOG = LoggerFactory.getLogger(Credentials.class);

    /** The htpasswd file's entries, and the cost every check of it is made to take ({@link Bcrypt#verify}). */
    record Basic(Map<String, String> hashes, int fileCost) {
    }

    /** What a reading changed: whether anything did, and the names whose password entry changed or went. */
    record Change(boolean any, Set<String> names) {
        static final Change NONE = new Change(false, Set.of());
    }

    private final CredentialFile htpasswd;
    private final CredentialFile apiKeyFile;
    private volatile Basic basic;
    private volatile Map<String, String> apiKeys;

    Credentials(Path htpasswd, Path apiKeys) {
        this.htpasswd = htpasswd == null ? null : new CredentialFile(htpasswd, Bcrypt::problem, false);
        this.apiKeyFile = apiKeys == null ? null : new CredentialFile(apiKeys, Credentials::apiKeyProblem, true);
        if (htpasswd != null) {
            basic = new Basic(Map.of(), Bcrypt.DEFAULT_COST);
        }
        if (apiKeys != null) {
            this.apiKeys = Map.of();
        }
    }

    static String apiKeyProblem(String name, String digest) {
        return digest.matches("[0-9a-f]{64}") ? null : "holds no SHA-256 digest (64 lower-case hex digits) of a key";
    }

    /** Reads the files again (every one when {@code always}, else those whose text changed): what changed. */
    Change reload(boolean always) {
        boolean read = false;
        Set<String> names = new HashSet<>();
        if (htpasswd != null) {
            Contents c = read(htpasswd, always);
            if (c != null) {
                Map<String, String> before = basic.hashes();
                before.forEach((name, hash) -> {
                    if (!hash.equals(c.entries().get(name))) {
                        names.add(name); // changed or gone: what was verified against it no longer holds
                    }
                });
                basic = basic(htpasswd.path(), c.entries());
                read = true;
            }
        }
        if (apiKeyFile != null) {
            Contents c = read(apiKeyFile, always);
            if (c != null) {
                apiKeys = c.entries(); // looked up on every request: nothing of them is cached
                read = true;
            }
        }
        return read ? new Change(true, Set.copyOf(names)) : Change.NONE;
    }

    private static Basic basic(Path path, Map<String, String> hashes) {
        TreeMap<Integer, Integer> costs = Bcrypt.costs(hashes.values());
        int cost = Bcrypt.fileCost(hashes.values());
        if (costs.size() > 1) {
            LOG.warn("{}: entries of different bcrypt costs ({} entries by cost); every check is made to take cost {}, so a"
                    + " cheaper entry costs as much as the dearest and no name can be told by its time. Write entries at one"
                    + " cost (htpasswd -B -C {}; the console writes the file's cost)", path, costs, cost, cost);
        }
        return new Basic(hashes, cost);
    }

    private static Contents read(CredentialFile f, boolean always) {
        try {
            Contents c = always ? f.read() : f.readIfChanged();
            if (c != null) {
                c.problems().forEach(p -> LOG.warn("{}", p));
                LOG.info("{}: {} credential(s) in force", f.path(), c.entries().size());
            }
            return c;
        } catch (IOException e) {
            LOG.warn("{} cannot be read ({}); the credentials held stay in force", f.path(), e.toString());
            return null;
        }
    }

    /** The htpasswd file's entries, or null: Basic is not configured. */
    Basic basic() {
        return basic;
    }

    /** Key digest → customer, or null: API keys are not configured. */
    Map<String, String> apiKeys() {
        return apiKeys;
    }
}
