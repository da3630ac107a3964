package io.slagate.gateway.auth;

import io.slagate.config.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A credential file replaced with a console's text: all at once, owner-only, and only when the text differs. */
final class CredentialFiles {
    private CredentialFiles() {
    }

    /** Writes {@code text} to {@code file} unless either is null or the file already holds it; true when it was written. */
    static boolean replace(String file, String text) throws IOException {
        if (file == null || text == null) {
            return false;
        }
        Path path = Path.of(file);
        if (Files.isReadable(path) && Files.readString(path, StandardCharsets.UTF_8).equals(text)) {
            return false;
        }
        AtomicFiles.write(path, text, true);
        return true;
    }
}
