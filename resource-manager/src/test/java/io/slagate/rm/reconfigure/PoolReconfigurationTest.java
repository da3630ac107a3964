package io.slagate.rm.reconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.config.ReconfigurationSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Scripted utilizations with a fake clock: two pools of two servers of 10 slots, one movable server in each. */
class PoolReconfigurationTest {
    private static final long S = 1_000_000_000L;
    private static final ReconfigurationSettings SETTINGS = new ReconfigurationSettings(Duration.ofSeconds(10), 0.85, 0.5,
            Duration.ofSeconds(60), Map.of());

    /** a1, a2 (a2 movable to b) in a; b1, b2 (b2 movable to a) in b; {@code a2In}/{@code b2In}: where the movable ones are. */
    private static List<PoolReconfiguration.Server> servers(String a2In, String b2In, int outstandingB2) {
        List<PoolReconfiguration.Server> l = new ArrayList<>();
        l.add(new PoolReconfiguration.Server("a1", "a", List.of(), 10, 10, 0.05));
        l.add(new PoolReconfiguration.Server("a2", a2In, List.of("a", "b"), 10, 10, 0.05));
        l.add(new PoolReconfiguration.Server("b1", "b", List.of(), 10, 2, 0.05));
        l.add(new PoolReconfiguration.Server("b2", b2In, List.of("b", "a"), 10, outstandingB2, 0.05));
        return l;
    }

    @Test
    void aSaturatedPool_getsTheIdlePoolsMovableServer() {
        PoolReconfiguration r = new PoolReconfiguration(SETTINGS);
        // a: 19 busy slots needed on 20 (0.95); b: 6 on 20 (0.3), 0.6 without b2
        PoolReconfiguration.Move m = r.decide(0, Map.of("a", 19.0, "b", 6.0), servers("a", "b", 2));
        assertNotNull(m);
        assertEquals("b2", m.server());
        assertEquals("b", m.from());
        assertEquals("a", m.to());
        assertEquals(0.95, m.toLoad(), 1e-9);
        assertEquals(2 * 0.05 / 10, m.drainSeconds(), 1e-12);
    }

    @Test
    void noMove_whenNoPoolIsSaturated_orTheGiverWouldBe_orBelowItsMinimum() {
        PoolReconfiguration r = new PoolReconfiguration(SETTINGS);
        assertNull(r.decide(0, Map.of("a", 16.0, "b", 6.0), servers("a", "b", 2)), "a at 0.80 is not saturated");
        // b at 0.45 ≤ low, but 0.9 without b2: it would be saturated itself
        assertNull(r.decide(100 * S, Map.of("a", 19.0, "b", 9.0), servers("a", "b", 2)));
        assertTrue(r.idleReason().contains("b2"), r.idleReason());
        // b above low: it has nothing to spare
        assertNull(r.decide(200 * S, Map.of("a", 19.0, "b", 11.0), servers("a", "b", 2)));
        // b's minimum is 2 servers: b2 stays
        PoolReconfiguration min = new PoolReconfiguration(new ReconfigurationSettings(Duration.ofSeconds(10), 0.85, 0.5,
                Duration.ofSeconds(60), Map.of("b", 2)));
        assertNull(min.decide(0, Map.of("a", 19.0, "b", 2.0), servers("a", "b", 0)));
        assertTrue(min.idleReason().contains("keeps at least 2"), min.idleReason());
    }

    @Test
    void theCostTest_waitsWhileTheCandidateIsSlowToDrain_andMovesWhenItIsQuick() {
        // b2 busy with long requests: 10 in flight of 20 s each on 10 slots = 20 s to drain, more than every (10 s)
        PoolReconfiguration r = new PoolReconfiguration(SETTINGS);
        List<PoolReconfiguration.Server> slow = new ArrayList<>(servers("a", "b", 2));
        slow.set(3, new PoolReconfiguration.Server("b2", "b", List.of("b", "a"), 10, 10, 20));
        assertNull(r.decide(0, Map.of("a", 19.0, "b", 6.0), slow));
        assertTrue(r.idleReason().contains("drain"), r.idleReason());
        // the same server with its requests nearly done: moved
        assertNotNull(r.decide(10 * S, Map.of("a", 19.0, "b", 6.0), servers("a", "b", 1)));
    }

    @Test
    void noFlapping_aMovedServerDwells_whateverTheLoadsDo() {
        PoolReconfiguration r = new PoolReconfiguration(SETTINGS);
        assertEquals("b2", r.decide(0, Map.of("a", 19.0, "b", 6.0), servers("a", "b", 0)).server());
        // 10 s later the load turned round: b is saturated on its one server, a idle on three; b2 may not go back yet,
        // and a2 may go (it never moved)
        PoolReconfiguration.Move back = r.decide(10 * S, Map.of("a", 3.0, "b", 9.5), servers("a", "a", 0));
        assertEquals("a2", back.server(), "the server that just moved dwells; another goes");
        // b2 could go back only after its dwell
        assertNull(r.decide(20 * S, Map.of("a", 3.0, "b", 19.0), servers("b", "a", 0)),
                "a2 is in b already; b2's dwell (60 s) is not over: nothing moves");
        assertNotNull(r.decide(61 * S, Map.of("a", 3.0, "b", 19.0), servers("b", "a", 0)), "after the dwell it may");
    }

    @Test
    void decisionsAreDue_every() {
        PoolReconfiguration r = new PoolReconfiguration(SETTINGS);
        assertTrue(r.due(0));
        r.decide(0, Map.of(), servers("a", "b", 0));
        assertTrue(!r.due(9 * S) && r.due(10 * S));
    }

    @Test
    void aMoveTheServerRefused_isNeverProposedAgain_butItsOtherPoolsStillAre() {
        PoolReconfiguration r = new PoolReconfiguration(SETTINGS);
        r.forbid("b2", "a");
        assertNull(r.decide(0, Map.of("a", 19.0, "b", 6.0), servers("a", "b", 2)), "b2 refused a");
        assertTrue(r.idleReason().contains("b2: refused a before"), r.idleReason());
        // the other way still works: b saturated, a2 may go
        PoolReconfiguration.Move m = r.decide(100 * S, Map.of("a", 6.0, "b", 19.0), servers("a", "b", 2));
        assertNotNull(m);
        assertEquals("a2", m.server());
    }

    @Test
    void aServerPinnedByTheOperator_staysWhereItIs_untilUnpinned() {
        PoolReconfiguration r = new PoolReconfiguration(SETTINGS);
        r.pin("b2", true);
        assertNull(r.decide(0, Map.of("a", 19.0, "b", 6.0), servers("a", "b", 2)));
        assertTrue(r.idleReason().contains("b2: pinned by the operator"), r.idleReason());
        r.pin("b2", false);
        PoolReconfiguration.Move m = r.decide(100 * S, Map.of("a", 19.0, "b", 6.0), servers("a", "b", 2));
        assertNotNull(m, "unpinned, it may move again");
        assertEquals("b2", m.server());
    }
}

