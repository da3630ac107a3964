package io.slagate.gateway.auth;

import at.favre.lib.crypto.bcrypt.BCrypt;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.TreeMap;

/**
 * The bcrypt entries of an htpasswd file ({@code $2y$}, {@code $2b$}, {@code $2a$}): what a line must look like, and
 * the check. Every check costs what the file's dearest entry costs, whatever the name: an unknown name is checked
 * against a hash of that cost, and a known name whose entry is cheaper is made up to it. So the time of an answer
 * tells nobody whether a name exists, even in a file whose entries were written at different costs.
 */
final class Bcrypt {
    /** bcrypt's cost when a file has no entry yet (the console's, and the library's, default). */
    static final int DEFAULT_COST = 10;
    /** The dearest cost a dummy is made at: 2^14 rounds is about a second here. */
    static final int MAX_COST = 14;
    /** A salt and hash no password matches with any real chance; the cost is put in front. */
    private static final String DUMMY_TAIL = "$" + "N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy";

    private Bcrypt() {
    }

    /** Why {@code hash} is no bcrypt entry, or null. */
    static String problem(String name, String hash) {
        if (!hash.startsWith("$2")) {
            return "holds no bcrypt hash (write entries with htpasswd -B; MD5, SHA-1, crypt and plain entries are refused)";
        }
        if (!hash.matches("\\$2[aby]\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}")) {
            return "holds a malformed bcrypt hash";
        }
        if (cost(hash) > MAX_COST) {
            return "holds a bcrypt hash of cost " + cost(hash) + "; at most " + MAX_COST + " (each check would take seconds)";
        }
        return null;
    }

    /** The cost of an entry {@link #problem} accepted. */
    static int cost(String hash) {
        int at = hash.indexOf('$', 1) + 1;
        return Integer.parseInt(hash.substring(at, at + 2));
    }

    /** The cost every check of a file is made to take: its dearest entry's (at most {@link #MAX_COST}). */
    static int fileCost(Collection<String> hashes) {
        int cost = hashes.isEmpty() ? DEFAULT_COST : 4;
        for (String h : hashes) {
            cost = Math.max(cost, cost(h));
        }
        return Math.min(cost, MAX_COST);
    }

    /** The costs of a file's entries, and how many have each; more than one key means unequal checks made equal. */
    static TreeMap<Integer, Integer> costs(Collection<String> hashes) {
        TreeMap<Integer, Integer> costs = new TreeMap<>();
        hashes.forEach(h -> costs.merge(cost(h), 1, Integer::sum));
        return costs;
    }

    /** A hash of {@code cost} that no password matches: made, not computed. */
    static String dummy(int cost) {
        return "$2y$" + (cost < 10 ? "0" : "") + cost + DUMMY_TAIL;
    }

    /**
     * Whether {@code password} matches {@code hash} (null: an unknown name), in the time a check of {@code fileCost}
     * takes: an unknown name is checked against a dummy of that cost; a cheaper entry is followed by dummies of its cost,
     * its cost + 1, ... up to {@code fileCost - 1}, whose 2^c rounds sum with the entry's to 2^fileCost.
     */
    static boolean verify(String password, String hash, int fileCost) {
        byte[] pw = password.getBytes(StandardCharsets.UTF_8);
        if (pw.length > 72) {
            pw = new byte[72]; // bcrypt reads 72 bytes: a longer password would match on its first 72 alone; refused, in the same time
            hash = null;
        }
        if (hash == null) {
            BCrypt.verifyer().verify(pw, dummy(fileCost).getBytes(StandardCharsets.UTF_8));
            return false;
        }
        boolean ok = BCrypt.verifyer().verify(pw, hash.getBytes(StandardCharsets.UTF_8)).verified;
        for (int c = cost(hash); c < fileCost; c++) {
            BCrypt.verifyer().verify(pw, dummy(c).getBytes(StandardCharsets.UTF_8));
        }
        return ok;
    }
}
