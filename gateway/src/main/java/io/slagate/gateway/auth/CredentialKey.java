package io.slagate.gateway.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A credential as the cache knows it: the SHA-256 of its mechanism and its canonical form (for a password, the name
 * and the secret), so that no secret is kept in memory and two credentials that differ anywhere are two keys.
 */
record CredentialKey(long a, long b, long c, long d) {
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(CredentialKey::sha256);

    private static final ThreadLocal<byte[]> ASCII = ThreadLocal.withInitial(() -> new byte[256]);

    static CredentialKey of(String credential) {
        return of(digest(credential));
    }

    /**
     * The key of an ASCII credential: {@code mechanism} (one letter) and {@code text} from {@code from}, digested without
     * making a string of them. A credential's mechanism is part of its key, so two mechanisms never share an entry.
     */
    static CredentialKey of(char mechanism, String text, int from) {
        int n = text.length() - from + 1;
        byte[] b = ASCII.get();
        if (b.length < n) {
            b = new byte[Math.max(n, b.length * 2)];
            ASCII.set(b);
        }
        b[0] = (byte) mechanism;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c > 0x7f) { // not ASCII after all: the whole of it in UTF-8, never one byte of a wider character
                return of(digest(mechanism + text.substring(from)));
            }
            b[i - from + 1] = (byte) c;
        }
        MessageDigest d = SHA256.get();
        d.update(b, 0, n);
        return of(d.digest());
    }

    private static CredentialKey of(byte[] h) {
        return new CredentialKey(word(h, 0), word(h, 8), word(h, 16), word(h, 24));
    }

    /** The SHA-256 of {@code text}'s UTF-8 bytes. */
    static byte[] digest(String text) {
        return digest(text.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] digest(byte[] bytes) {
        return SHA256.get().digest(bytes);
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
