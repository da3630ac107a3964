package io.slagate.gateway.agent;

import io.slagate.gateway.testing.TestConfigs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.sched.Allocation;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A gateway's admission before its first allocation, on a fake clock (cycle 1 s: the manager timeout is 3 s). */
class StartupAdmissionTest {
    private static final long SECOND = 1_000_000_000L;
    private final AtomicLong now = new AtomicLong(7 * SECOND);
    private volatile boolean busAnswered = true;

    private static Gateway gateway(String startup) throws Exception {
        return new Gateway(TestConfigs.parse("""
                gateway: { listen: "127.0.0.1:0", admin: "127.0.0.1:0"%s }
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 10 }, { id: s2, url: "http://127.0.0.1:2", concurrency: 6 } ]
                classes: [ { name: premium, target: 1s }, { name: basic, target: 2s } ]
                allocation: { weights: { premium: 3, basic: 1 } }
                controller: { cycle: 1s }
                """.formatted(startup), "startup.yaml"));
    }

    @Test
    void beforeTheFirstAllocation_noSlot_notReady_thenTheManagersShare() throws Exception {
        Gateway g = gateway("");
        StartupAdmission s = new StartupAdmission(g, now::get, () -> busAnswered);
        assertArrayEquals(new int[] {0, 0}, g.queues().caps().allocation().caps(), "not the static 10 and 6: others may hold them");
        assertArrayEquals(new double[] {3, 1}, g.queues().caps().allocation().weights(), 1e-9);
        assertTrue(g.readiness().reason().startsWith("waiting for the first allocation"), g.readiness().reason());
        g.setAllocation(new Allocation(42, new double[] {1, 1}, new int[] {5, 3}));
        s.allocated();
        assertFalse(s.waiting());
        assertEquals("not started", g.readiness().reason(), "no longer waiting (only not started, in this test)");
        now.addAndGet(60 * SECOND);
        s.checkTimeout();
        assertArrayEquals(new int[] {5, 3}, g.queues().caps().allocation().caps(), "a manager's share is never replaced by the static one");
    }

    @Test
    void noManagerHeard_forTheTimeout_theStaticAllocation() throws Exception {
        Gateway g = gateway(", startupCaps: 2");
        StartupAdmission s = new StartupAdmission(g, now::get, () -> busAnswered);
        assertArrayEquals(new int[] {2, 2}, g.queues().caps().allocation().caps());
        s.checkTimeout(); // the bus answers now: the timeout counts from here
        now.addAndGet(2 * SECOND);
        s.managerHeard(); // a manager is there (listening, say): keep waiting for it
        now.addAndGet(2 * SECOND);
        s.checkTimeout();
        assertArrayEquals(new int[] {2, 2}, g.queues().caps().allocation().caps(), "heard 2 s ago: within the 3 s");
        now.addAndGet(SECOND + 1);
        s.checkTimeout();
        assertArrayEquals(new int[] {10, 6}, g.queues().caps().allocation().caps(), "none heard for 3 s: the static caps");
        assertFalse(s.waiting());
        assertEquals("not started", g.readiness().reason(), "no longer waiting (only not started, in this test)");
    }

    @Test
    void busNotAnsweredYet_noStaticAllocation_whateverTheTime() throws Exception {
        Gateway g = gateway("");
        busAnswered = false; // a refusal of the credentials may still be on its way
        StartupAdmission s = new StartupAdmission(g, now::get, () -> busAnswered);
        now.addAndGet(60 * SECOND);
        s.checkTimeout();
        assertArrayEquals(new int[] {0, 0}, g.queues().caps().allocation().caps());
        assertTrue(s.waiting() && g.readiness().reason().startsWith("waiting"), g.readiness().reason());
        busAnswered = true; // unreachable (or connected), and still no manager
        s.checkTimeout();
        assertArrayEquals(new int[] {0, 0}, g.queues().caps().allocation().caps(), "no manager could be heard before the bus answered");
        now.addAndGet(3 * SECOND);
        s.checkTimeout();
        assertArrayEquals(new int[] {10, 6}, g.queues().caps().allocation().caps());
    }

    @Test
    void explicitManagerTimeout_andACapAboveTheStaticOne() throws Exception {
        Gateway g = gateway(", startupCaps: 8, managerTimeout: 500ms");
        StartupAdmission s = new StartupAdmission(g, now::get, () -> busAnswered);
        assertArrayEquals(new int[] {8, 6}, g.queues().caps().allocation().caps(), "never above the static cap");
        s.checkTimeout();
        now.addAndGet(SECOND / 2);
        s.checkTimeout();
        assertArrayEquals(new int[] {10, 6}, g.queues().caps().allocation().caps());
    }
}
