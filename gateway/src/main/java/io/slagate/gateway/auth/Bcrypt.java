package io.slagate.gateway.auth;

import at.favre.lib.crypto.bcrypt.BCrypt;
import java.nio.charset.StandardCharsets;
import java.util.Collection;

/** The bcrypt entries of an htpasswd file ({@code $2y$}, {@code $2b$}, {@code $2a$}): what a line must look like, and the check. */
final class Bcrypt {
    private Bcrypt() {
    }

    /** Why {@code hash} is no bcrypt entry, or null. */
    static String problem(String name, String hash) {
        if (!hash.startsWith("$2")) {
            return "holds no bcrypt hash (write entries with htpasswd -B; MD5, SHA-1, crypt and plain entries are refused)";
        }
        if (!hash.matches("\\$2[aby]?\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}")) {
            return "holds a malformed bcrypt hash";
        }
        return null;
    }

    /**
     * A hash of a password no one has, at the highest cost among {@code hashes} (at most 14): checked for unknown
     * names, so that an unknown name takes as long as a known one and names cannot be told apart by the time.
     */
    static String dummy(Collection<String> hashes) {
        int cost = 5;
        for (String h : hashes) {
            cost = Math.max(cost, Integer.parseInt(h.substring(h.indexOf('$', 1) + 1, h.indexOf('$', 1) + 3)));
        }
        return new String(BCrypt.with(BCrypt.Version.VERSION_2Y).hash(Math.min(cost, 14), new byte[16],
                "no password".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    /** Whether {@code password} matches {@code hash}; for an unknown name pass null and the dummy, checked all the same. */
    static boolean verify(String password, String hash, String dummy) {
        byte[] pw = password.getBytes(StandardCharsets.UTF_8);
        if (pw.length > 72) {
            return false; // bcrypt reads 72 bytes: a longer password would match on its first 72 alone
        }
        boolean known = hash != null;
        boolean ok = BCrypt.verifyer().verify(pw, (known ? hash : dummy).getBytes(StandardCharsets.UTF_8)).verified;
        return known && ok;
    }
}
