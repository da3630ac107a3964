package io.slagate.sla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.bus.message.SlaTally;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The store against real databases: an SQLite file, and PostgreSQL where one is given ({@link TestStores}). */
class SlaStoreTest {
    private static final long T0 = 1_790_000_040_000L; // 2026-09-21, a whole minute
    private static final long MIN = SlaStore.MINUTE;

    @TempDir
    static Path dir;

    static Stream<String> stores() {
        return TestStores.urls(dir);
    }

    private static SlaTally tally(long epoch, SlaTally.Row... rows) {
        return new SlaTally(epoch, List.of(rows));
    }

    private static SlaTally.Row row(String customer, String cls, long requests, long good) {
        return new SlaTally.Row(customer, cls, requests, good);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void runningTotals_countOnce_whateverIsRepeatedLateOrMissed(String url) throws Exception {
        try (SlaStore s = TestStores.fresh(url)) {
            s.apply(Map.of("gw1", tally(1, row("acme", "gold", 10, 9))), "w", T0, 30_000);
            s.apply(Map.of("gw1", tally(1, row("acme", "gold", 10, 9))), "w", T0 + 5_000, 30_000); // repeated
            s.apply(Map.of("gw1", tally(1, row("acme", "gold", 25, 20))), "w", T0 + 10_000, 30_000); // one missed before it
            s.apply(Map.of("gw1", tally(1, row("acme", "gold", 15, 12))), "w", T0 + 15_000, 30_000); // late: older than stored
            s.apply(Map.of("gw2", tally(7, row("acme", "gold", 5, 5))), "w", T0 + 20_000, 30_000); // another gateway
            s.apply(Map.of("gw1", tally(2, row("acme", "gold", 3, 1))), "w", T0 + 70_000, 30_000); // gw1 restarted: a new ledger
            assertEquals(List.of(new SlaStore.Totals("acme", "gold", 33, 26)), s.totals(T0, T0 + 2 * MIN, null, T0 + 2 * MIN));
            // the minute each increment was written in
            assertEquals(List.of(new SlaStore.Totals("acme", "gold", 30, 25)), s.totals(T0, T0 + MIN, null, T0 + 2 * MIN));
            assertEquals(List.of(new SlaStore.Totals("acme", "gold", 3, 1)), s.totals(T0 + MIN, T0 + 2 * MIN, "acme", T0 + 2 * MIN));
            assertEquals(List.of(), s.totals(T0, T0 + 2 * MIN, "other-customer", T0 + 2 * MIN));
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void secondWriter_standsBy_untilTheLeaseIsGivenUpOrRunsOut(String url) throws Exception {
        try (SlaStore a = TestStores.fresh(url); SlaStore b = SlaStore.open(url, TestStores.user(url), TestStores.password(url))) {
            a.apply(Map.of("gw1", tally(1, row("acme", "gold", 10, 9))), "writer-a", T0, 30_000);
            SlaStore.HeldElsewhere held = assertThrows(SlaStore.HeldElsewhere.class,
                    () -> b.apply(Map.of("gw1", tally(1, row("acme", "gold", 20, 18))), "writer-b", T0 + 5_000, 30_000));
            assertTrue(held.getMessage().contains("writer-a"), held.getMessage());
            assertEquals(10, a.totals(T0, T0 + MIN, null, T0 + MIN).get(0).requests(), "the refused writer wrote nothing");
            // the lease runs out: b takes over, and its increment is the difference from what a stored
            b.apply(Map.of("gw1", tally(1, row("acme", "gold", 20, 18))), "writer-b", T0 + 31_000, 30_000);
            assertEquals(20, b.totals(T0, T0 + MIN, null, T0 + MIN).get(0).requests());
            b.release("writer-b");
            a.apply(Map.of("gw1", tally(1, row("acme", "gold", 21, 19))), "writer-a", T0 + 40_000, 30_000);
            assertEquals(new SlaStore.Totals("acme", "gold", 21, 19), a.totals(T0, T0 + MIN, null, T0 + MIN).get(0));
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void oldMinuteRows_purged_hourRowsAnswerForOldSpans(String url) throws Exception {
        try (SlaStore s = TestStores.fresh(url)) {
            s.apply(Map.of("gw1", tally(1, row("acme", "gold", 10, 9))), "w", T0, 30_000);
            long later = T0 + 20 * SlaStore.DAY;
            s.apply(Map.of("gw1", tally(1, row("acme", "gold", 12, 10))), "w", later, 30_000);
            s.purge(later);
            assertEquals(List.of(), s.totals(T0, T0 + MIN, null, T0 + MIN), "the minute rows of 20 days ago are gone");
            // a span reaching back beyond 14 days reads the hour rows
            assertEquals(List.of(new SlaStore.Totals("acme", "gold", 12, 10)), s.totals(T0, later + MIN, null, later + MIN));
            assertEquals(List.of(new SlaStore.Hour(T0 / SlaStore.HOUR * SlaStore.HOUR, 10, 9)),
                    s.hours("acme", "gold", T0, T0 + SlaStore.DAY));
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void hostileNames_storedAsGiven(String url) throws Exception {
        String odd = "a,\"b\"\n\u001b[31m=cmd|' /C calc'!A0";
        try (SlaStore s = TestStores.fresh(url)) {
            s.apply(Map.of("gw1", tally(1, row(odd, "gold", 4, 2), row("x".repeat(256), "gold", 1, 1))), "w", T0, 30_000);
            List<SlaStore.Totals> t = s.totals(T0, T0 + MIN, odd, T0 + MIN);
            assertEquals(List.of(new SlaStore.Totals(odd, "gold", 4, 2)), t);
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void unreachableStore_saysWhy(String url) {
        String broken = url.startsWith("jdbc:sqlite:") ? "jdbc:sqlite:" + dir.resolve("no-such-dir/x.db")
                : url.replaceFirst("//[^/]+/", "//127.0.0.1:1/");
        assertThrows(SQLException.class, () -> SlaStore.open(broken, TestStores.user(url), TestStores.password(url)).close());
    }
}
