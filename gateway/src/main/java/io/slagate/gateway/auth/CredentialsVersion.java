package io.slagate.gateway.auth;

import io.slagate.config.AtomicFiles;
import io.slagate.config.AuthenticationSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The version of the customers' credentials a set of credential files holds, kept beside them
 * ({@code customers.htpasswd.version}) with the digest of their text: a gateway or console that restarts knows which
 * version its files are, so an older one sent again (by a console that missed a change) is refused rather than
 * taken for news, and a file edited by hand since is seen as such.
 *
 * @param version the version (0: none known)
 * @param digest  the SHA-256 (hex) of the files' text at that version, or null
 */
public record CredentialsVersion(long version, String digest) {
    public static final CredentialsVersion NONE = new CredentialsVersion(0, null);

    /** Where the version of {@code a}'s files is kept, or null when no credential file is configured. */
    static Path file(AuthenticationSettings a) {
        String f = a.htpasswd() != null ? a.htpasswd() : a.apiKeys();
        return f == null ? null : Path.of(f + ".version");
    }

    /** The version kept beside {@code a}'s files, or {@link #NONE}. */
    public static CredentialsVersion read(AuthenticationSettings a) {
        Path f = file(a);
        try {
            if (f == null || !Files.isRegularFile(f)) {
                return NONE;
            }
            String[] parts = Files.readString(f, StandardCharsets.UTF_8).strip().split(" ");
            return new CredentialsVersion(Long.parseLong(parts[0]), parts.length > 1 ? parts[1] : null);
        } catch (IOException | NumberFormatException e) {
            return NONE; // as if never kept: the next change puts one
        }
    }

    /** Keeps this version beside {@code a}'s files. */
    public void write(AuthenticationSettings a) throws IOException {
        Path f = file(a);
        if (f != null) {
            AtomicFiles.write(f, version + (digest == null ? "" : " " + digest) + "\n", true);
        }
    }

    /** The digest of credential files' texts, as kept here. */
    public static String digestOf(String htpasswd, String apiKeys) {
        return CredentialKey.hex(htpasswd + "\u0000" + apiKeys);
    }
}
