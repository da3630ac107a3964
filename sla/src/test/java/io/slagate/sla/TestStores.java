package io.slagate.sla;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The real databases the store is tested on: a new SQLite file each time, and the PostgreSQL server
 * {@code SLAGATE_TEST_POSTGRES} names ({@code jdbc:postgresql://127.0.0.1:5432/slagate_test?user=…&password=…}), which
 * {@code .ci/run} starts from Debian's package; without it the PostgreSQL cases are not run, and say so.
 */
final class TestStores {
    private static final AtomicInteger FILES = new AtomicInteger();

    private TestStores() {
    }

    static String postgres() {
        String url = System.getenv("SLAGATE_TEST_POSTGRES");
        return url == null || url.isBlank() ? null : url;
    }

    static Stream<String> urls(Path dir) {
        String pg = postgres();
        if (pg == null) {
            System.err.println("SLAGATE_TEST_POSTGRES is not set: the store is tested on SQLite only");
            return Stream.of(sqlite(dir));
        }
        return Stream.of(sqlite(dir), pg);
    }

    static String user(String url) {
        return null; // the URL carries them
    }

    static String password(String url) {
        return null;
    }

    private static String sqlite(Path dir) {
        return "jdbc:sqlite:" + dir.resolve("sla-" + FILES.incrementAndGet() + ".db");
    }

    /** A store with no rows: a new SQLite file, or PostgreSQL's tables emptied. */
    static SlaStore fresh(String url) throws SQLException {
        if (url.startsWith("jdbc:postgresql:")) {
            try (var c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS sla_minute, sla_hour, sla_cursor, sla_writer");
            }
        }
        return SlaStore.open(url, null, null);
    }
}
