package io.slagate.sla;

import io.slagate.config.SlagateConfig;
import io.slagate.config.SlaSettings;
import java.nio.file.Path;
import java.sql.SQLException;

/** How to open the configured store: its URL, an SQLite file's relative path resolved beside the configuration file. */
public record SlaStores(String url, String user, String password) {
    public static SlaStores of(SlagateConfig config) {
        SlaSettings s = config.sla();
        return new SlaStores(resolve(s.store(), config.baseDir()), s.user(), s.password());
    }

    /** An SQLite URL's relative file resolved against {@code base}; any other URL as it is. */
    static String resolve(String url, Path base) {
        String prefix = "jdbc:sqlite:";
        if (!url.startsWith(prefix)) {
            return url;
        }
        String file = url.substring(prefix.length());
        if (file.isEmpty() || file.startsWith(":") || file.startsWith("file:") || Path.of(file).isAbsolute()) {
            return url;
        }
        return prefix + base.resolve(file);
    }

    public SlaStore open() throws SQLException {
        return SlaStore.open(url, user, password);
    }

    /** The store for reading: an SQLite file that does not exist yet is said to be missing, not made. */
    public SlaStore openForReading() throws SQLException {
        String prefix = "jdbc:sqlite:";
        if (url.startsWith(prefix)) {
            String file = url.substring(prefix.length());
            if (!file.startsWith(":") && !file.startsWith("file:") && !java.nio.file.Files.exists(Path.of(file))) {
                throw new NoStoreYet("there is no store at " + file + " yet: it is made when the first counts of a class with an"
                        + " objective are written");
            }
        }
        return SlaStore.open(url, user, password, false);
    }

    /** The store's file is not there yet: nothing was ever counted. */
    public static final class NoStoreYet extends SQLException {
        NoStoreYet(String message) {
            super(message);
        }
    }
}
