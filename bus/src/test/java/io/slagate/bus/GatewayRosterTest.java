package io.slagate.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GatewayRosterTest {
    @Test
    void withoutBindings_anAccountJoinsNothing_noFirstComeFirstServed() {
        GatewayRoster r = new GatewayRoster(64, Map.of(), "rm");
        assertEquals(GatewayRoster.Refusal.NOT_BOUND, r.join("gw1", "gw1"), "an account not listed joins nothing");
        assertEquals(GatewayRoster.Refusal.NOT_BOUND, r.join("fake-1", "gw1"));
        assertEquals(0, r.size());
    }

    @Test
    void gw1sAccount_cannotJoinSpeakForOrLeaveGw2_evenWhileGw2Restarts() {
        GatewayRoster r = new GatewayRoster(64, Map.of("gw1", List.of("gw1"), "gw2", List.of("gw2")), "rm");
        assertNull(r.join("gw1", "gw1"));
        assertNull(r.join("gw2", "gw2"));
        assertEquals(GatewayRoster.Refusal.OTHER_ACCOUNT, r.check("gw2", "gw1"), "gw1's account speaks not for gw2");
        r.leave("gw2"); // gw2 restarts
        assertEquals(GatewayRoster.Refusal.NOT_BOUND, r.join("gw2", "gw1"), "and cannot take gw2's id meanwhile");
        r.leave("gw1");
        assertEquals(GatewayRoster.Refusal.NOT_BOUND, r.join("gw2", "gw1"), "not even after leaving its own");
        assertNull(r.join("gw2", "gw2"), "the real gw2 joins again");
        assertEquals(GatewayRoster.Refusal.OTHER_ACCOUNT, r.join("gw2", "gw1"));
    }

    @Test
    void theReceiversOwnAccount_andNoAuthentication_joinAnyNumber() {
        GatewayRoster r = new GatewayRoster(64, Map.of(), "slagate");
        for (int i = 0; i < 3; i++) {
            assertNull(r.join("gw" + i, "slagate"), "one account shared by every process: no identity to bind");
            assertNull(r.join("anon" + i, null), "no authentication on the bus");
        }
        assertEquals(6, r.size());
    }

    @Test
    void withBindings_onlyTheListedIds_andUnlistedAccountsNone() {
        GatewayRoster r = new GatewayRoster(64, Map.of("edge", List.of("gw3", "gw4"), "gw1", List.of("gw1")), "rm");
        assertNull(r.join("gw3", "edge"));
        assertNull(r.join("gw4", "edge"));
        assertEquals(GatewayRoster.Refusal.NOT_BOUND, r.join("gw5", "edge"));
        assertEquals(GatewayRoster.Refusal.NOT_BOUND, r.join("gw3b", "stranger"));
        assertNull(r.join("gw9", "rm"), "the receiver's own credential is its own process's");
    }

    @Test
    void atMostMax() {
        GatewayRoster r = new GatewayRoster(2, Map.of(), null);
        assertNull(r.join("a", null));
        assertNull(r.join("b", null));
        assertEquals(GatewayRoster.Refusal.FULL, r.join("c", null));
        r.setMax(3);
        assertNull(r.join("c", null));
    }
}
