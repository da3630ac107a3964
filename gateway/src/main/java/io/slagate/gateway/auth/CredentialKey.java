package io.slagate.gateway.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A credential as the cache knows it: the SHA-256 of the whole credential (scheme, name and secret), so
 * that no secret is kept in memory and two credentials that differ anywhere are two keys.
 */
record CredentialKey(long a, long b, long c, long d) {
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(CredentialKey::sha256);

    static CredentialKey of(String credential) {
        byte[] h = digest(credential);
        return new CredentialKey(word(h, 0), word(h, 8), word(h, 16), word(h, 24));
    }

    /** The SHA-256 of {@code text}'s UTF-8 bytes. */
    static byte[] digest(String text) {
        return SHA256.get().digest(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The SHA-256 of {@code text} in lower-case hex, as an API key file holds it. */
    static String hex(String text) {
        return HexFormat.of().formatHex(digest(text));
    }

    private static long word(byte[] h, int at) {
        long w = 0;
        for (int i = at; i < at + 8; i++) {
            w = w << 8 | (h[i] & 0xff);
        }
        return w;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
