package io.slagate.gateway.auth;

import io.slagate.gateway.auth.CredentialFile.Contents;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The credential files in force: the htpasswd file (name → bcrypt hash) and the API key file (digest →
 * customer). Each is swapped whole when it is read again; a file that cannot be read keeps what was held
 * and says why, so a half-written file never locks every customer out.
 */
final class Credentials {
    private static final Logger LOG = LoggerFactory.getLogger(Credentials.class);

    /** The htpasswd file's entries, and the dummy hash an unknown name is checked against. */
    record Basic(Map<String, String> hashes, String dummy) {
    }

    private final CredentialFile htpasswd;
    private final CredentialFile apiKeyFile;
    private volatile Basic basic;
    private volatile Map<String, String> apiKeys;

    Credentials(Path htpasswd, Path apiKeys) {
        this.htpasswd = htpasswd == null ? null : new CredentialFile(htpasswd, Bcrypt::problem, false);
        this.apiKeyFile = apiKeys == null ? null : new CredentialFile(apiKeys, Credentials::apiKeyProblem, true);
    }

    static String apiKeyProblem(String name, String digest) {
        return digest.matches("[0-9a-f]{64}") ? null : "holds no SHA-256 digest (64 lower-case hex digits) of a key";
    }

    /** Reads the files again (every one when {@code always}, else those changed); true when anything was read. */
    boolean reload(boolean always) {
        boolean read = false;
        if (htpasswd != null && (always || htpasswd.changed())) {
            Contents c = read(htpasswd);
            if (c != null) {
                basic = new Basic(c.entries(), Bcrypt.dummy(c.entries().values()));
            }
            read = true;
        }
        if (apiKeyFile != null && (always || apiKeyFile.changed())) {
            Contents c = read(apiKeyFile);
            if (c != null) {
                apiKeys = c.entries();
            }
            read = true;
        }
        if (basic == null && htpasswd != null) {
            basic = new Basic(Map.of(), Bcrypt.dummy(java.util.List.of()));
        }
        if (apiKeys == null && apiKeyFile != null) {
            apiKeys = Map.of();
        }
        return read;
    }

    private static Contents read(CredentialFile f) {
        try {
            Contents c = f.read();
            c.problems().forEach(p -> LOG.warn("{}", p));
            LOG.info("{}: {} credential(s) in force", f.path(), c.entries().size());
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
