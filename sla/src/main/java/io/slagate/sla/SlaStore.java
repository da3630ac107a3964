package io.slagate.sla;

import io.slagate.bus.message.SlaTally;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The SLA counts in a database: per customer and class the requests that counted and the good ones, in minute rows
 * (kept {@value #MINUTE_DAYS} days) and hour rows (kept {@value #HOUR_DAYS} days, every period an objective may state);
 * and per gateway's ledger ({@code epoch}) and row the last running total stored, from which each report's increment is
 * the difference. A report repeated or late adds nothing; one missed is carried by the next. The SQL is the subset
 * SQLite and PostgreSQL share ({@code INSERT … ON CONFLICT … DO UPDATE}). One connection, used by one thread at a time.
 */
public final class SlaStore implements AutoCloseable {
    public static final int MINUTE_DAYS = 14;
    public static final int HOUR_DAYS = 400;
    static final long MINUTE = 60_000;
    static final long HOUR = 3_600_000;
    static final long DAY = 24 * HOUR;
    /** A ledger's rows not heard of for this long are forgotten (a live gateway sends each row within minutes). */
    static final long CURSOR_KEEP = MINUTE_DAYS * DAY;
    /** How stale a cursor's last-heard time may grow before an unchanged row refreshes it. */
    private static final long SEEN_REFRESH = HOUR;

    private static final String[] SCHEMA = {
        "CREATE TABLE IF NOT EXISTS sla_minute (minute BIGINT NOT NULL, customer VARCHAR(256) NOT NULL,"
                + " class VARCHAR(256) NOT NULL, requests BIGINT NOT NULL, good BIGINT NOT NULL, PRIMARY KEY (minute, customer, class))",
        "CREATE TABLE IF NOT EXISTS sla_hour (hour BIGINT NOT NULL, customer VARCHAR(256) NOT NULL,"
                + " class VARCHAR(256) NOT NULL, requests BIGINT NOT NULL, good BIGINT NOT NULL, PRIMARY KEY (hour, customer, class))",
        "CREATE TABLE IF NOT EXISTS sla_cursor (gateway VARCHAR(256) NOT NULL, epoch BIGINT NOT NULL, customer VARCHAR(256) NOT NULL,"
                + " class VARCHAR(256) NOT NULL, requests BIGINT NOT NULL, good BIGINT NOT NULL, seen BIGINT NOT NULL,"
                + " PRIMARY KEY (gateway, epoch, customer, class))",
        "CREATE TABLE IF NOT EXISTS sla_writer (id INTEGER PRIMARY KEY, owner VARCHAR(256) NOT NULL, lease_until BIGINT NOT NULL)",
    };

    /** One customer's and class's counts over a span. */
    public record Totals(String customer, String className, long requests, long good) {
    }

    /** One hour's counts of a customer and class. */
    public record Hour(long startMillis, long requests, long good) {
    }

    /** Another writer holds the store: who, and until when. */
    public static final class HeldElsewhere extends Exception {
        public HeldElsewhere(String owner, long untilMillis) {
            super("the SLA store's writer is " + owner + " (its lease runs to " + java.time.Instant.ofEpochMilli(untilMillis) + ")");
        }
    }

    private final String url;
    private final Connection db;

    private SlaStore(String url, Connection db) {
        this.url = url;
        this.db = db;
    }

    /** Opens the store at a JDBC URL (SQLite or PostgreSQL), making its tables on first use. */
    public static SlaStore open(String url, String user, String password) throws SQLException {
        return open(url, user, password, true);
    }

    /**
     * @param writer whether to make the tables (and SQLite's write-ahead log): a reader (a report, the console) changes
     *               nothing, so a user that may only read can run it
     */
    static SlaStore open(String url, String user, String password, boolean writer) throws SQLException {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        if (url.startsWith("jdbc:postgresql:")) {
            p.setProperty("connectTimeout", "5");
            p.setProperty("socketTimeout", "30");
        }
        Connection c = DriverManager.getConnection(url, p);
        try {
            try (Statement s = c.createStatement()) {
                if (url.startsWith("jdbc:sqlite:")) {
                    // readers (the report command, a console) beside the writer; a lock waited for, not failed on
                    s.execute("PRAGMA busy_timeout = 10000");
                    if (writer) {
                        s.execute("PRAGMA journal_mode = WAL");
                    }
                }
                for (String ddl : writer ? SCHEMA : new String[0]) {
                    s.execute(ddl);
                }
            }
            c.setAutoCommit(false);
            c.commit();
            return new SlaStore(url, c);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    public String url() {
        return url;
    }

    /**
     * Adds what each gateway ledger's running totals say beyond what was stored, at the minute and hour of
     * {@code nowMillis}, in one transaction, if {@code owner} holds (or takes) the writer's lease.
     *
     * @param tallies per gateway id, its ledger's latest totals
     * @return the rows whose counts grew
     * @throws HeldElsewhere when another writer's lease runs; nothing is written
     */
    public int apply(Map<String, SlaTally> tallies, String owner, long nowMillis, long leaseMillis) throws SQLException, HeldElsewhere {
        try {
            claim(owner, nowMillis, leaseMillis);
            int grown = 0;
            try (Statements st = new Statements(db)) {
                for (Map.Entry<String, SlaTally> e : tallies.entrySet()) {
                    for (SlaTally.Row r : e.getValue().rows()) {
                        long[] delta = advance(st, e.getKey(), e.getValue().epochMillis(), r, nowMillis);
                        if (delta[0] > 0 || delta[1] > 0) {
                            grown++;
                            increment(st.minute, nowMillis / MINUTE, r, delta[0], delta[1]);
                            increment(st.hour, nowMillis / HOUR, r, delta[0], delta[1]);
                        }
                    }
                }
                st.minute.executeBatch();
                st.hour.executeBatch();
            }
            db.commit();
            return grown;
        } catch (SQLException | HeldElsewhere | RuntimeException e) {
            rollbackQuietly();
            throw e;
        }
    }

    /** The statements of one application, prepared once for all its rows. */
    private static final class Statements implements AutoCloseable {
        final PreparedStatement read;
        final PreparedStatement insert;
        final PreparedStatement move;
        final PreparedStatement minute;
        final PreparedStatement hour;

        Statements(Connection db) throws SQLException {
            read = db.prepareStatement("SELECT requests, good, seen FROM sla_cursor WHERE gateway = ? AND epoch = ? AND customer = ? AND class = ?");
            insert = db.prepareStatement("INSERT INTO sla_cursor (gateway, epoch, customer, class, requests, good, seen) VALUES (?, ?, ?, ?, ?, ?, ?)");
            move = db.prepareStatement("UPDATE sla_cursor SET requests = ?, good = ?, seen = ?"
                    + " WHERE gateway = ? AND epoch = ? AND customer = ? AND class = ? AND requests = ? AND good = ?");
            minute = db.prepareStatement(add("sla_minute", "minute"));
            hour = db.prepareStatement(add("sla_hour", "hour"));
        }

        @Override
        public void close() throws SQLException {
            for (PreparedStatement p : new PreparedStatement[] {read, insert, move, minute, hour}) {
                p.close();
            }
        }
    }

    /**
     * Moves a ledger row's cursor to its new running total and returns the increment {requests, good}: all of it for a
     * row not seen before, nothing for one older than stored or unchanged. The cursor moves only from the values read
     * (compare and set), so a second writer racing this one fails its transaction instead of counting twice.
     */
    private static long[] advance(Statements st, String gateway, long epoch, SlaTally.Row r, long now) throws SQLException {
        long[] was = cursor(st.read, gateway, epoch, r);
        if (was == null) {
            bind(st.insert, gateway, epoch, r);
            st.insert.setLong(5, r.requests());
            st.insert.setLong(6, r.good());
            st.insert.setLong(7, now);
            st.insert.executeUpdate();
            return new long[] {r.requests(), r.good()};
        }
        long dr = r.requests() - was[0];
        long dg = r.good() - was[1];
        if (dr < 0 || dg < 0 || (dr == 0 && dg == 0 && now - was[2] < SEEN_REFRESH)) {
            return new long[2]; // an older report than the one stored, or nothing new
        }
        st.move.setLong(1, r.requests());
        st.move.setLong(2, r.good());
        st.move.setLong(3, now);
        st.move.setString(4, gateway);
        st.move.setLong(5, epoch);
        st.move.setString(6, r.customer());
        st.move.setString(7, r.className());
        st.move.setLong(8, was[0]);
        st.move.setLong(9, was[1]);
        if (st.move.executeUpdate() != 1) {
            throw new SQLException("the SLA cursor of " + gateway + " moved under this writer");
        }
        return new long[] {dr, dg};
    }

    private static String add(String table, String bucket) {
        return "INSERT INTO " + table + " (" + bucket + ", customer, class, requests, good) VALUES (?, ?, ?, ?, ?)"
                + " ON CONFLICT (" + bucket + ", customer, class) DO UPDATE SET requests = " + table + ".requests + excluded.requests,"
                + " good = " + table + ".good + excluded.good";
    }

    private static void bind(PreparedStatement s, String gateway, long epoch, SlaTally.Row r) throws SQLException {
        s.setString(1, gateway);
        s.setLong(2, epoch);
        s.setString(3, r.customer());
        s.setString(4, r.className());
    }

    private static long[] cursor(PreparedStatement read, String gateway, long epoch, SlaTally.Row r) throws SQLException {
        bind(read, gateway, epoch, r);
        try (ResultSet rs = read.executeQuery()) {
            return rs.next() ? new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)} : null;
        }
    }

    private static void increment(PreparedStatement s, long bucket, SlaTally.Row r, long requests, long good) throws SQLException {
        s.setLong(1, bucket);
        s.setString(2, r.customer());
        s.setString(3, r.className());
        s.setLong(4, requests);
        s.setLong(5, good);
        s.addBatch();
    }

    /** Takes or renews the writer's lease inside the current transaction, or says who holds it. */
    private void claim(String owner, long now, long leaseMillis) throws SQLException, HeldElsewhere {
        try (PreparedStatement take = db.prepareStatement(
                "UPDATE sla_writer SET owner = ?, lease_until = ? WHERE id = 1 AND (owner = ? OR lease_until < ?)")) {
            take.setString(1, owner);
            take.setLong(2, now + leaseMillis);
            take.setString(3, owner);
            take.setLong(4, now);
            if (take.executeUpdate() == 1) {
                return;
            }
        }
        try (PreparedStatement who = db.prepareStatement("SELECT owner, lease_until FROM sla_writer WHERE id = 1");
             ResultSet rs = who.executeQuery()) {
            if (rs.next()) {
                throw new HeldElsewhere(rs.getString(1), rs.getLong(2));
            }
        }
        try (PreparedStatement first = db.prepareStatement(
                "INSERT INTO sla_writer (id, owner, lease_until) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING")) {
            first.setString(1, owner);
            first.setLong(2, now + leaseMillis);
            if (first.executeUpdate() != 1) {
                throw new SQLException("another writer took the SLA store's lease at this moment");
            }
        }
    }

    /** Whether the store still answers (a refused statement from one that does is the statement's fault). */
    boolean answers() {
        try {
            return db.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    /** Gives the lease up (a writer stopping), so that another may write at once. */
    public void release(String owner) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("UPDATE sla_writer SET lease_until = 0 WHERE id = 1 AND owner = ?")) {
            s.setString(1, owner);
            s.executeUpdate();
            db.commit();
        } catch (SQLException e) {
            rollbackQuietly();
            throw e;
        }
    }

    /** Deletes minute rows older than {@value #MINUTE_DAYS} days, hour rows older than {@value #HOUR_DAYS}, and dead ledgers' cursors. */
    public void purge(long nowMillis) throws SQLException {
        try (Statement s = db.createStatement()) {
            s.executeUpdate("DELETE FROM sla_minute WHERE minute < " + (nowMillis - MINUTE_DAYS * DAY) / MINUTE);
            s.executeUpdate("DELETE FROM sla_hour WHERE hour < " + (nowMillis - HOUR_DAYS * DAY) / HOUR);
            s.executeUpdate("DELETE FROM sla_cursor WHERE seen < " + (nowMillis - CURSOR_KEEP));
            db.commit();
        } catch (SQLException e) {
            rollbackQuietly();
            throw e;
        }
    }

    /**
     * Per customer and class, the counts of [{@code fromMillis}, {@code toMillis}): from minute rows where the span lies
     * within their {@value #MINUTE_DAYS} days, else from hour rows (the span widened to whole hours).
     *
     * @param customer only this customer's rows, or null for all
     */
    public List<Totals> totals(long fromMillis, long toMillis, String customer, long nowMillis) throws SQLException {
        boolean minutes = fromMillis >= nowMillis - MINUTE_DAYS * DAY + MINUTE;
        String table = minutes ? "sla_minute" : "sla_hour";
        String bucket = minutes ? "minute" : "hour";
        long unit = minutes ? MINUTE : HOUR;
        String sql = "SELECT customer, class, SUM(requests), SUM(good) FROM " + table + " WHERE " + bucket + " >= ? AND " + bucket
                + " < ?" + (customer == null ? "" : " AND customer = ?") + " GROUP BY customer, class ORDER BY customer, class";
        List<Totals> out = new ArrayList<>();
        try (PreparedStatement s = db.prepareStatement(sql)) {
            s.setLong(1, Math.floorDiv(fromMillis, unit));
            s.setLong(2, Math.floorDiv(toMillis - 1, unit) + 1);
            if (customer != null) {
                s.setString(3, customer);
            }
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(new Totals(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4)));
                }
            }
        } finally {
            db.rollback(); // a read: ends the snapshot, so that a writer can check point behind it
        }
        return out;
    }

    /** One customer's and class's hour rows in [{@code fromMillis}, {@code toMillis}), oldest first. */
    public List<Hour> hours(String customer, String className, long fromMillis, long toMillis) throws SQLException {
        List<Hour> out = new ArrayList<>();
        try (PreparedStatement s = db.prepareStatement("SELECT hour, requests, good FROM sla_hour WHERE customer = ? AND class = ?"
                + " AND hour >= ? AND hour < ? ORDER BY hour")) {
            s.setString(1, customer);
            s.setString(2, className);
            s.setLong(3, Math.floorDiv(fromMillis, HOUR));
            s.setLong(4, Math.floorDiv(toMillis - 1, HOUR) + 1);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(new Hour(rs.getLong(1) * HOUR, rs.getLong(2), rs.getLong(3)));
                }
            }
        } finally {
            db.rollback();
        }
        return out;
    }

    private void rollbackQuietly() {
        try {
            db.rollback();
        } catch (SQLException ignored) {
            // the connection is broken: the caller reopens the store
        }
    }

    @Override
    public void close() throws SQLException {
        db.close();
    }
}
